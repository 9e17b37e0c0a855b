"""Tests of the shared array helpers in helpers._arrays."""

import numpy as np
import pytest

from helpers._arrays import row_sq_norms, sq_distances_from_inner, sq_euclidean


def _expanded(sq_a, sq_b, inner, clip=True):
    # the formula as first written, one temporary array per operation: the reference to the last bit
    d2 = np.asarray(sq_a)[:, None] + np.asarray(sq_b)[None, :] - 2.0 * np.asarray(inner)
    return np.maximum(d2, 0.0) if clip else d2


@pytest.mark.parametrize("dtypes", [(np.float64, np.float64), (np.float32, np.float64), (np.float32, np.float32),
                                    (np.float64, np.float32), (np.int64, np.float64), (np.int64, np.int64)])
@pytest.mark.parametrize("clip", [True, False])
def test_sq_distances_from_inner_equals_the_expanded_formula_bit_for_bit(rng, dtypes, clip):
    norm_type, inner_type = dtypes
    sq_a, sq_b = (rng.random(40) * 10).astype(norm_type), (rng.random(60) * 10).astype(norm_type)
    inner = (rng.normal(size=(40, 60)) * 5).astype(inner_type)
    got, ref = sq_distances_from_inner(sq_a, sq_b, inner, clip=clip), _expanded(sq_a, sq_b, inner, clip=clip)
    assert got.dtype == ref.dtype and got.shape == (40, 60)
    np.testing.assert_array_equal(got, ref)
    assert (got >= 0).all() if clip else (got < 0).any()


@pytest.mark.parametrize("shape", [(1, 1), (3, 40_000), (40, 5_000), (9_000, 3)])
def test_sq_distances_from_inner_by_blocks_of_rows_equals_the_formula_bit_for_bit(rng, shape):
    # float64 inputs go a block of rows at a time (about 32,768 entries each): several blocks here but for (1, 1)
    sq_a, sq_b = rng.random(shape[0]) * 10, rng.random(shape[1]) * 10
    inner = rng.normal(size=shape) * 3
    inner[0, 0] = (sq_a[0] + sq_b[0]) / 2                    # a distance that cancels to rounding error
    for clip in (True, False):
        np.testing.assert_array_equal(sq_distances_from_inner(sq_a, sq_b, inner, clip=clip),
                                      _expanded(sq_a, sq_b, inner, clip=clip))


def test_sq_distances_from_inner_leaves_its_inputs_and_broadcasts_as_before(rng):
    sq_a, sq_b, inner = rng.random(5), rng.random(7), rng.random((5, 7))
    kept = inner.copy()
    sq_distances_from_inner(sq_a, sq_b, inner)
    np.testing.assert_array_equal(inner, kept)
    for shared in (rng.random((1, 7)), rng.random((5, 1)), 0.25):   # an inner product broadcast over rows or columns
        np.testing.assert_array_equal(sq_distances_from_inner(sq_a, sq_b, shared), _expanded(sq_a, sq_b, shared))


def test_sq_euclidean_gives_the_squared_distances(rng):
    A, B = rng.normal(size=(6, 3)), rng.normal(size=(4, 3))
    np.testing.assert_allclose(sq_euclidean(A, B), ((A[:, None, :] - B[None, :, :]) ** 2).sum(axis=2), atol=1e-12)
    assert sq_euclidean(A, A).diagonal().max() < 1e-12
    np.testing.assert_array_equal(row_sq_norms(np.array([[3.0, 4.0]])), [25.0])
