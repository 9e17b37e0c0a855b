"""MNIST test-set loader: IDX parsing with checksum verification, and a load_digits fallback.

The files are ``t10k-images-idx3-ubyte.gz`` and ``t10k-labels-idx1-ubyte.gz`` (gzipped or not).
They are looked for, in order, in an explicit ``path``, the environment variable ``MNIST_PATH``,
``data/raw/mnist/`` and ``data/raw/`` of the repository, and ``../shared/data/mnist``. SHA-256 of
the *uncompressed* files are from ``/work/shared/data/README.md``.
"""

from __future__ import annotations

import gzip
import hashlib
import os
import warnings
from pathlib import Path

import numpy as np

from .paths import RAW_DIR, SHARED_DATA_DIR

__all__ = ["load_mnist_test", "read_idx", "MNIST_SHA256"]

MNIST_SHA256 = {
    "t10k-images-idx3-ubyte": "0fa7898d509279e482958e8ce81c8e77db3f2f8254e26661ceb7762c4d494ce7",
    "t10k-labels-idx1-ubyte": "ff7bcfd416de33731a308c3f266cc351222c34898ecbeaf847f06e48f7ec33f2",
}
_DTYPES = {0x08: np.uint8, 0x09: np.int8, 0x0B: ">i2", 0x0C: ">i4", 0x0D: ">f4", 0x0E: ">f8"}


def _read_bytes(path: Path) -> bytes:
    try:
        with gzip.open(path, "rb") as fh:
            return fh.read()
    except gzip.BadGzipFile:
        return Path(path).read_bytes()
    except EOFError as err:
        raise ValueError(f"{path} is a truncated gzip file ({err}); copy it again from the source.") from err


def read_idx(path) -> np.ndarray:
    """Parse an IDX file (gzipped or raw) into a numpy array.

    Checks the magic number (two zero bytes, a type code, the number of dimensions) and that
    the payload has exactly the size the header announces.

    Examples
    --------
    >>> import tempfile, struct
    >>> f = Path(tempfile.mkdtemp()) / "x.idx"
    >>> _ = f.write_bytes(struct.pack(">BBBBI", 0, 0, 8, 1, 3) + bytes([7, 2, 1]))
    >>> read_idx(f).tolist()
    [7, 2, 1]
    """
    path = Path(path)
    return _parse_idx(_read_bytes(path), path)


def _parse_idx(raw: bytes, path: Path) -> np.ndarray:
    if len(raw) < 4:
        raise ValueError(f"{path} is too short to be an IDX file ({len(raw)} bytes).")
    if raw[0] != 0 or raw[1] != 0 or raw[2] not in _DTYPES:
        raise ValueError(f"{path} is not an IDX file: bad magic number {raw[:4].hex()} (expected 0000 + type code 08-0e + ndim).")
    ndim = raw[3]
    header = 4 + 4 * ndim
    if ndim == 0 or len(raw) < header:
        raise ValueError(f"{path}: IDX header announces {ndim} dimensions but the file is too short for them.")
    dims = tuple(int(x) for x in np.frombuffer(raw, dtype=">u4", count=ndim, offset=4))
    dtype = np.dtype(_DTYPES[raw[2]])
    expected = int(np.prod(dims)) * dtype.itemsize
    if len(raw) - header != expected:
        raise ValueError(f"{path}: IDX header announces shape {dims} ({expected} bytes of data) but the file holds {len(raw) - header}; it is truncated or corrupt.")
    return np.frombuffer(raw, dtype=dtype, offset=header).reshape(dims)


def _candidates(path):
    if path is not None:
        return [Path(path)]
    dirs = []
    if os.environ.get("MNIST_PATH"):
        dirs.append(Path(os.environ["MNIST_PATH"]))
    return dirs + [RAW_DIR / "mnist", RAW_DIR, SHARED_DATA_DIR / "mnist"]


def _find(folder: Path, stem: str):
    for name in (stem + ".gz", stem):
        if (folder / name).is_file():
            return folder / name
    return None


def load_mnist_test(n: int = 1000, path=None, verify: bool = True, fallback: bool = True):
    """The first ``n`` MNIST test images as floats in [0, 1] and their labels.

    Parameters
    ----------
    n : int, default=1000
        Number of images (1 to 10,000), taken in file order.
    path : str or Path, optional
        Folder holding the two IDX files; missing files there raise FileNotFoundError.
        Without it, ``MNIST_PATH``, ``data/raw/mnist/``, ``data/raw/`` and
        ``../shared/data/mnist`` are searched.
    verify : bool, default=True
        Compare the SHA-256 of the uncompressed files with the published checksums.
    fallback : bool, default=True
        When the files are not found, return scikit-learn's digits with a warning (``True``) or
        raise FileNotFoundError saying where to put the files (``False``: for analyses whose
        numbers only mean something on MNIST itself).

    Returns
    -------
    X : ndarray (n, 784) float64 in [0, 1]
    y : ndarray (n,) int64
    source : str
        ``"mnist"``, or ``"sklearn-digits"`` when the files were not found: then scikit-learn's
        8 x 8 digits (1,797 images, rescaled to [0, 1]) are returned with a UserWarning.

    Examples
    --------
    >>> X, y, source = load_mnist_test(10)  # doctest: +SKIP
    >>> y.tolist()  # doctest: +SKIP
    [7, 2, 1, 0, 4, 1, 4, 9, 5, 9]
    """
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 1:
        raise ValueError(f"n must be a positive integer; got {n!r}.")
    for folder in _candidates(path):
        img, lab = _find(folder, "t10k-images-idx3-ubyte"), _find(folder, "t10k-labels-idx1-ubyte")
        if img is None or lab is None:
            if path is not None:
                raise FileNotFoundError(f"{folder} does not hold t10k-images-idx3-ubyte(.gz) and t10k-labels-idx1-ubyte(.gz).")
            continue
        arrays = {}
        for stem, file in (("t10k-images-idx3-ubyte", img), ("t10k-labels-idx1-ubyte", lab)):
            raw = _read_bytes(file)  # decompressed once: checksum and parsing share it
            if verify:
                digest = hashlib.sha256(raw).hexdigest()
                if digest != MNIST_SHA256[stem]:
                    raise ValueError(f"{file}: SHA-256 {digest[:12]}... does not match the published {MNIST_SHA256[stem][:12]}...; the file is corrupt or a different version. Copy it again, or pass verify=False for test files.")
            arrays[stem] = _parse_idx(raw, file)
        X, y = arrays["t10k-images-idx3-ubyte"], arrays["t10k-labels-idx1-ubyte"]
        if X.ndim != 3 or y.ndim != 1 or X.shape[0] != y.shape[0]:
            raise ValueError(f"{folder}: expected images (N, rows, cols) and N labels; got {X.shape} and {y.shape}.")
        if n > X.shape[0]:
            raise ValueError(f"n = {n} exceeds the {X.shape[0]} images available.")
        return X[:n].reshape(n, -1).astype(np.float64) / 255.0, y[:n].astype(np.int64), "mnist"
    where = "MNIST_PATH, data/raw/mnist/, data/raw/, ../shared/data/mnist"
    if not fallback:
        raise FileNotFoundError(
            f"MNIST IDX files t10k-images-idx3-ubyte(.gz) and t10k-labels-idx1-ubyte(.gz) not found (looked in {where}). "
            "Copy ../shared/data/mnist/ to data/raw/mnist/ or set MNIST_PATH to the folder holding them."
        )
    from sklearn.datasets import load_digits

    warnings.warn(
        "MNIST IDX files not found (looked in MNIST_PATH, data/raw/mnist/, data/raw/, ../shared/data/mnist); "
        "falling back to scikit-learn's 8x8 digits (load_digits). Copy the MNIST files to data/raw/mnist/ for the real data.",
        UserWarning,
        stacklevel=2,
    )
    digits = load_digits()
    if n > digits.data.shape[0]:
        raise ValueError(f"n = {n} exceeds the {digits.data.shape[0]} images of the load_digits fallback.")
    return digits.data[:n] / 16.0, digits.target[:n].astype(np.int64), "sklearn-digits"
