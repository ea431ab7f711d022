"""Elementwise math, comparisons, logic, casts and reductions: records and `tf.math` functions.

Binary ops share one type attr `T`: no implicit promotion between tensors, and a Python scalar
takes the tensor operand's dtype (SPEC R-1.4). Integer ops stay integer.
"""

from __future__ import annotations

import operator

import numpy as np

from .. import dtypes as d
from ..errors import InvalidArgumentError, UnimplementedError
from ..shapes import TensorType, format_dims
from . import infer as I
from .list_value import TensorList
from .registry import (
    ALL_TYPES,
    COMPLEX,
    FLOAT,
    INTEGER,
    NUMBER,
    REAL,
    REQUIRED,
    STRING,
    TypeAttr,
    defop,
)

# ---- kernels that need more than a ufunc -----------------------------------------------------


def _check_int_divisor(y) -> None:
    if y.dtype.kind in "iu" and not np.all(y):
        raise InvalidArgumentError("Integer division by zero")


def kernel_floor_div(x, y):
    """Integers: NumPy's floor division. Floats: floor(x / y), as TensorFlow's kernel (NumPy's
    floor_divide gives NaN for inf // 3 and -1 for -5 // inf; TensorFlow inf and -0.0)."""
    x, y = np.asarray(x), np.asarray(y)
    _check_int_divisor(y)
    if y.dtype.kind not in "fc":
        return np.floor_divide(x, y)
    with np.errstate(all="ignore"):
        return np.floor(np.true_divide(x, y))


def kernel_floor_mod(x, y):
    """Integers: NumPy's mod. Floats: fmod(x, y), moved by y when its sign differs from y's,
    as TensorFlow's kernel (-0.0 % 3 stays -0.0)."""
    x, y = np.asarray(x), np.asarray(y)
    _check_int_divisor(y)
    if y.dtype.kind not in "fc":
        return np.mod(x, y)
    with np.errstate(all="ignore"):
        rest = np.fmod(x, y)
        return np.where((rest != 0) & ((y < 0) != (rest < 0)), rest + y, rest)


def kernel_truncate_div(x, y):
    y_arr = np.asarray(y)
    _check_int_divisor(y_arr)
    if y_arr.dtype.kind in "iu":
        q = np.floor_divide(x, y)
        fix = (np.mod(x, y) != 0) & ((np.asarray(x) < 0) != (y_arr < 0))
        return np.where(fix, q + 1, q).astype(y_arr.dtype)
    return np.trunc(np.true_divide(x, y))


def kernel_truncate_mod(x, y):
    _check_int_divisor(np.asarray(y))
    return np.fmod(x, y)


def kernel_pow(x, y):
    y_arr = np.asarray(y)
    if y_arr.dtype.kind in "iu" and np.any(y_arr < 0):
        raise InvalidArgumentError("Integers to negative integer powers are not allowed")
    out = np.power(x, y)
    if out.dtype.kind == "f" and np.any(y_arr == 0.5):
        # NumPy computes x**0.5 as sqrt(x): -0.0 at -0.0 and nan at -inf, where C's pow (and
        # TensorFlow) gives +0.0 and +inf.
        x_arr = np.asarray(x)
        fix = (y_arr == 0.5) & ((x_arr == 0) | np.isneginf(x_arr))
        if np.any(fix):
            out = np.where(fix, np.where(x_arr == 0, 0.0, np.inf).astype(out.dtype), out)
    return out


def kernel_div_no_nan(x, y):
    y = np.asarray(y)
    safe = np.where(y == 0, np.ones_like(y), y)
    return np.where(y == 0, np.zeros((), dtype=y.dtype), np.true_divide(x, safe)).astype(y.dtype)


def kernel_mul_no_nan(x, y):   # 0 where y is 0, even where x is inf or NaN
    return np.where(np.asarray(y) == 0, 0, np.multiply(x, y)).astype(np.asarray(y).dtype)


def kernel_squared_difference(x, y):
    diff = np.subtract(x, y)
    return np.multiply(diff, np.conj(diff)) if diff.dtype.kind == "c" else np.multiply(diff, diff)


def kernel_equal(x, y, incompatible_shape_error=True):
    try:
        return np.equal(x, y)
    except ValueError:
        if incompatible_shape_error:
            raise
        return np.bool_(False)


def kernel_not_equal(x, y, incompatible_shape_error=True):
    try:
        return np.not_equal(x, y)
    except ValueError:
        if incompatible_shape_error:
            raise
        return np.bool_(True)


def kernel_sigmoid(x):
    x = np.asarray(x)
    out = np.empty_like(x)
    pos = x >= 0
    np.divide(1, 1 + np.exp(-x, where=pos, out=np.zeros_like(x)), where=pos, out=out)
    ex = np.exp(x, where=~pos, out=np.zeros_like(x))
    np.divide(ex, 1 + ex, where=~pos, out=out)
    return out


def kernel_rsqrt(x):
    return np.reciprocal(np.sqrt(x))


def kernel_reciprocal(x):
    return np.reciprocal(x) if np.asarray(x).dtype.kind not in "iu" else np.floor_divide(1, x)


def kernel_round(x):
    # Rounding an integer is the identity; copy so the output is fresh (flag fresh_output).
    return np.round(x) if np.asarray(x).dtype.kind not in "iu" else np.array(x, copy=True)


def kernel_softplus(x):
    return np.logaddexp(np.zeros((), dtype=np.asarray(x).dtype), x)


def kernel_softsign(x):
    return x / (1 + np.abs(x))


def kernel_erf(x):
    import math

    arr = np.asarray(x)
    return np.vectorize(math.erf, otypes=[arr.dtype])(arr) if arr.size else arr.copy()


def kernel_erfc(x):
    import math

    arr = np.asarray(x)
    return np.vectorize(math.erfc, otypes=[arr.dtype])(arr) if arr.size else arr.copy()


def kernel_cast(x, DstT=REQUIRED, Truncate=False):  # noqa: N803 - TensorFlow's attr names
    arr = np.asarray(x)
    if DstT is d.string or arr.dtype == object:
        raise UnimplementedError(f"Cast {d.NUMPY_TO_DTYPE[arr.dtype].name} to {DstT.name} "
                                   "is not supported")
    if arr.dtype.kind == "c" and DstT.kind != "c":
        arr = arr.real
    return arr.astype(DstT.as_numpy_dtype)


def kernel_is_finite(x):
    return np.isfinite(x)


def _add_n_mismatch(i, a, b) -> str:
    return (f"Inputs to operation AddN of type AddN must have the same size and shape.  "
            f"Input 0: {format_dims(a)} != input {i}: {format_dims(b)}")


def kernel_add_n(inputs):
    if isinstance(inputs[0], TensorList):   # lists add element by element (their gradients)
        return sum(inputs[1:], inputs[0])
    first = np.shape(inputs[0])
    for i, x in enumerate(inputs[1:], 1):
        if np.shape(x) != first:
            raise InvalidArgumentError(_add_n_mismatch(i, first, np.shape(x)))
    out = inputs[0]
    for x in inputs[1:]:
        out = out + x
    return np.asarray(out) if len(inputs) == 1 else out


# ---- type inference ----------------------------------------------------------------------------

def infer_cast(x, DstT=REQUIRED, Truncate=False):  # noqa: N803 - TensorFlow's attr names
    return TensorType(DstT, x.shape)


def infer_bool_unary(x, **_):
    return TensorType(d.bool, x.shape)


def infer_real_part(x, **_):
    return TensorType(x.dtype.real_dtype, x.shape)


def infer_add_n(inputs):
    shape = inputs[0].shape
    for i, t in enumerate(inputs[1:], 1):
        if shape is None or t.shape is None:
            shape = shape if t.shape is None else t.shape
            continue
        if len(shape) != len(t.shape) or any(
                a is not None and b is not None and a != b for a, b in zip(shape, t.shape)):
            raise ValueError(_add_n_mismatch(i, shape, t.shape))
        shape = tuple(a if a is not None else b for a, b in zip(shape, t.shape))
    return TensorType(inputs[0].dtype, shape)


# ---- records: binary -----------------------------------------------------------------------------

_T = {"T": TypeAttr(NUMBER)}
_T_REAL = {"T": TypeAttr(REAL)}
_T_FLOAT = {"T": TypeAttr(FLOAT)}
_T_FLOATC = {"T": TypeAttr(FLOAT | COMPLEX)}
_T_INT = {"T": TypeAttr(INTEGER)}
_XY = ("x: T", "y: T")
_EW = {"elementwise", "pure", "fresh_output"}
_EWC = {"elementwise", "pure", "commutative", "fresh_output"}
# NumPy's real/imag return the input, a view of it or a read-only array: not fresh outputs.
_EW_VIEW = {"elementwise", "pure"}

add_op = defop("add", "AddV2", inputs=_XY, attrs={"T": TypeAttr(NUMBER | STRING)},
               infer=I.binary, kernel=operator.add, expr="{0} + {1}", flags=_EWC,
               ufunc=np.add)
subtract_op = defop("subtract", "Sub", inputs=_XY, attrs=_T, infer=I.binary,
                    kernel=operator.sub, expr="{0} - {1}", flags=_EW,
                    ufunc=np.subtract)
multiply_op = defop("multiply", "Mul", inputs=_XY, attrs=_T, infer=I.binary,
                    kernel=operator.mul, expr="{0} * {1}", flags=_EWC,
                    ufunc=np.multiply)
real_div_op = defop("real_div", "RealDiv", inputs=_XY, attrs=_T_FLOATC, infer=I.binary,
                    kernel=operator.truediv, expr="{0} / {1}", flags=_EW,
                    ufunc=np.true_divide)
floor_div_op = defop("floor_div", "FloorDiv", inputs=_XY, attrs=_T_REAL, infer=I.binary,
                     kernel=kernel_floor_div, flags=_EW)
floor_mod_op = defop("floor_mod", "FloorMod", inputs=_XY, attrs=_T_REAL, infer=I.binary,
                     kernel=kernel_floor_mod, flags=_EW)
truncate_div_op = defop("truncate_div", "TruncateDiv", inputs=_XY, attrs=_T_REAL,
                        infer=I.binary, kernel=kernel_truncate_div, flags=_EW)
truncate_mod_op = defop("truncate_mod", "TruncateMod", inputs=_XY, attrs=_T_REAL,
                        infer=I.binary, kernel=kernel_truncate_mod, flags=_EW)
pow_op = defop("pow", "Pow", inputs=_XY, attrs=_T, infer=I.binary, kernel=kernel_pow,
               flags=_EW)
maximum_op = defop("maximum", "Maximum", inputs=_XY, attrs=_T_REAL, infer=I.binary,
                   kernel=np.maximum, flags=_EWC)
minimum_op = defop("minimum", "Minimum", inputs=_XY, attrs=_T_REAL, infer=I.binary,
                   kernel=np.minimum, flags=_EWC)
squared_difference_op = defop("squared_difference", "SquaredDifference", inputs=_XY, attrs=_T,
                              infer=I.binary, kernel=kernel_squared_difference, flags=_EWC,
                              jit="({0} - {1}) * ({0} - {1})")
atan2_op = defop("atan2", "Atan2", inputs=("y: T", "x: T"), attrs=_T_FLOAT, infer=I.binary,
                 kernel=np.arctan2, flags=_EW)
div_no_nan_op = defop("div_no_nan", "DivNoNan", inputs=_XY, attrs=_T_FLOATC, infer=I.binary,
                      kernel=kernel_div_no_nan, flags=_EW)
mul_no_nan_op = defop("mul_no_nan", "MulNoNan", inputs=_XY, attrs=_T_FLOATC, infer=I.binary,
                      kernel=kernel_mul_no_nan, flags=_EW)
bitwise_and_op = defop("bitwise_and", "BitwiseAnd", inputs=_XY, attrs=_T_INT, infer=I.binary,
                       kernel=operator.and_, expr="{0} & {1}", flags=_EWC)
bitwise_or_op = defop("bitwise_or", "BitwiseOr", inputs=_XY, attrs=_T_INT, infer=I.binary,
                      kernel=operator.or_, expr="{0} | {1}", flags=_EWC)
bitwise_xor_op = defop("bitwise_xor", "BitwiseXor", inputs=_XY, attrs=_T_INT, infer=I.binary,
                       kernel=operator.xor, expr="{0} ^ {1}", flags=_EWC)
left_shift_op = defop("left_shift", "LeftShift", inputs=_XY, attrs=_T_INT, infer=I.binary,
                      kernel=np.left_shift, flags=_EW)
right_shift_op = defop("right_shift", "RightShift", inputs=_XY, attrs=_T_INT, infer=I.binary,
                       kernel=np.right_shift, flags=_EW)

# ---- records: comparisons and logic --------------------------------------------------------------

_EQ_ATTRS = {"T": TypeAttr(ALL_TYPES), "incompatible_shape_error": True}
equal_op = defop("equal", "Equal", inputs=_XY, attrs=_EQ_ATTRS, infer=I.compare_lenient,
                 kernel=kernel_equal, flags=_EWC)
not_equal_op = defop("not_equal", "NotEqual", inputs=_XY, attrs=_EQ_ATTRS,
                     infer=I.compare_lenient, kernel=kernel_not_equal, flags=_EWC)
less_op = defop("less", "Less", inputs=_XY, attrs=_T_REAL, infer=I.compare, kernel=operator.lt,
                expr="{0} < {1}", flags=_EW)
less_equal_op = defop("less_equal", "LessEqual", inputs=_XY, attrs=_T_REAL, infer=I.compare,
                      kernel=operator.le, expr="{0} <= {1}", flags=_EW)
greater_op = defop("greater", "Greater", inputs=_XY, attrs=_T_REAL, infer=I.compare,
                   kernel=operator.gt, expr="{0} > {1}", flags=_EW)
greater_equal_op = defop("greater_equal", "GreaterEqual", inputs=_XY, attrs=_T_REAL,
                         infer=I.compare, kernel=operator.ge, expr="{0} >= {1}", flags=_EW)
logical_and_op = defop("logical_and", "LogicalAnd", inputs=("x: bool", "y: bool"),
                       infer=I.logical, kernel=np.logical_and, flags=_EWC)
logical_or_op = defop("logical_or", "LogicalOr", inputs=("x: bool", "y: bool"),
                      infer=I.logical, kernel=np.logical_or, flags=_EWC)
logical_not_op = defop("logical_not", "LogicalNot", inputs=("x: bool",), infer=I.same,
                       kernel=np.logical_not, flags=_EW | {"involution"})

# ---- records: unary ------------------------------------------------------------------------------


def _unary(name, tf_type, kernel, allowed=NUMBER, expr=None, flags=(), infer=I.same,
           ufunc=None, jit=None):
    return defop(name, tf_type, inputs=("x: T",), attrs={"T": TypeAttr(allowed)}, infer=infer,
                 kernel=kernel, expr=expr, flags=_EW | set(flags), ufunc=ufunc,
                 jit=jit)


def _float_only(template):
    """A jit form for float inputs only (integer kernels follow other rules)."""
    return lambda attrs: template if attrs.get("T") is not None and attrs["T"].is_floating \
        else None


_SIGNED = NUMBER - {d.uint8, d.uint16, d.uint32, d.uint64}
negative_op = _unary("negative", "Neg", operator.neg, _SIGNED, "-{0}", {"involution"},
                     ufunc=np.negative)
abs_op = _unary("abs", "Abs", np.abs, REAL)
sign_op = _unary("sign", "Sign", np.sign, NUMBER)
square_op = _unary("square", "Square", np.square, NUMBER)
sqrt_op = _unary("sqrt", "Sqrt", np.sqrt, FLOAT | COMPLEX)
rsqrt_op = _unary("rsqrt", "Rsqrt", kernel_rsqrt, FLOAT | COMPLEX,
                  jit=_float_only("np.{T}(1) / np.sqrt({0})"))
exp_op = _unary("exp", "Exp", np.exp, FLOAT | COMPLEX)
expm1_op = _unary("expm1", "Expm1", np.expm1, FLOAT | COMPLEX)
log_op = _unary("log", "Log", np.log, FLOAT | COMPLEX)
log1p_op = _unary("log1p", "Log1p", np.log1p, FLOAT | COMPLEX)
sin_op = _unary("sin", "Sin", np.sin, FLOAT | COMPLEX)
cos_op = _unary("cos", "Cos", np.cos, FLOAT | COMPLEX)
tan_op = _unary("tan", "Tan", np.tan, FLOAT | COMPLEX)
asin_op = _unary("asin", "Asin", np.arcsin, FLOAT | COMPLEX)
acos_op = _unary("acos", "Acos", np.arccos, FLOAT | COMPLEX)
atan_op = _unary("atan", "Atan", np.arctan, FLOAT | COMPLEX)
sinh_op = _unary("sinh", "Sinh", np.sinh, FLOAT | COMPLEX)
cosh_op = _unary("cosh", "Cosh", np.cosh, FLOAT | COMPLEX)
tanh_op = _unary("tanh", "Tanh", np.tanh, FLOAT | COMPLEX)
asinh_op = _unary("asinh", "Asinh", np.arcsinh, FLOAT | COMPLEX)
acosh_op = _unary("acosh", "Acosh", np.arccosh, FLOAT | COMPLEX)
atanh_op = _unary("atanh", "Atanh", np.arctanh, FLOAT | COMPLEX)
sigmoid_op = _unary("sigmoid", "Sigmoid", kernel_sigmoid, FLOAT | COMPLEX - COMPLEX,
                    jit="np.{T}(1) / (np.{T}(1) + np.exp(-{0}))")
reciprocal_op = _unary("reciprocal", "Reciprocal", kernel_reciprocal, NUMBER,
                       jit=_float_only("np.{T}(1) / {0}"))
floor_op = _unary("floor", "Floor", np.floor, FLOAT)
ceil_op = _unary("ceil", "Ceil", np.ceil, FLOAT)
round_op = _unary("round", "Round", kernel_round, REAL)
rint_op = _unary("rint", "Rint", np.rint, FLOAT)
softplus_op = _unary("softplus", "Softplus", kernel_softplus, FLOAT)
softsign_op = _unary("softsign", "Softsign", kernel_softsign, FLOAT)
erf_op = _unary("erf", "Erf", kernel_erf, FLOAT)
erfc_op = _unary("erfc", "Erfc", kernel_erfc, FLOAT)
is_nan_op = _unary("is_nan", "IsNan", np.isnan, FLOAT, infer=infer_bool_unary)
is_inf_op = _unary("is_inf", "IsInf", np.isinf, FLOAT, infer=infer_bool_unary)
is_finite_op = _unary("is_finite", "IsFinite", kernel_is_finite, FLOAT, infer=infer_bool_unary)
invert_op = _unary("invert", "Invert", np.invert, INTEGER, "~{0}", {"involution"})
real_op = defop("real", "Real", inputs=("input: T",), attrs={"T": TypeAttr(COMPLEX | FLOAT)},
                infer=infer_real_part, kernel=np.real, flags=_EW_VIEW)
imag_op = defop("imag", "Imag", inputs=("input: T",), attrs={"T": TypeAttr(COMPLEX | FLOAT)},
                infer=infer_real_part, kernel=np.imag, flags=_EW_VIEW)
conj_op = _unary("conj", "Conj", np.conj, COMPLEX | REAL)
complex_abs_op = defop("complex_abs", "ComplexAbs", inputs=("x: T",),
                       attrs={"T": TypeAttr(COMPLEX)}, infer=infer_real_part, kernel=np.abs,
                       flags=_EW)

def _cast_expr(attrs):
    """`x.astype(np.float32)` inline, where that is exactly the kernel (real to real)."""
    src, dst = attrs.get("SrcT"), attrs.get("DstT")
    if src is None or dst is None or src.is_complex or not (src.is_numeric or src.is_bool) \
            or not (dst.is_numeric or dst.is_bool) or d.bfloat16 in (src, dst):
        return None
    return "{0}.astype(np." + np.dtype(dst.as_numpy_dtype).name + ")"


def _cast_jit(attrs):
    """`np.float32(x)` per element where the inline form applies and no float becomes an
    integer (NumPy's and numba's rules for out-of-range values differ)."""
    src, dst = attrs.get("SrcT"), attrs.get("DstT")
    if _cast_expr(attrs) is None or (src.is_floating and not (dst.is_floating or dst.is_bool)):
        return None
    return "np.{T}({0})"


cast_op = defop("cast", "Cast", inputs=("x: SrcT",),
                attrs={"SrcT": TypeAttr(ALL_TYPES), "DstT": REQUIRED, "Truncate": False},
                infer=infer_cast, kernel=kernel_cast, expr=_cast_expr, flags=_EW,
                jit=_cast_jit)
add_n_op = defop("add_n", "AddN", inputs=("inputs: N * T",),
                 attrs={"T": TypeAttr(NUMBER | {d.variant})},
                 infer=infer_add_n, kernel=kernel_add_n, flags={"pure", "commutative"})
