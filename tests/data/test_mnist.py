"""The MNIST test-set loader (``helpers.data.mnist``): IDX files read, checksums, truncated and
corrupt files, the fallback to scikit-learn's digits, and the real files where present."""

import gzip
import struct

import numpy as np
import pytest
from numpy.testing import assert_allclose

from helpers.data.mnist import MNIST_SHA256, load_mnist_test, read_idx


def _write_idx(path, array, gz=True):
    codes = {np.dtype(np.uint8): 0x08}
    header = struct.pack(">BBBB", 0, 0, codes[array.dtype], array.ndim) + struct.pack(f">{array.ndim}I", *array.shape)
    data = header + array.tobytes()
    path.write_bytes(gzip.compress(data) if gz else data)


@pytest.fixture
def fake_mnist(tmp_path):
    rng = np.random.default_rng(9)
    images = rng.integers(0, 256, size=(12, 28, 28), dtype=np.uint8)
    labels = rng.integers(0, 10, size=12, dtype=np.uint8)
    _write_idx(tmp_path / "t10k-images-idx3-ubyte.gz", images)
    _write_idx(tmp_path / "t10k-labels-idx1-ubyte", labels, gz=False)
    return tmp_path, images, labels


def test_mnist_reads_idx_files(fake_mnist):
    folder, images, labels = fake_mnist
    X, y, source = load_mnist_test(5, path=folder, verify=False)
    assert source == "mnist" and X.shape == (5, 784) and X.max() <= 1.0
    assert_allclose(X * 255, images[:5].reshape(5, -1))
    assert y.tolist() == labels[:5].tolist()


def test_mnist_checksum_mismatch_is_an_error(fake_mnist):
    words = r"SHA-256 .* does not match the published .*Download it again from Yann LeCun's MNIST page"
    with pytest.raises(ValueError, match=words):
        load_mnist_test(5, path=fake_mnist[0])


def test_mnist_truncated_and_corrupt_files(tmp_path):
    f = tmp_path / "x.idx"
    f.write_bytes(struct.pack(">BBBBII", 0, 0, 8, 2, 3, 3) + bytes(5))
    with pytest.raises(ValueError, match=r"announces shape \(3, 3\) \(9 bytes of data\) but the file holds 5"):
        read_idx(f)
    f.write_bytes(b"PK\x03\x04rest")
    with pytest.raises(ValueError, match="bad magic number"):
        read_idx(f)
    g = tmp_path / "y.idx.gz"
    g.write_bytes(gzip.compress(struct.pack(">BBBBI", 0, 0, 8, 1, 100) + bytes(100))[:-12])
    with pytest.raises(ValueError, match="truncated gzip"):
        read_idx(g)


def test_mnist_bad_arguments(fake_mnist, tmp_path):
    with pytest.raises(ValueError, match="positive integer"):
        load_mnist_test(0, path=fake_mnist[0], verify=False)
    with pytest.raises(ValueError, match="exceeds the 12 images"):
        load_mnist_test(13, path=fake_mnist[0], verify=False)
    with pytest.raises(FileNotFoundError, match="does not hold t10k-images"):
        load_mnist_test(5, path=tmp_path / "nowhere")


def test_mnist_falls_back_to_load_digits_with_a_notice(monkeypatch, tmp_path):
    monkeypatch.setattr("helpers.data.mnist._candidates", lambda path: [tmp_path])
    with pytest.warns(UserWarning, match=r"MNIST IDX files not found.*load_digits.*data/raw/mnist"):
        X, y, source = load_mnist_test(20)
    assert source == "sklearn-digits" and X.shape == (20, 64) and X.max() <= 1.0
    from sklearn.datasets import load_digits

    np.testing.assert_array_equal(y, load_digits().target[:20])


def test_mnist_without_fallback_says_where_to_put_the_files(monkeypatch, tmp_path):
    import warnings

    monkeypatch.setattr("helpers.data.mnist._candidates", lambda path: [tmp_path])
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no warning, no digits: an error naming the folders and the fix
        with pytest.raises(FileNotFoundError, match=r"not found \(looked in MNIST_PATH, data/raw/mnist/, data/raw/\)\. "
                           r"Download .* from Yann LeCun's MNIST page .* and put them in \S*data/raw/mnist"):
            load_mnist_test(20, fallback=False)


def test_mnist_real_files_when_present():
    X, y, source = load_mnist_test(10)
    if source != "mnist":
        pytest.skip("MNIST IDX files absent from data/raw/mnist/ (see README, Data)")
    assert y.tolist() == [7, 2, 1, 0, 4, 1, 4, 9, 5, 9]  # the shared README's first labels
    assert set(MNIST_SHA256) == {"t10k-images-idx3-ubyte", "t10k-labels-idx1-ubyte"}
