"""The environment every command line of the workbook runs in: the one the Makefile exports.

``make`` exports one BLAS thread, a fixed hash seed and ``TQDM_DISABLE`` (so that no kernel stores
a progress bar) before it starts a command; run directly, ``python -m helpers.workbook`` (the
own study's ``study`` commands included) sets the same in its first lines
(:func:`reproducible_environment`), so that ``make X`` and ``python -m ... X`` give the same
outputs: the kernels and workers they start inherit the variables, and the process itself limits
its thread pools (threadpoolctl), since its BLAS was loaded before they could be read.
"""

from __future__ import annotations

import os

#: what the Makefile exports (``export OMP_NUM_THREADS := 1`` ...), overriding the caller's values as make does
SETTINGS = {"OMP_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1", "MKL_NUM_THREADS": "1", "PYTHONHASHSEED": "0",
            "TQDM_DISABLE": "1"}


#: in a command-line process, the caller's TQDM_DISABLE (``None``: unset), recorded when
#: :func:`reproducible_environment` replaced it for the kernels and workers the process starts
_console: dict = {}


def own_bars_hidden() -> bool:
    """Whether this process's own progress bars are hidden: by the caller's ``TQDM_DISABLE`` in a command line
    that set the Makefile's value for the processes it starts (:func:`reproducible_environment`), else by the
    environment's (a kernel, a worker, a plain script).

    Examples
    --------
    >>> own_bars_hidden() == caller_hides_progress()   # no command line here
    True
    """
    if "caller" in _console:
        return caller_hides_progress({"TQDM_DISABLE": _console["caller"] or ""})
    return caller_hides_progress()


def caller_hides_progress(environ=None) -> bool:
    """Whether the caller set ``TQDM_DISABLE`` to hide progress bars (as the Makefile reads it: not 0 or false).

    Examples
    --------
    >>> caller_hides_progress({"TQDM_DISABLE": "1"}), caller_hides_progress({"TQDM_DISABLE": "false"})
    (True, False)
    >>> caller_hides_progress({})
    False
    """
    value = (os.environ if environ is None else environ).get("TQDM_DISABLE", "")
    return value.strip() not in ("", "0", "false", "False")


def reproducible_environment(environ=None) -> dict:
    """Set :data:`SETTINGS` in ``environ`` (``os.environ``) and limit this process's thread pools to one thread.

    Returns the values it replaced (``None`` where a variable was unset), for a caller that wants
    to say so.

    Examples
    --------
    >>> env = {"OMP_NUM_THREADS": "8"}
    >>> reproducible_environment(env)["OMP_NUM_THREADS"], env["OMP_NUM_THREADS"], env["TQDM_DISABLE"]
    ('8', '1', '1')
    """
    environ = os.environ if environ is None else environ
    before = {name: environ.get(name) for name in SETTINGS}
    environ.update(SETTINGS)
    if environ is os.environ:
        _console.setdefault("caller", before["TQDM_DISABLE"])   # the process's own bars still follow the caller
        from threadpoolctl import threadpool_limits

        threadpool_limits(1)   # the BLAS of this process was loaded before the variables could take effect
    return before
