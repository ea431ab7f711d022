"""Reductions, arg-reductions and scans, against NumPy.

Integer reductions stay integer (`reduce_mean` of int32 is int32, truncated toward zero) and
accumulate narrow integers in a wider type, as TensorFlow 2.21 does.
"""

import numpy as np
import pytest

import tracegraph as tf

from .oracle import expect, raises

X = np.array([[[1.5, -2.0, 0.25], [3.0, 0.5, -1.0]],
              [[2.0, 4.0, -0.5], [0.0, 1.0, 6.0]]], np.float32)
I = np.array([[1, 2, 4], [3, 5, -7]], np.int32)
B = np.array([[True, False, True], [True, True, True]])

AXES = [None, 0, 1, -1, [0, 1], [], (0, -1)]


def _np_axis(axis):
    return tuple(axis) if isinstance(axis, (list, tuple)) else axis


def _int_mean(x, axis, keepdims):
    total = np.sum(x.astype(np.int64), axis=_np_axis(axis), keepdims=keepdims)
    count = x.size // max(total.size, 1) if axis != [] else 1
    return np.trunc(total / count).astype(x.dtype)


REDUCE = [
    (tf.reduce_sum, np.sum), (tf.math.reduce_sum, np.sum),
    (tf.reduce_prod, np.prod), (tf.math.reduce_prod, np.prod),
    (tf.reduce_max, np.max), (tf.math.reduce_max, np.max),
    (tf.reduce_min, np.min), (tf.math.reduce_min, np.min),
    (tf.reduce_mean, np.mean), (tf.math.reduce_mean, np.mean),
]


@pytest.mark.parametrize("fn,ref", REDUCE, ids=lambda v: getattr(v, "__name__", ""))
@pytest.mark.parametrize("axis", AXES, ids=str)
@pytest.mark.parametrize("keepdims", [False, True])
def test_float_reductions(fn, ref, axis, keepdims):
    expect(fn(X, axis=axis, keepdims=keepdims),
           ref(X, axis=_np_axis(axis), keepdims=keepdims).astype(np.float32))


@pytest.mark.parametrize("fn,ref", REDUCE[:8], ids=lambda v: getattr(v, "__name__", ""))
@pytest.mark.parametrize("axis", [None, 0, -1], ids=str)
def test_integer_reductions_stay_integer(fn, ref, axis):
    expect(fn(I, axis), ref(I, axis=axis).astype(np.int32))


@pytest.mark.parametrize("axis", [None, 0, 1, -1, [], [0, 1]], ids=str)
@pytest.mark.parametrize("keepdims", [False, True])
def test_reduce_mean_of_int32_truncates(axis, keepdims):
    expect(tf.reduce_mean(I, axis=axis, keepdims=keepdims), _int_mean(I, axis, keepdims))


@pytest.mark.parametrize("x,ref", [
    (np.int32([1, 2, 4]), np.int32(2)),
    (np.int32([-1, -2, -4]), np.int32(-2)),   # toward zero, not floor
    (np.int32([-7, 0]), np.int32(-3)),
    (np.uint8([200, 100]), np.uint8(150)),    # no overflow in the sum
    (np.int8([100, 100]), np.int8(100)),
    (np.int32([2**31 - 1, 2**31 - 1]), np.int32(2**31 - 1)),
    (np.int64([2**62, 2**62]), np.int64(-(2**62))),  # int64 sums wrap, as in TF
    (np.complex64([1 + 1j, 2 + 3j]), np.complex64(1.5 + 2j)),
    (np.float16([1.0, 2.0]), np.float16(1.5)),
])
def test_reduce_mean_edge_values(x, ref):
    expect(tf.reduce_mean(x), ref)


def test_reduce_sum_wraps_in_the_input_dtype():
    expect(tf.reduce_sum(np.uint8([200, 100])), np.uint8(44))


@pytest.mark.parametrize("fn,dtype,ref", [
    (tf.reduce_sum, np.float32, np.float32(0)), (tf.reduce_prod, np.float32, np.float32(1)),
    (tf.reduce_max, np.float32, np.float32(-np.inf)),
    (tf.reduce_min, np.float32, np.float32(np.inf)),
    (tf.reduce_max, np.int32, np.int32(-(2**31))), (tf.reduce_min, np.int32, np.int32(2**31 - 1)),
    (tf.reduce_mean, np.float32, np.float32(np.nan)), (tf.reduce_mean, np.int32, np.int32(0)),
    (tf.reduce_all, np.bool_, np.bool_(True)), (tf.reduce_any, np.bool_, np.bool_(False)),
])
def test_empty_reductions(fn, dtype, ref):
    expect(fn(np.zeros([0], dtype)), ref)


def test_reductions_of_scalars():
    expect(tf.reduce_sum(tf.constant(5)), np.int32(5))
    expect(tf.reduce_sum(tf.constant(5), axis=[]), np.int32(5))
    expect(tf.reduce_sum([[1.5, 2.5]], 1), np.float32([4.0]))
    expect(tf.reduce_sum(I, axis=tf.constant(0, tf.int64)), I.sum(0).astype(np.int32))


def test_nan_propagates_through_max_and_min():
    x = np.float32([1.0, np.nan, 3.0])
    expect(tf.reduce_max(x), np.float32(np.nan))
    expect(tf.reduce_min(x), np.float32(np.nan))


@pytest.mark.parametrize("fn,ref", [(tf.reduce_any, np.any), (tf.math.reduce_any, np.any),
                                    (tf.reduce_all, np.all), (tf.math.reduce_all, np.all)])
@pytest.mark.parametrize("axis", [None, 0, 1, [0, 1]], ids=str)
def test_logical_reductions(fn, ref, axis):
    expect(fn(B, axis=axis), ref(B, axis=_np_axis(axis)))
    expect(fn(B, axis=axis, keepdims=True), ref(B, axis=_np_axis(axis), keepdims=True))


@pytest.mark.parametrize("call,error,message", [
    (lambda: tf.reduce_sum(I, axis=2), tf.errors.InvalidArgumentError,
     "Invalid reduction dimension (2 for input with 2 dimension(s)"),
    (lambda: tf.reduce_sum(I, axis=-3), tf.errors.InvalidArgumentError,
     "Invalid reduction dimension (-3 for input with 2 dimension(s)"),
    (lambda: tf.reduce_sum(tf.constant(5), axis=0), tf.errors.InvalidArgumentError,
     "Invalid reduction dimension (0 for input with 0 dimension(s)"),
    (lambda: tf.reduce_sum(I, axis=[0, 0]), tf.errors.InvalidArgumentError,
     "Invalid reduction arguments: Axes contains duplicate dimension: 0"),
    (lambda: tf.reduce_sum(B), tf.errors.InvalidArgumentError,
     "Value for attr 'T' of bool is not in the list of allowed values"),
    (lambda: tf.reduce_mean(B), tf.errors.InvalidArgumentError, "attr 'T' of bool"),
    (lambda: tf.reduce_max(tf.constant(["a"])), tf.errors.InvalidArgumentError,
     "attr 'T' of string"),
    (lambda: tf.reduce_any(tf.constant([1, 0])), tf.errors.InvalidArgumentError,
     "cannot compute Any as input #0(zero-based) was expected to be a bool tensor but is a "
     "int32 tensor"),
])
def test_reduction_errors(call, error, message):
    with raises(error, message):
        call()


@pytest.mark.parametrize("fn,ref", [(tf.argmax, np.argmax), (tf.math.argmax, np.argmax),
                                    (tf.argmin, np.argmin), (tf.math.argmin, np.argmin)])
@pytest.mark.parametrize("axis", [None, 0, 1, -1, 2])
def test_arg_reductions(fn, ref, axis):
    expect(fn(X, axis), ref(X, axis=0 if axis is None else axis).astype(np.int64))
    expect(fn(X, axis, output_type=tf.int32), ref(X, axis=0 if axis is None else axis)
           .astype(np.int32))


@pytest.mark.parametrize("fn,x,ref", [
    (tf.argmax, np.int32([1, 5, 5]), 1),  # ties: the first index
    (tf.argmin, np.int32([3, 1, 1]), 1),
    (tf.argmax, np.float32([1.0, np.nan, 3.0]), 2),  # NaN never wins
    (tf.argmax, np.float32([np.nan, 1.0, 3.0]), 2),
    (tf.argmin, np.float32([np.nan, 1.0, 3.0]), 1),
    (tf.argmax, np.float32([np.nan, np.nan]), 0),
    (tf.argmax, np.array([False, True]), 1),
])
def test_arg_reduction_ties_and_nan(fn, x, ref):
    expect(fn(x), np.int64(ref))


def test_arg_reduction_errors():
    with raises(tf.errors.InvalidArgumentError, "Expected dimension in the range [-2, 2), but got "
                                                "2", "[Op:ArgMax]"):
        tf.argmax(I, 2)
    with raises(tf.errors.InvalidArgumentError, "Expected dimension in the range [0, 0), but got "
                                                "0", "[Op:ArgMax]"):
        tf.argmax(tf.constant(5))
    with raises(tf.errors.InvalidArgumentError, "Reduction axis 0 is empty in shape [0]"):
        tf.argmax(tf.zeros([0]))


def _exclusive(scan, x, axis, identity):
    out = np.moveaxis(scan(x, axis=axis), axis, 0)
    shifted = np.concatenate([np.full_like(out[:1], identity), out[:-1]])
    return np.moveaxis(shifted, 0, axis)


@pytest.mark.parametrize("fn,np_fn,identity", [(tf.cumsum, np.cumsum, 0),
                                               (tf.math.cumsum, np.cumsum, 0),
                                               (tf.math.cumprod, np.cumprod, 1)])
@pytest.mark.parametrize("axis", [0, 1, -1])
@pytest.mark.parametrize("exclusive", [False, True])
@pytest.mark.parametrize("reverse", [False, True])
def test_scans(fn, np_fn, identity, axis, exclusive, reverse):
    x = I
    src = np.flip(x, axis) if reverse else x
    out = _exclusive(np_fn, src, axis, identity) if exclusive else np_fn(src, axis=axis)
    ref = (np.flip(out, axis) if reverse else out).astype(np.int32)
    expect(fn(x, axis=axis, exclusive=exclusive, reverse=reverse), ref)


def test_scan_of_floats_and_errors():
    expect(tf.cumsum(np.float32([1.5, 2.5])), np.float32([1.5, 4.0]))
    with raises(tf.errors.InvalidArgumentError, "ScanOp: Expected scan axis in the range [-2, 2),"
                                                " but got 2"):
        tf.math.cumsum(I, axis=2)


@pytest.mark.parametrize("axis", [None, 0, -1, [0, 2]], ids=str)
@pytest.mark.parametrize("keepdims", [False, True])
def test_variance_std_logsumexp(axis, keepdims):
    x64 = X.astype(np.float64)
    var = np.var(x64, axis=_np_axis(axis), keepdims=keepdims)
    expect(tf.math.reduce_variance(X, axis, keepdims), var.astype(np.float32), rtol=1e-5)
    expect(tf.reduce_variance(X, axis, keepdims), var.astype(np.float32), rtol=1e-5)
    expect(tf.math.reduce_std(X, axis, keepdims), np.sqrt(var).astype(np.float32), rtol=1e-5)
    expect(tf.reduce_std(X, axis, keepdims), np.sqrt(var).astype(np.float32), rtol=1e-5)
    lse = np.log(np.sum(np.exp(x64), axis=_np_axis(axis), keepdims=keepdims))
    expect(tf.math.reduce_logsumexp(X, axis, keepdims), lse.astype(np.float32), rtol=1e-5)
    expect(tf.reduce_logsumexp(X, axis, keepdims), lse.astype(np.float32), rtol=1e-5)


def test_logsumexp_is_stable_and_handles_minus_infinity():
    expect(tf.math.reduce_logsumexp(np.float32([[0.0, 0.0], [1000.0, 1000.0]]), axis=1),
           np.float32([np.log(2), 1000 + np.log(2)]))
    expect(tf.math.reduce_logsumexp(np.float32([-np.inf, -np.inf])), np.float32(-np.inf))


def test_variance_of_complex_is_real_and_of_integers_an_error():
    c = np.complex64([1 + 1j, 3 - 1j])
    expect(tf.math.reduce_variance(c), np.float32(np.var(c)))
    with raises(TypeError, "Input must be either real or complex. Received integer type "
                           "<dtype: 'int32'>."):
        tf.math.reduce_variance(tf.constant([1, 2]))


@pytest.mark.parametrize("x,kwargs,ref", [
    (np.int32([[0, 1], [2, 0]]), {}, np.int64(2)),
    (np.int32([[0, 1], [2, 2]]), {"axis": 1, "dtype": tf.int32}, np.int32([1, 2])),
    (np.float32([[0.0, 1.5]]), {"axis": 0, "keepdims": True}, np.int64([[0, 1]])),
    (np.array([b"a", b""], dtype=object), {}, np.int64(1)),
    (np.array([True, False, True]), {}, np.int64(2)),
])
def test_count_nonzero(x, kwargs, ref):
    expect(tf.math.count_nonzero(x, **kwargs), ref)
