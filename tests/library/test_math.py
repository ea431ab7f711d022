"""Elementwise math, comparisons, logic and casts (`tf.math`), eagerly, against NumPy.

Expected behaviour (values, dtypes, error types and messages) was taken from TensorFlow 2.21.
"""

import math

import numpy as np
import pytest

import tracegraph as tf

from .oracle import expect, raises

X = np.array([[1.5, -2.0, 0.25], [3.0, 0.5, -1.0]], np.float32)
POS = np.array([[0.5, 2.0, 0.25], [3.0, 1.5, 4.0]], np.float32)
UNIT = np.array([[-0.9, -0.5, 0.0], [0.25, 0.5, 0.75]], np.float32)
I = np.array([[7, -7, 3], [0, 5, -2]], np.int32)
J = np.array([[2, 3, -2], [4, -3, 5]], np.int32)
ROW = np.array([1, -2, 3], np.int32)
B = np.array([[True, False, True], [False, False, True]])


def _erf(x):
    return np.vectorize(math.erf, otypes=[x.dtype])(x)


def _sigmoid(x):
    return (1 / (1 + np.exp(-x.astype(np.float64)))).astype(x.dtype)


def _softplus(x):
    return np.log1p(np.exp(x.astype(np.float64))).astype(x.dtype)


# (function, NumPy oracle, input)
UNARY = [
    (tf.abs, np.abs, X), (tf.math.abs, np.abs, X),
    (tf.negative, np.negative, X), (tf.math.negative, np.negative, X),
    (tf.sign, np.sign, X), (tf.math.sign, np.sign, X),
    (tf.square, np.square, X), (tf.math.square, np.square, X),
    (tf.sqrt, np.sqrt, POS), (tf.math.sqrt, np.sqrt, POS),
    (tf.math.rsqrt, lambda x: 1 / np.sqrt(x), POS),
    (tf.exp, np.exp, X), (tf.math.exp, np.exp, X),
    (tf.math.expm1, np.expm1, X),
    (tf.math.log, np.log, POS), (tf.math.log1p, np.log1p, POS),
    (tf.sin, np.sin, X), (tf.math.sin, np.sin, X),
    (tf.cos, np.cos, X), (tf.math.cos, np.cos, X),
    (tf.math.tan, np.tan, X),
    (tf.math.asin, np.arcsin, UNIT), (tf.math.acos, np.arccos, UNIT),
    (tf.math.atan, np.arctan, X),
    (tf.math.sinh, np.sinh, X), (tf.math.cosh, np.cosh, X),
    (tf.tanh, np.tanh, X), (tf.math.tanh, np.tanh, X),
    (tf.math.asinh, np.arcsinh, X), (tf.math.acosh, np.arccosh, POS + 1),
    (tf.math.atanh, np.arctanh, UNIT),
    (tf.sigmoid, _sigmoid, X), (tf.math.sigmoid, _sigmoid, X),
    (tf.math.reciprocal, np.reciprocal, X),
    (tf.math.floor, np.floor, X), (tf.math.ceil, np.ceil, X),
    (tf.math.rint, np.rint, X * 2),
    (tf.round, np.round, X * 2), (tf.math.round, np.round, X * 2),
    (tf.math.softplus, _softplus, X),
    (tf.math.softsign, lambda x: x / (1 + np.abs(x)), X),
    (tf.math.erf, _erf, X),
    (tf.math.erfc, lambda x: np.vectorize(math.erfc, otypes=[x.dtype])(x), X),
    (tf.math.is_nan, np.isnan, np.array([1.0, np.nan, np.inf], np.float32)),
    (tf.math.is_inf, np.isinf, np.array([1.0, np.nan, -np.inf], np.float32)),
    (tf.math.is_finite, np.isfinite, np.array([1.0, np.nan, np.inf], np.float32)),
]


@pytest.mark.parametrize("fn,ref,x", UNARY, ids=lambda v: getattr(v, "__name__", ""))
def test_unary_float32(fn, ref, x):
    expect(fn(tf.constant(x)), ref(x))


@pytest.mark.parametrize("dtype", [np.float16, np.float64])
@pytest.mark.parametrize("fn,ref", [(tf.exp, np.exp), (tf.math.log1p, np.log1p),
                                    (tf.tanh, np.tanh), (tf.square, np.square)])
def test_unary_keeps_float_width(fn, ref, dtype):
    x = POS.astype(dtype)
    expect(fn(tf.constant(x)), ref(x))


@pytest.mark.parametrize("fn,ref", [
    (tf.abs, np.abs), (tf.negative, np.negative), (tf.sign, np.sign),
    (tf.square, np.square), (tf.round, lambda x: x), (tf.math.invert, np.invert),
])
@pytest.mark.parametrize("dtype", [np.int32, np.int64, np.int8])
def test_unary_integers_stay_integers(fn, ref, dtype):
    x = I.astype(dtype)
    expect(fn(tf.constant(x)), ref(x))


def test_round_is_half_to_even():
    x = np.array([0.5, 1.5, 2.5, -0.5, -2.5], np.float64)
    expect(tf.round(x), np.array([0.0, 2.0, 2.0, -0.0, -2.0]))


def test_complex_parts_and_magnitude():
    c = np.array([3 + 4j, -1 - 2j], np.complex64)
    expect(tf.math.real(c), c.real)
    expect(tf.math.imag(c), c.imag)
    expect(tf.math.conj(c), np.conj(c))
    expect(tf.abs(c), np.abs(c))  # ComplexAbs: the magnitude is real (float32 here)
    expect(tf.math.abs(c.astype(np.complex128)), np.abs(c.astype(np.complex128)))
    expect(tf.math.real(np.float32([1.5])), np.float32([1.5]))
    expect(tf.math.imag(np.float32([1.5])), np.float32([0.0]))


@pytest.mark.parametrize("fn,x", [(tf.sqrt, I), (tf.exp, I), (tf.math.floor, I),
                                  (tf.math.is_nan, I), (tf.sigmoid, I)])
def test_float_only_ops_reject_integers(fn, x):
    with raises(tf.errors.InvalidArgumentError, "Value for attr 'T' of int32 is not in the list "
                                                "of allowed values"):
        fn(tf.constant(x))


def test_negative_rejects_unsigned():
    with raises(tf.errors.InvalidArgumentError, "attr 'T' of uint8", "[Op:Neg]"):
        tf.negative(tf.constant([1, 2], tf.uint8))


# (function, NumPy oracle); run on int32 and float32 pairs with broadcasting
BINARY = [
    (tf.add, np.add), (tf.math.add, np.add),
    (tf.subtract, np.subtract), (tf.math.subtract, np.subtract),
    (tf.multiply, np.multiply), (tf.math.multiply, np.multiply),
    (tf.maximum, np.maximum), (tf.math.maximum, np.maximum),
    (tf.minimum, np.minimum), (tf.math.minimum, np.minimum),
    (tf.math.floordiv, np.floor_divide), (tf.math.floormod, np.mod), (tf.math.mod, np.mod),
    (tf.math.squared_difference, lambda a, b: (a - b) * (a - b)),
]


@pytest.mark.parametrize("fn,ref", BINARY, ids=lambda v: getattr(v, "__name__", ""))
@pytest.mark.parametrize("a,b", [(I, J), (I, ROW), (ROW[:, None], ROW)],
                         ids=["same", "row", "outer"])
def test_binary_int32_stays_int32(fn, ref, a, b):
    expect(fn(tf.constant(a), tf.constant(b)), ref(a, b))


@pytest.mark.parametrize("fn,ref", BINARY, ids=lambda v: getattr(v, "__name__", ""))
def test_binary_float32_broadcasts(fn, ref):
    a, b = X, POS[0]
    expect(fn(tf.constant(a), tf.constant(b)), ref(a, b))


def test_floor_and_truncate_division_signs():
    a = np.array([7, -7, 7, -7], np.int32)
    b = np.array([3, 3, -3, -3], np.int32)
    expect(tf.math.floordiv(a, b), np.int32([2, -3, -3, 2]))
    expect(tf.math.floormod(a, b), np.int32([1, 2, -2, -1]))
    expect(tf.math.truncatediv(a, b), np.int32([2, -2, -2, 2]))
    expect(tf.math.truncatemod(a, b), np.int32([1, -1, 1, -1]))
    f = np.array([7.5, -7.5], np.float32)
    expect(tf.math.floormod(f, np.float32(2)), np.float32([1.5, 0.5]))
    expect(tf.math.truncatemod(f, np.float32(2)), np.float32([1.5, -1.5]))
    expect(tf.math.floordiv(f, np.float32(2)), np.float32([3.0, -4.0]))


def test_float_division_by_zero_is_ieee():
    expect(tf.divide(np.float32([1.0, -1.0, 0.0]), np.float32(0.0)),
           np.float32([np.inf, -np.inf, np.nan]))
    expect(tf.math.floordiv(np.float32([5.0, -5.0]), np.float32([0.0, 0.0])),
           np.float32([np.inf, -np.inf]))


@pytest.mark.parametrize("fn,op", [(tf.math.floordiv, "FloorDiv"), (tf.math.floormod, "FloorMod"),
                                   (tf.math.truncatediv, "TruncateDiv"),
                                   (tf.math.truncatemod, "TruncateMod")])
def test_integer_division_by_zero(fn, op):
    with raises(tf.errors.InvalidArgumentError, "Integer division by zero", f"[Op:{op}]"):
        fn(tf.constant([1, 2]), tf.constant([1, 0]))


@pytest.mark.parametrize("a,b,ref", [
    (np.int32([2, 3, 0]), np.int32([3, 2, 0]), np.int32([8, 9, 1])),
    (np.float32([4.0, 2.0]), np.float32([0.5, -1.0]), np.float32([2.0, 0.5])),
])
def test_pow(a, b, ref):
    expect(tf.pow(a, b), ref)
    expect(tf.math.pow(a, b), ref)


def test_pow_of_python_scalars_is_int32():
    expect(tf.pow(2, 10), np.int32(1024))


def test_integer_to_negative_power_is_an_error():
    with raises(tf.errors.InvalidArgumentError,
                "Integers to negative integer powers are not allowed"):
        tf.pow(tf.constant([2, 3]), -1)


def test_atan2_and_scalar_mul():
    y, x = np.float32([1.0, -1.0, 1.0]), np.float32([-1.0, -1.0, 0.0])
    expect(tf.math.atan2(y, x), np.arctan2(y, x))
    expect(tf.math.scalar_mul(2, tf.constant([1.5, 2.0])), np.float32([3.0, 4.0]))


@pytest.mark.parametrize("dtype,out", [(np.int8, np.float32), (np.uint8, np.float32),
                                       (np.int16, np.float32), (np.int32, np.float64),
                                       (np.int64, np.float64), (np.float32, np.float32),
                                       (np.float64, np.float64)])
def test_truediv_casts_integers_to_float(dtype, out):
    a, b = np.array([1, 7], dtype), np.array([2, 4], dtype)
    ref = (a.astype(np.float64) / b).astype(out)
    expect(tf.divide(a, b), ref)
    expect(tf.math.divide(a, b), ref)
    expect(tf.truediv(a, b), ref)
    expect(tf.math.truediv(a, b), ref)
    expect(tf.constant(a) / tf.constant(b), ref)


def test_truediv_converts_a_python_left_operand_to_the_tensor_dtype():
    expect(tf.math.truediv(3, tf.constant([1.5])), np.float32([2.0]))


def test_truediv_rejects_bool():
    with raises(TypeError, "Invalid dtype tf.bool in __truediv__. Expected one of"):
        tf.constant([True]) / tf.constant([True])


def test_divide_no_nan():
    expect(tf.math.divide_no_nan(np.float32([1.0, 2.0, np.nan]), np.float32([0.0, 4.0, 0.0])),
           np.float32([0.0, 0.5, 0.0]))
    # integers divide in floating point, like tf.math.truediv
    expect(tf.math.divide_no_nan(np.int32([3, 2]), np.int32([0, 4])), np.float64([0.0, 0.5]))
    expect(tf.math.divide_no_nan(np.int8([3]), np.int8([2])), np.float32([1.5]))
    with raises(TypeError, "Invalid dtype tf.bool in tf.math.divide_no_nan"):
        tf.math.divide_no_nan(tf.constant([True]), tf.constant([True]))


def test_multiply_no_nan_is_zero_where_y_is_zero():
    # TF 2.21's values: 0 where y is 0 even where x is inf or NaN; 0 * inf elsewhere stays NaN
    inf, nan = np.inf, np.nan
    expect(tf.math.multiply_no_nan(np.float32([inf, nan, 2.0, 0.0, 3.0, -inf]),
                                   np.float32([0.0, 0.0, 3.0, inf, nan, -0.0])),
           np.float32([0.0, 0.0, 6.0, nan, nan, 0.0]))
    expect(tf.math.multiply_no_nan(np.float32([[1.0], [2.0]]), np.float32([0.0, 5.0])),
           np.float32([[0.0, 5.0], [0.0, 10.0]]))


COMPARE = [
    (tf.equal, np.equal), (tf.math.equal, np.equal),
    (tf.not_equal, np.not_equal), (tf.math.not_equal, np.not_equal),
    (tf.less, np.less), (tf.math.less, np.less),
    (tf.less_equal, np.less_equal), (tf.math.less_equal, np.less_equal),
    (tf.greater, np.greater), (tf.math.greater, np.greater),
    (tf.greater_equal, np.greater_equal), (tf.math.greater_equal, np.greater_equal),
]


@pytest.mark.parametrize("fn,ref", COMPARE, ids=lambda v: getattr(v, "__name__", ""))
@pytest.mark.parametrize("a,b", [(I, J), (I, ROW), (X, POS[:1]), (I, 3)])
def test_comparisons_give_bool(fn, ref, a, b):
    expect(fn(tf.constant(a), b), ref(a, b))


def test_comparing_a_float_scalar_with_an_int_tensor_is_an_error():
    with raises(TypeError, "Cannot convert 1.5 to EagerTensor of dtype int32"):
        tf.greater(tf.constant([1, 2]), 1.5)


def test_string_equality():
    s = tf.constant(["a", "b"])
    expect(tf.equal(s, "a"), np.array([True, False]))
    expect(tf.not_equal(s, tf.constant(["a", "c"])), np.array([False, True]))


def test_strings_are_not_ordered():
    with raises(tf.errors.InvalidArgumentError, "attr 'T' of string", "[Op:Less]"):
        tf.less(tf.constant(["a"]), tf.constant(["b"]))


LOGICAL = [(tf.logical_and, np.logical_and), (tf.math.logical_and, np.logical_and),
           (tf.logical_or, np.logical_or), (tf.math.logical_or, np.logical_or),
           (tf.math.logical_xor, np.logical_xor)]


@pytest.mark.parametrize("fn,ref", LOGICAL, ids=lambda v: getattr(v, "__name__", ""))
def test_logical_ops_broadcast(fn, ref):
    a, b = B, B[0]
    expect(fn(a, b), ref(a, b))
    expect(fn(a, True), ref(a, True))


def test_logical_not():
    expect(tf.logical_not(B), ~B)
    expect(tf.math.logical_not(B), ~B)


def test_logical_ops_need_bool():
    with raises(tf.errors.InvalidArgumentError, "expected to be a bool tensor but is a int32"):
        tf.logical_and(tf.constant([1]), tf.constant([1]))


def test_incompatible_shapes_name_both_shapes():
    with raises(tf.errors.InvalidArgumentError, "Incompatible shapes: [3] vs. [2]",
                "[Op:AddV2]"):
        tf.add(tf.constant([1, 2, 3]), tf.constant([1, 2]))
    with raises(tf.errors.InvalidArgumentError, "Incompatible shapes: [2,3] vs. [2]"):
        tf.maximum(tf.constant(I), tf.constant([1, 2]))


def test_no_promotion_between_tensors():
    with raises(tf.errors.InvalidArgumentError,
                "cannot compute AddV2 as input #1(zero-based) was expected to be a int32 tensor "
                "but is a float tensor"):
        tf.constant(1) + tf.constant(1.0)
    with raises(tf.errors.InvalidArgumentError, "expected to be a int64 tensor but is a int32"):
        tf.maximum(tf.constant([1], tf.int64), tf.constant([1]))


def test_python_scalars_take_the_tensor_dtype():
    expect(tf.constant([1.5]) + 1, np.float32([2.5]))
    expect(1 + tf.constant([1.5]), np.float32([2.5]))
    expect(tf.constant([1], tf.int64) * 3, np.int64([3]))
    expect(tf.math.add(tf.constant([1], tf.int8), 200), np.int8([-55]))  # wraps like TF
    expect(tf.constant([2], tf.float16) - 0.5, np.float16([1.5]))
    with raises(TypeError, "Cannot convert 1.5 to EagerTensor of dtype int32"):
        1.5 + tf.constant([1])


def test_integer_arithmetic_wraps():
    expect(tf.constant([2**31 - 1]) + 1, np.int32([-(2**31)]))
    expect(tf.subtract(tf.constant([1], tf.uint8), tf.constant([2], tf.uint8)), np.uint8([255]))


def test_string_concatenation():
    expect(tf.constant("a") + tf.constant("a"), np.array(b"aa", dtype=object))
    expect(tf.add(tf.constant(["a", "b"]), "c"), [b"ac", b"bc"])
    with raises(tf.errors.InvalidArgumentError, "attr 'T' of string", "[Op:Sub]"):
        tf.subtract(tf.constant("a"), tf.constant("b"))


def test_operators():
    a, b = tf.constant(I), tf.constant(J)
    expect(a + b, I + J)
    expect(a - b, I - J)
    expect(a * b, I * J)
    expect(a // b, I // J)
    expect(a % b, I % J)
    expect(abs(b) ** 2, np.abs(J) ** 2)
    expect(2 ** tf.constant([3]), np.int32([8]))
    expect(-a, -I)
    expect(a & b, I & J)
    expect(a | 1, I | 1)
    expect(a ^ b, I ^ J)
    expect(~a, ~I)
    expect(a < b, I < J)
    expect(a <= b, I <= J)
    expect(a > b, I > J)
    expect(a >= b, I >= J)
    expect(a == b, I == J)
    expect(a != b, I != J)
    t, f = tf.constant(B), tf.constant(B[::-1])
    expect(t & f, B & B[::-1])
    expect(t | f, B | B[::-1])
    expect(t ^ f, B ^ B[::-1])
    expect(~t, ~B)


def test_equality_operator_on_incompatible_shapes_is_a_scalar():
    expect(tf.constant([1, 2]) == tf.constant([1, 2, 3]), np.bool_(False))
    expect(tf.constant([1, 2]) != tf.constant([1, 2, 3]), np.bool_(True))


@pytest.mark.parametrize("x,dtype,ref", [
    (np.float32([1.7, -1.7, 0.5]), tf.int32, np.int32([1, -1, 0])),  # truncates toward zero
    (np.float64([1.5, -1.5]), tf.int64, np.int64([1, -1])),
    (np.int32([1, 0, 2]), tf.bool, np.array([True, False, True])),
    (np.array([True, False]), tf.float32, np.float32([1.0, 0.0])),
    (np.array([True, False]), tf.int8, np.int8([1, 0])),
    (np.int32([300, -1]), tf.uint8, np.uint8([44, 255])),  # wraps
    (np.int32([-1]), tf.uint32, np.uint32([4294967295])),
    (np.complex128([1 + 2j]), tf.float32, np.float32([1.0])),  # keeps the real part
    (np.int32([1, 2]), tf.float16, np.float16([1.0, 2.0])),
    (np.float32([1.5]), "complex64", np.complex64([1.5])),
])
def test_cast(x, dtype, ref):
    expect(tf.cast(x, dtype), ref)
    expect(tf.math.cast(x, dtype), ref)


def test_cast_to_the_same_dtype_is_the_same_tensor():
    t = tf.constant([1, 2])
    assert tf.cast(t, tf.int32) is t
    expect(tf.cast([1, 2], "float64"), np.float64([1.0, 2.0]))


@pytest.mark.parametrize("x,dtype,message", [
    (["1"], tf.int32, "Cast string to int32 is not supported"),
    ([1], tf.string, "Cast int32 to string is not supported"),
])
def test_cast_to_or_from_string_is_unimplemented(x, dtype, message):
    with raises(tf.errors.UnimplementedError, message, "[Op:Cast]"):
        tf.cast(tf.constant(x), dtype)


def test_saturate_cast_clips_first():
    expect(tf.math.saturate_cast(tf.constant([-5, 300, 7]), tf.uint8), np.uint8([0, 255, 7]))
    expect(tf.math.saturate_cast(tf.constant([-5.0, 1e10]), tf.int32),
           np.int32([-5, 2147483520]))  # int32 max rounded to float32, as in TF
    # TF 2.21 gives int64 min for +1e30 here; saturating to the largest float32 below 2**63 is
    # what saturate_cast documents.
    expect(tf.math.saturate_cast(tf.constant([-1e30, 1e30]), tf.int64),
           np.int64([-(2**63), 9223371487098961920]))


def test_add_n():
    a, b, c = I, J, I * 2
    expect(tf.add_n([a, b, c]), a + b + c)
    expect(tf.math.add_n([tf.constant([1.5]), tf.constant([2.0])]), np.float32([3.5]))
    expect(tf.add_n([tf.constant([1, 2])]), np.int32([1, 2]))


def test_add_n_errors():
    with raises(tf.errors.InvalidArgumentError,
                "Inputs to operation AddN of type AddN must have the same size and shape.  "
                "Input 0: [2] != input 1: [1,2]", "[Op:AddN]"):
        tf.add_n([tf.constant([1, 2]), tf.constant([[1, 2]])])
    with raises(ValueError, "Inputs must be an iterable of at least one Tensor"):
        tf.add_n([])
    with raises(tf.errors.InvalidArgumentError, "expected to be a int32 tensor but is a float"):
        tf.add_n([tf.constant([1, 2]), tf.constant([1.0, 2.0])])
