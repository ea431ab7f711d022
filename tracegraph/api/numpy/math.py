"""`tf.experimental.numpy`: elementwise math with NumPy's type promotion, and reductions."""

from __future__ import annotations

import numpy as np

from ... import dtypes as d
from ...library import math as tm
from ...library.array import reshape
from ...library import reduce as tr
from ...library import type_promotion as promotion
from .arrays import asarray, cast_to, default_float

# ---- elementwise ------------------------------------------------------------------------


def promote_args(*values):
    """The arguments as ND arrays of their NumPy-promoted dtype, and the result's weakness."""
    return promotion.promote(*(v if hasattr(v, "dtype") or promotion.python_kind(v)
                               else asarray(v) for v in values))


def _floating(x):
    """Integers and bools become the default float (NumPy's float functions)."""
    return x if x.dtype.is_floating or x.dtype.is_complex else cast_to(x, default_float())


def _weak_result(out, weak):
    return promotion.mark_weak(out) if weak else out


def _binary(tf_fn, name, floats=False):
    def fn(x1, x2):
        (a, b), weak = promote_args(x1, x2)
        if floats:
            a, b = _floating(a), _floating(b)
        return _weak_result(tf_fn(a, b), weak)
    fn.__name__ = name
    fn.__doc__ = f"NumPy's `{name}` on ND arrays, with NumPy's type promotion."
    return fn


def _unary(tf_fn, name, floats=False):
    def fn(x):
        x = asarray(x)
        weak = promotion.is_weak(x)
        if floats:
            x = _floating(x)
        return _weak_result(tf_fn(x), weak)
    fn.__name__ = name
    fn.__doc__ = f"NumPy's `{name}` on ND arrays."
    return fn


def _true_divide(a, b):
    return tm.truediv(a, b)


def _mod(a, b):
    return tm.floormod(a, b)


def _power(a, b):
    return tm.pow(a, b)


add = _binary(tm.add, "add")
subtract = _binary(tm.subtract, "subtract")
multiply = _binary(tm.multiply, "multiply")
true_divide = _binary(_true_divide, "true_divide", floats=True)
divide = true_divide
floor_divide = _binary(tm.floordiv, "floor_divide")
mod = _binary(_mod, "mod")
remainder = mod
power = _binary(_power, "power")
float_power = _binary(_power, "float_power", floats=True)
maximum = _binary(tm.maximum, "maximum")
minimum = _binary(tm.minimum, "minimum")
arctan2 = _binary(tm.atan2, "arctan2", floats=True)
equal = _binary(tm.equal, "equal")
not_equal = _binary(tm.not_equal, "not_equal")
less = _binary(tm.less, "less")
less_equal = _binary(tm.less_equal, "less_equal")
greater = _binary(tm.greater, "greater")
greater_equal = _binary(tm.greater_equal, "greater_equal")
bitwise_and = _binary(tm.bitwise_and, "bitwise_and")
bitwise_or = _binary(tm.bitwise_or, "bitwise_or")
bitwise_xor = _binary(tm.bitwise_xor, "bitwise_xor")


def _logical(tf_fn, name):
    def fn(x1, x2):
        return tf_fn(cast_to(asarray(x1), d.bool), cast_to(asarray(x2), d.bool))
    fn.__name__ = name
    return fn


logical_and = _logical(tm.logical_and, "logical_and")
logical_or = _logical(tm.logical_or, "logical_or")
logical_xor = _logical(tm.logical_xor, "logical_xor")


def logical_not(x):
    return tm.logical_not(cast_to(asarray(x), d.bool))


def hypot(x1, x2):
    (a, b), weak = promote_args(x1, x2)
    a, b = _floating(a), _floating(b)
    return _weak_result(tm.sqrt(a * a + b * b), weak)


def divmod(x1, x2):  # noqa: A001 - NumPy's name
    return floor_divide(x1, x2), mod(x1, x2)


def _expit(x):
    return tm.sigmoid(x)


negative = _unary(tm.negative, "negative")
positive = _unary(lambda x: x, "positive")
absolute = _unary(tm.abs, "absolute")
abs = absolute  # noqa: A001 - NumPy's name
fabs = _unary(tm.abs, "fabs", floats=True)
sign = _unary(tm.sign, "sign")
square = _unary(tm.square, "square")
sqrt = _unary(tm.sqrt, "sqrt", floats=True)
exp = _unary(tm.exp, "exp", floats=True)
expm1 = _unary(tm.expm1, "expm1", floats=True)
exp2 = _unary(lambda x: tm.pow(cast_to(asarray(2.0), x.dtype), x), "exp2", floats=True)
log = _unary(tm.log, "log", floats=True)
log1p = _unary(tm.log1p, "log1p", floats=True)
log2 = _unary(lambda x: tm.log(x) / np.log(2.0).astype(x.dtype.as_numpy_dtype), "log2", True)
log10 = _unary(lambda x: tm.log(x) / np.log(10.0).astype(x.dtype.as_numpy_dtype), "log10", True)
sin = _unary(tm.sin, "sin", floats=True)
cos = _unary(tm.cos, "cos", floats=True)
tan = _unary(tm.tan, "tan", floats=True)
arcsin = _unary(tm.asin, "arcsin", floats=True)
arccos = _unary(tm.acos, "arccos", floats=True)
arctan = _unary(tm.atan, "arctan", floats=True)
sinh = _unary(tm.sinh, "sinh", floats=True)
cosh = _unary(tm.cosh, "cosh", floats=True)
tanh = _unary(tm.tanh, "tanh", floats=True)
arcsinh = _unary(tm.asinh, "arcsinh", floats=True)
arccosh = _unary(tm.acosh, "arccosh", floats=True)
arctanh = _unary(tm.atanh, "arctanh", floats=True)
floor = _unary(tm.floor, "floor", floats=True)
ceil = _unary(tm.ceil, "ceil", floats=True)
rint = _unary(tm.rint, "rint", floats=True)
reciprocal = _unary(tm.reciprocal, "reciprocal")
isnan = _unary(lambda x: tm.is_nan(x), "isnan", floats=True)
isinf = _unary(lambda x: tm.is_inf(x), "isinf", floats=True)
isfinite = _unary(lambda x: tm.is_finite(x), "isfinite", floats=True)
real = _unary(tm.real, "real")
imag = _unary(tm.imag, "imag")
conj = _unary(tm.conj, "conj")
conjugate = conj
bitwise_not = _unary(tm.invert, "bitwise_not")
deg2rad = _unary(lambda x: x * np.asarray(np.pi / 180, x.dtype.as_numpy_dtype), "deg2rad", True)
rad2deg = _unary(lambda x: x * np.asarray(180 / np.pi, x.dtype.as_numpy_dtype), "rad2deg", True)


def around(a, decimals=0):
    a = asarray(a)
    if decimals == 0 or not a.dtype.is_floating:
        return tm.round(a) if a.dtype.is_floating else a
    factor = np.asarray(10.0 ** decimals, a.dtype.as_numpy_dtype)
    return tm.round(a * factor) / factor


round_ = around


def clip(a, a_min, a_max):
    (a, lo, hi), weak = promote_args(a, a_min, a_max)
    return _weak_result(tm.minimum(tm.maximum(a, lo), hi), weak)


def isclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False):
    (a, b), _ = promote_args(a, b)
    a, b = _floating(a), _floating(b)
    close = tm.less_equal(tm.abs(a - b), atol + rtol * tm.abs(b))
    if equal_nan:
        close = tm.logical_or(close, tm.logical_and(tm.is_nan(a), tm.is_nan(b)))
    return close


def allclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False):
    return tr.reduce_all(isclose(a, b, rtol, atol, equal_nan))


def array_equal(a1, a2):
    a1, a2 = asarray(a1), asarray(a2)
    if a1.shape != a2.shape:
        return asarray(False)
    return tr.reduce_all(equal(a1, a2))


# ---- reductions -------------------------------------------------------------------------

def _int_to_int64(a, dtype):
    """NumPy sums and products of small ints (and bools) as int64 (uint64 for unsigned)."""
    if dtype is not None:
        return cast_to(a, dtype)
    if a.dtype.is_bool or (a.dtype.is_integer and a.dtype.size < 8):
        return cast_to(a, d.uint64 if a.dtype.is_unsigned else d.int64)
    return a


def _axis(axis):
    return list(axis) if isinstance(axis, tuple) else axis


def sum(a, axis=None, dtype=None, keepdims=False):  # noqa: A001 - NumPy's name
    a = _int_to_int64(asarray(a), dtype)
    return tr.reduce_sum(a, axis=_axis(axis), keepdims=keepdims)


def prod(a, axis=None, dtype=None, keepdims=False):
    a = _int_to_int64(asarray(a), dtype)
    return tr.reduce_prod(a, axis=_axis(axis), keepdims=keepdims)


def mean(a, axis=None, dtype=None, out=None, keepdims=False):
    a = asarray(a)
    a = cast_to(a, dtype) if dtype is not None else _floating(a)
    return tr.reduce_mean(a, axis=_axis(axis), keepdims=keepdims)


def average(a, axis=None, weights=None, returned=False):
    if weights is None:
        avg = mean(a, axis)
        count = cast_to(asarray(np.prod(asarray(a).shape.as_list()) if axis is None
                                else asarray(a).shape[axis]), avg.dtype)
        return (avg, count) if returned else avg
    (a, w), _ = promote_args(a, weights)
    a, w = _floating(a), _floating(w)
    total = tr.reduce_sum(w, axis=axis)
    avg = tr.reduce_sum(a * w, axis=axis) / total
    return (avg, total) if returned else avg


def amax(a, axis=None, keepdims=False):
    return tr.reduce_max(asarray(a), axis=_axis(axis), keepdims=keepdims)


def amin(a, axis=None, keepdims=False):
    return tr.reduce_min(asarray(a), axis=_axis(axis), keepdims=keepdims)


max = amax  # noqa: A001 - NumPy's name
min = amin  # noqa: A001 - NumPy's name


def ptp(a, axis=None, keepdims=False):
    return amax(a, axis, keepdims) - amin(a, axis, keepdims)


def var(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False):
    a = _floating(asarray(a) if dtype is None else cast_to(asarray(a), dtype))
    v = tr.reduce_variance(a, axis=_axis(axis), keepdims=keepdims)
    if ddof:
        n = np.prod(a.shape.as_list()) if axis is None else np.prod(
            [a.shape[i] for i in np.atleast_1d(axis)])
        v = v * np.asarray(n / (n - ddof), a.dtype.as_numpy_dtype)
    return v


def std(a, axis=None, keepdims=False):
    return tm.sqrt(var(a, axis=axis, keepdims=keepdims))


def all(a, axis=None, keepdims=False):  # noqa: A001 - NumPy's name
    return tr.reduce_all(cast_to(asarray(a), d.bool), axis=_axis(axis), keepdims=keepdims)


def any(a, axis=None, keepdims=False):  # noqa: A001 - NumPy's name
    return tr.reduce_any(cast_to(asarray(a), d.bool), axis=_axis(axis), keepdims=keepdims)


def argmax(a, axis=None):
    a = asarray(a)
    if axis is None:
        a, axis = reshape(a, [-1]), 0
    return tr.argmax(a, axis=axis)


def argmin(a, axis=None):
    a = asarray(a)
    if axis is None:
        a, axis = reshape(a, [-1]), 0
    return tr.argmin(a, axis=axis)


def cumsum(a, axis=None, dtype=None):
    a = _int_to_int64(asarray(a), dtype)
    if axis is None:
        a, axis = reshape(a, [-1]), 0
    return tr.cumsum(a, axis=axis)


def cumprod(a, axis=None, dtype=None):
    a = _int_to_int64(asarray(a), dtype)
    if axis is None:
        a, axis = reshape(a, [-1]), 0
    return tr.cumprod(a, axis=axis)


def count_nonzero(a, axis=None):
    return tr.count_nonzero(asarray(a), axis=_axis(axis), dtype=d.int64)
