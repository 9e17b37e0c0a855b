"""The address of a Dask scheduler, checked before any work is sent to it (plumbing: imports nothing of the package).

The sweeps and the own study both take ``--dask ADDRESS``; both refuse here, within seconds, an
address that is malformed, where nothing listens, or where what listens is not a Dask scheduler,
instead of hanging or failing with a traceback after the work was prepared.
"""

from __future__ import annotations

import errno
import socket
import threading
import warnings

__all__ = ["CONNECT_TIMEOUT", "check_dask_address"]

#: seconds to reach a Dask scheduler, and for it to answer, before the address is refused
CONNECT_TIMEOUT = 5.0


def _dask_identity(address: str, timeout: float) -> dict | None:
    """The scheduler's answer to Dask's ``identity`` request, or ``None`` when none comes in time.

    Run in a thread of its own: it needs an event loop, and the caller may be in one (Jupyter).
    """
    import asyncio

    from distributed.comm import connect

    async def ask():
        comm = await connect(address, timeout=timeout)
        try:
            await comm.write({"op": "identity"})
            return await comm.read()
        finally:
            comm.abort()

    answer: list = []

    def probe():
        try:
            answer.append(asyncio.run(asyncio.wait_for(ask(), timeout)))
        except BaseException:  # a timeout, a closed connection, a reply Dask cannot decode
            answer.append(None)

    thread = threading.Thread(target=probe, daemon=True)
    thread.start()
    thread.join(2 * timeout + 1)
    reply = answer[0] if answer else None
    return reply if isinstance(reply, dict) else None


def check_dask_address(address: str, timeout: float = CONNECT_TIMEOUT, stacklevel: int = 2) -> None:
    """Refuse a Dask address that is malformed, where nothing listens, or where what listens is not a
    Dask scheduler (an HTTP server, the dashboard's port, a worker); ``timeout`` seconds for each step.

    ``"local"`` (a cluster started on this machine) passes. A scheduler without workers passes
    with a warning: the work waits until one joins.

    Raises
    ------
    ValueError
        dask.distributed is not installed, or ``address`` is not ``tcp://HOST:PORT`` (or ``tls://``).
    ConnectionError
        Nothing answers at ``address``, or what answers is not a Dask scheduler.
    """
    from urllib.parse import urlsplit

    try:
        import distributed  # noqa: F401
    except ImportError:  # pragma: no cover - dask is an optional extra
        raise ValueError("--dask needs dask.distributed: pip install 'covsim-workbook[sweep]'.") from None
    if address == "local":
        return
    parts = urlsplit(address)
    try:
        host, port = parts.hostname, parts.port
    except ValueError:
        host = port = None
    if parts.scheme not in ("tcp", "tls") or not host or port is None:
        raise ValueError(f"--dask {address!r} is not a scheduler address; give 'local' or tcp://HOST:PORT "
                         "(e.g. tcp://127.0.0.1:8786).")
    try:
        socket.create_connection((host, port), timeout=timeout).close()
    except OSError as exc:
        raise ConnectionError(
            errno.ECONNREFUSED,
            f"No Dask scheduler answers at {address} ({exc.strerror or exc}); start one (dask scheduler), "
            "check the address, or use --dask local.",
        ) from None
    identity = _dask_identity(address, timeout)
    if identity is None:
        raise ConnectionError(
            errno.EPROTO,
            f"Something listens at {address} but it is not a Dask scheduler (no answer to Dask's handshake in "
            f"{timeout:g} s): a web server, or the dashboard's port (8787)? Give the scheduler's "
            "address (dask scheduler prints it: tcp://HOST:8786), or use --dask local.",
        )
    if identity.get("type") != "Scheduler":
        raise ConnectionError(
            errno.EPROTO,
            f"{address} is a Dask {identity.get('type') or 'process'}, not a scheduler; give the scheduler's "
            "address (dask scheduler prints it: tcp://HOST:8786), or use --dask local.",
        )
    if not identity.get("workers"):
        warnings.warn(f"The Dask scheduler at {address} has no workers yet; the runs wait until one joins "
                      f"(start one with: dask worker {address}).", stacklevel=stacklevel)
