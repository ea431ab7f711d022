"""Helpers for the op conformance tests: compare a tensor with a NumPy oracle, check errors.

`expect(t, ref)` checks dtype, shape and value: exact for integers, bools and strings, within a
tolerance for floats (tight by default, by dtype). The expected dtype is the oracle's own NumPy
dtype unless given; string oracles may be lists of `bytes`.
"""

from __future__ import annotations

import contextlib

import numpy as np
import pytest

import tracegraph as tf

# (rtol, atol) by dtype for floating results.
_TOLERANCE = {
    "float16": (1e-3, 1e-3),
    "bfloat16": (1e-2, 1e-2),
    "float32": (1e-6, 1e-6),
    "complex64": (1e-6, 1e-6),
    "float64": (1e-12, 1e-12),
    "complex128": (1e-12, 1e-12),
}


def _reference(value) -> np.ndarray:
    ref = np.asarray(value)
    if ref.dtype.kind in "SU":
        ref = np.array([v.encode() if isinstance(v, str) else bytes(v)
                        for v in ref.reshape(-1).tolist()], dtype=object).reshape(ref.shape)
    return ref


def expect(t, value, dtype=None, *, rtol=None, atol=None) -> None:
    """`t` has `dtype` (default: the oracle's), the oracle's shape, and the oracle's value."""
    ref = _reference(value)
    want = tf.as_dtype(dtype) if dtype is not None else (
        tf.string if ref.dtype == object else tf.as_dtype(ref.dtype))
    assert isinstance(t, tf.Tensor), f"expected a tensor, got {t!r}"
    assert t.dtype == want, f"dtype {t.dtype.name}, expected {want.name}"
    assert tuple(t.shape.as_list()) == ref.shape, f"shape {t.shape}, expected {ref.shape}"
    got = np.asarray(t.numpy())
    if want.is_floating or want.is_complex:
        r, a = _TOLERANCE[want.name]
        np.testing.assert_allclose(got, ref, rtol=r if rtol is None else rtol,
                                   atol=a if atol is None else atol, equal_nan=True)
    else:
        assert got.dtype == ref.dtype or want == tf.string, (got.dtype, ref.dtype)
        np.testing.assert_array_equal(got, ref)


@contextlib.contextmanager
def raises(error, *fragments):
    """`pytest.raises(error)` whose message must contain every fragment."""
    with pytest.raises(error) as info:
        yield info
    message = str(info.value)
    for fragment in fragments:
        assert fragment in message, f"{fragment!r} not in {message!r}"
