"""MNIST test-set loader: IDX parsing with checksum verification, and a load_digits fallback.

The files are ``t10k-images-idx3-ubyte.gz`` and ``t10k-labels-idx1-ubyte.gz`` (gzipped or not),
from Yann LeCun's MNIST page (:data:`MNIST_URL`) or a mirror. They are looked for in an explicit
``path``, else in the folder named by the environment variable ``MNIST_PATH``, else in
``data/raw/mnist/`` and ``data/raw/`` of the repository. :data:`MNIST_SHA256` holds the SHA-256
of the *uncompressed* files.
"""

from __future__ import annotations

import gzip
import hashlib
import math
import os
import warnings
import zlib
from pathlib import Path

import numpy as np

from .paths import RAW_DIR

__all__ = ["load_mnist_test", "read_idx", "MNIST_SHA256", "MNIST_URL"]

#: Where the files come from (or a mirror of it).
MNIST_URL = "http://yann.lecun.com/exdb/mnist/"

MNIST_SHA256 = {
    "t10k-images-idx3-ubyte": "0fa7898d509279e482958e8ce81c8e77db3f2f8254e26661ceb7762c4d494ce7",
    "t10k-labels-idx1-ubyte": "ff7bcfd416de33731a308c3f266cc351222c34898ecbeaf847f06e48f7ec33f2",
}
_DTYPES = {0x08: np.uint8, 0x09: np.int8, 0x0B: ">i2", 0x0C: ">i4", 0x0D: ">f4", 0x0E: ">f8"}


_GZIP_MAGIC = b"\x1f\x8b"
_STEMS = ("t10k-images-idx3-ubyte", "t10k-labels-idx1-ubyte")
_FILES = "t10k-images-idx3-ubyte(.gz) and t10k-labels-idx1-ubyte(.gz)"
_SOURCE = f"Yann LeCun's MNIST page ({MNIST_URL}) or a mirror"
_AGAIN = f"download it again from {_SOURCE}."


def _get_them(folder: Path, verb: str = "Download") -> str:
    """Where to download the two files and where to put them."""
    return f"{verb} {_FILES} from {_SOURCE} and put them in {folder}"


def _read_bytes(path: Path) -> bytes:
    """The file's bytes, gunzipped when it starts with the gzip magic number."""
    path = Path(path)
    if path.is_dir():
        raise ValueError(f"{path} is a folder where an IDX file is expected; pass the file's path, or remove or "
                         "rename the folder.")
    try:
        raw = path.read_bytes()
    except FileNotFoundError as err:
        raise FileNotFoundError(f"{path} does not exist; pass the path of an IDX file ({_FILES}).") from err
    except PermissionError as err:
        raise PermissionError(f"{path} cannot be read ({err.strerror or err}); give your user read access "
                              "(chmod u+r) or copy the file to a folder you own.") from err
    if raw[:2] != _GZIP_MAGIC:
        return raw
    try:
        return gzip.decompress(raw)
    except EOFError as err:
        raise ValueError(f"{path} is a truncated gzip file ({err}); {_AGAIN}") from err
    except (OSError, zlib.error) as err:  # gzip.BadGzipFile (a CRC or header error) is an OSError
        raise ValueError(f"{path} is a corrupt gzip file ({type(err).__name__}: {err}); {_AGAIN}") from err


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
    if not isinstance(path, (str, os.PathLike)):
        raise TypeError(f"path must be the path of an IDX file (str or pathlib.Path); got {type(path).__name__}.")
    path = Path(path)
    return _parse_idx(_read_bytes(path), path)


def _parse_idx(raw: bytes, path: Path) -> np.ndarray:
    if len(raw) < 4:
        raise ValueError(f"{path} is too short to be an IDX file ({len(raw)} bytes); {_AGAIN}")
    if raw[0] != 0 or raw[1] != 0 or raw[2] not in _DTYPES:
        raise ValueError(
            f"{path} is not an IDX file: bad magic number {raw[:4].hex()} (expected 0000 + type code 08-0e + ndim); "
            "pass an MNIST IDX file (t10k-images-idx3-ubyte or t10k-labels-idx1-ubyte, gzipped or not)."
        )
    ndim = raw[3]
    header = 4 + 4 * ndim
    if ndim == 0 or len(raw) < header:
        raise ValueError(
            f"{path}: IDX header announces {ndim} dimensions but the file is too short for them; it is truncated "
            f"or corrupt: {_AGAIN}"
        )
    dims = tuple(int(x) for x in np.frombuffer(raw, dtype=">u4", count=ndim, offset=4))
    dtype = np.dtype(_DTYPES[raw[2]])
    expected = math.prod(dims) * dtype.itemsize  # Python ints: a corrupt header cannot overflow int64
    if len(raw) - header != expected:
        raise ValueError(
            f"{path}: IDX header announces shape {dims} ({expected} bytes of data) but the file holds "
            f"{len(raw) - header}; it is truncated or corrupt: {_AGAIN}"
        )
    return np.frombuffer(raw, dtype=dtype, offset=header).reshape(dims)


def _folder(value, what: str, fix: str) -> Path:
    """``value`` as a folder that exists, or an error naming ``what`` gave it and the ``fix``."""
    if not isinstance(value, (str, os.PathLike)):
        raise TypeError(f"path must be a folder (str or pathlib.Path) or None; got {type(value).__name__} {value!r}.")
    folder = Path(value).expanduser()
    if folder.is_dir():
        return folder
    if folder.exists():
        raise ValueError(f"{what} is a file, not a folder: {folder}. {fix} (here perhaps {folder.parent}).")
    raise FileNotFoundError(f"{what} does not hold {_FILES}: the folder {folder} does not exist. {fix}; "
                            f"{_get_them(RAW_DIR / 'mnist', 'download')} for the real files.")


def _candidates(path):
    """The folders to look in: ``path``, else ``MNIST_PATH`` alone, else the default places."""
    if path is not None:
        return [_folder(path, f"path={str(path)!r}", f"Pass the folder holding {_FILES}")]
    env = os.environ.get("MNIST_PATH")
    if env:  # the variable says where the files are: never look elsewhere behind its back
        return [_folder(env, f"MNIST_PATH={env}",
                        f"Set MNIST_PATH to the folder holding {_FILES}, or unset it to use data/raw/mnist/")]
    return [RAW_DIR / "mnist", RAW_DIR]


def _find(folder: Path, stem: str):
    for name in (stem + ".gz", stem):
        candidate = folder / name
        if candidate.is_file():
            return candidate
        if candidate.exists():
            raise ValueError(f"{candidate} is a folder (or not a regular file) where the IDX file {name} is expected; "
                             "remove or rename it and put the file there.")
    return None


def load_mnist_test(n: int = 1000, path=None, *, verify: bool = True, fallback: bool = True):
    """The first ``n`` MNIST test images as floats in [0, 1] and their labels.

    Parameters
    ----------
    n : int, default=1000
        Number of images (1 to 10,000), taken in file order.
    path : str or Path, optional
        Folder holding the two IDX files; missing files there raise FileNotFoundError.
        Without it, the folder named by the environment variable ``MNIST_PATH`` is used
        (and only it: a missing folder, or one without the files, is an error naming the
        variable, never a reason to read another folder); when that is unset,
        ``data/raw/mnist/`` and ``data/raw/`` are searched.
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

    Raises
    ------
    FileNotFoundError
        ``path`` or ``MNIST_PATH`` names a missing folder or one without the two files, or
        (``fallback=False``) the files are nowhere; the message names the folder and the fix.
    ValueError
        A truncated or corrupt file (gzip or IDX), a checksum mismatch, ``n`` out of range,
        a file where a folder is expected (or the reverse).
    PermissionError
        A file that cannot be read.
    TypeError
        ``n`` not an integer, ``verify`` or ``fallback`` not a bool.

    Examples
    --------
    >>> X, y, source = load_mnist_test(10)  # doctest: +SKIP
    >>> y.tolist()  # doctest: +SKIP
    [7, 2, 1, 0, 4, 1, 4, 9, 5, 9]
    """
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)):
        raise TypeError(f"n must be a positive integer number of images (1 to 10,000); got {type(n).__name__} {n!r}.")
    if n < 1:
        raise ValueError(f"n must be a positive integer number of images (1 to 10,000); got {n!r}.")
    for flag, name in ((verify, "verify"), (fallback, "fallback")):
        if not isinstance(flag, bool):
            raise TypeError(f"{name} must be True or False; got {flag!r}.")
    # an explicit path or MNIST_PATH names the one folder to use: missing files there are an error
    strict = path is not None or bool(os.environ.get("MNIST_PATH"))
    for folder in _candidates(path):
        img, lab = _find(folder, _STEMS[0]), _find(folder, _STEMS[1])
        if img is None or lab is None:
            if strict:
                what = f"path={str(path)!r}" if path is not None else f"MNIST_PATH={os.environ['MNIST_PATH']}"
                missing = " and ".join(f"{stem}(.gz)" for stem, f in zip(_STEMS, (img, lab)) if f is None)
                raise FileNotFoundError(
                    f"{what}: the folder {folder} does not hold {missing}. {_get_them(folder)}, or "
                    f"{'pass' if path is not None else 'set MNIST_PATH to'} the folder holding {_FILES}"
                    f"{'' if path is not None else ' (or unset it to use data/raw/mnist/)'}."
                )
            continue
        arrays = {}
        for stem, file in zip(_STEMS, (img, lab)):
            raw = _read_bytes(file)  # decompressed once: checksum and parsing share it
            if verify:
                digest = hashlib.sha256(raw).hexdigest()
                if digest != MNIST_SHA256[stem]:
                    raise ValueError(
                        f"{file}: SHA-256 {digest[:12]}... does not match the published {MNIST_SHA256[stem][:12]}...; "
                        f"the file is corrupt or a different version. Download it again from {_SOURCE}, or pass "
                        "verify=False for test files."
                    )
            arrays[stem] = _parse_idx(raw, file)
        X, y = arrays[_STEMS[0]], arrays[_STEMS[1]]
        if X.ndim != 3 or y.ndim != 1 or X.shape[0] != y.shape[0]:
            raise ValueError(f"{folder}: expected images (N, rows, cols) and N labels; got {X.shape} and {y.shape}.")
        if n > X.shape[0]:
            raise ValueError(f"n = {n} exceeds the {X.shape[0]} images available in {folder}; pass n <= {X.shape[0]}.")
        return X[:n].reshape(n, -1).astype(np.float64) / 255.0, y[:n].astype(np.int64), "mnist"
    where = "MNIST_PATH, data/raw/mnist/, data/raw/"
    if not fallback:
        raise FileNotFoundError(
            f"MNIST IDX files {_FILES} not found (looked in {where}). "
            f"{_get_them(RAW_DIR / 'mnist')}, or set MNIST_PATH to the folder holding them."
        )
    from sklearn.datasets import load_digits

    warnings.warn(
        f"MNIST IDX files not found (looked in {where}); falling back to scikit-learn's 8x8 digits "
        f"(load_digits). {_get_them(RAW_DIR / 'mnist')} for the real data.",
        UserWarning,
        stacklevel=2,
    )
    digits = load_digits()
    if n > digits.data.shape[0]:
        raise ValueError(
            f"n = {n} exceeds the {digits.data.shape[0]} images of the load_digits fallback; pass "
            f"n <= {digits.data.shape[0]}, or put the MNIST files in {RAW_DIR / 'mnist'} (10,000 images; "
            f"from {MNIST_URL} or a mirror)."
        )
    return digits.data[:n] / 16.0, digits.target[:n].astype(np.int64), "sklearn-digits"
