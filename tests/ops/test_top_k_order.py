"""TopKV2's order (ops/top_k_order.py): the packed-key sort against a stable argsort, the order
TensorFlow defines (largest first, equal values lower index first). Rows holding NaN take the
order TensorFlow's kernel leaves (test_nan_order.py)."""

import numpy as np
import pytest

from tracegraph.ops.top_k_order import top_k_order


def reference(x, k):
    if x.dtype.kind == "f":
        key = np.where(np.isnan(x), -np.inf, x).astype(np.float64)
        return np.argsort(-key, axis=-1, kind="stable")[..., :k]
    key = x.astype(np.int64) if x.dtype != np.uint64 else x
    order = x.shape[-1] - 1 - np.argsort(key[..., ::-1], axis=-1, kind="stable")
    return order[..., ::-1][..., :k]


def values(dtype, rng, shape):
    if np.dtype(dtype).kind == "f":
        specials = np.array([np.inf, -np.inf, 0.0, -0.0, 1.0, -1.0,
                             np.finfo(dtype).max, -np.finfo(dtype).max, np.finfo(dtype).tiny,
                             1e-45 if dtype == np.float32 else 0.0], dtype)
        pool = np.concatenate([specials, rng.normal(size=40).astype(dtype)])
    elif np.dtype(dtype).kind == "b":
        pool = np.array([False, True])
    else:
        info = np.iinfo(dtype)
        pool = np.array([info.min, info.max, 0, 1, info.min + 1, info.max - 1] +
                        list(rng.integers(info.min, info.max, 20, endpoint=True,
                                          dtype=dtype)), dtype)
    return rng.choice(pool, size=shape)   # drawn from a small pool: many ties


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64, np.int8, np.int16,
                                   np.int32, np.int64, np.uint8, np.uint16, np.uint32,
                                   np.uint64, np.bool_])
def test_the_order_is_a_stable_descending_argsort(dtype):
    rng = np.random.default_rng(7)
    for shape in [(1,), (7,), (3, 50), (2, 3, 257)]:
        x = values(dtype, rng, shape)
        n = shape[-1]
        for k in sorted({0, 1, n // 2, n - 1, n}):
            got = top_k_order(x, k)
            assert got.shape == shape[:-1] + (k,)
            np.testing.assert_array_equal(got, reference(x, k), err_msg=f"{dtype} {shape} {k}")
