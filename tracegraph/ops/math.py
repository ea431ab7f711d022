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
from . import gradutil as G
from . import infer as I
from .registry import (
    ALL_TYPES,
    COMPLEX,
    FLOAT,
    INTEGER,
    NO_ATTRS,
    NUMBER,
    REAL,
    REQUIRED,
    STRING,
    TypeAttr,
    bind,
    convert_to_tensor,
    defgrad,
    defop,
)

# ---- kernels that need more than a ufunc -----------------------------------------------------


def _check_int_divisor(y) -> None:
    if y.dtype.kind in "iu" and not np.all(y):
        raise InvalidArgumentError("Integer division by zero")


def kernel_floor_div(x, y):
    _check_int_divisor(np.asarray(y))
    return np.floor_divide(x, y)


def kernel_floor_mod(x, y):
    _check_int_divisor(np.asarray(y))
    return np.mod(x, y)


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
    return np.power(x, y)


def kernel_div_no_nan(x, y):
    y = np.asarray(y)
    safe = np.where(y == 0, np.ones_like(y), y)
    return np.where(y == 0, np.zeros((), dtype=y.dtype), np.true_divide(x, safe)).astype(y.dtype)


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


def kernel_cast(x, DstT=REQUIRED, Truncate=False):  # noqa: N803 - TensorFlow's attr names
    arr = np.asarray(x)
    if DstT is d.string or arr.dtype == object:
        raise UnimplementedError(f"Cast {d.NUMPY_TO_DTYPE[arr.dtype].name} to {DstT.name} "
                                   "is not supported")
    if arr.dtype.kind == "c" and DstT._kind != "c":
        arr = arr.real
    return arr.astype(DstT.as_numpy_dtype)


def kernel_is_finite(x):
    return np.isfinite(x)


def _add_n_mismatch(i, a, b) -> str:
    return (f"Inputs to operation AddN of type AddN must have the same size and shape.  "
            f"Input 0: {format_dims(a)} != input {i}: {format_dims(b)}")


def kernel_add_n(inputs):
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
               infer=I.binary, kernel=operator.add, expr="{0} + {1}", flags=_EWC, onnx="Add",
               ufunc=np.add)
subtract_op = defop("subtract", "Sub", inputs=_XY, attrs=_T, infer=I.binary,
                    kernel=operator.sub, expr="{0} - {1}", flags=_EW, onnx="Sub",
                    ufunc=np.subtract)
multiply_op = defop("multiply", "Mul", inputs=_XY, attrs=_T, infer=I.binary,
                    kernel=operator.mul, expr="{0} * {1}", flags=_EWC, onnx="Mul",
                    ufunc=np.multiply)
real_div_op = defop("real_div", "RealDiv", inputs=_XY, attrs=_T_FLOATC, infer=I.binary,
                    kernel=operator.truediv, expr="{0} / {1}", flags=_EW, onnx="Div",
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
               flags=_EW, onnx="Pow")
maximum_op = defop("maximum", "Maximum", inputs=_XY, attrs=_T_REAL, infer=I.binary,
                   kernel=np.maximum, flags=_EWC, onnx="Max")
minimum_op = defop("minimum", "Minimum", inputs=_XY, attrs=_T_REAL, infer=I.binary,
                   kernel=np.minimum, flags=_EWC, onnx="Min")
squared_difference_op = defop("squared_difference", "SquaredDifference", inputs=_XY, attrs=_T,
                              infer=I.binary, kernel=kernel_squared_difference, flags=_EWC)
atan2_op = defop("atan2", "Atan2", inputs=("y: T", "x: T"), attrs=_T_FLOAT, infer=I.binary,
                 kernel=np.arctan2, flags=_EW)
div_no_nan_op = defop("div_no_nan", "DivNoNan", inputs=_XY, attrs=_T_FLOATC, infer=I.binary,
                      kernel=kernel_div_no_nan, flags=_EW)
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
                 kernel=kernel_equal, flags=_EWC, onnx="Equal")
not_equal_op = defop("not_equal", "NotEqual", inputs=_XY, attrs=_EQ_ATTRS,
                     infer=I.compare_lenient, kernel=kernel_not_equal, flags=_EWC)
less_op = defop("less", "Less", inputs=_XY, attrs=_T_REAL, infer=I.compare, kernel=operator.lt,
                expr="{0} < {1}", flags=_EW, onnx="Less")
less_equal_op = defop("less_equal", "LessEqual", inputs=_XY, attrs=_T_REAL, infer=I.compare,
                      kernel=operator.le, expr="{0} <= {1}", flags=_EW)
greater_op = defop("greater", "Greater", inputs=_XY, attrs=_T_REAL, infer=I.compare,
                   kernel=operator.gt, expr="{0} > {1}", flags=_EW, onnx="Greater")
greater_equal_op = defop("greater_equal", "GreaterEqual", inputs=_XY, attrs=_T_REAL,
                         infer=I.compare, kernel=operator.ge, expr="{0} >= {1}", flags=_EW)
logical_and_op = defop("logical_and", "LogicalAnd", inputs=("x: bool", "y: bool"),
                       infer=I.logical, kernel=np.logical_and, flags=_EWC, onnx="And")
logical_or_op = defop("logical_or", "LogicalOr", inputs=("x: bool", "y: bool"),
                      infer=I.logical, kernel=np.logical_or, flags=_EWC, onnx="Or")
logical_not_op = defop("logical_not", "LogicalNot", inputs=("x: bool",), infer=I.same,
                       kernel=np.logical_not, flags=_EW | {"involution"}, onnx="Not")

# ---- records: unary ------------------------------------------------------------------------------


def _unary(name, tf_type, kernel, allowed=NUMBER, expr=None, flags=(), infer=I.same, onnx=None,
           ufunc=None):
    return defop(name, tf_type, inputs=("x: T",), attrs={"T": TypeAttr(allowed)}, infer=infer,
                 kernel=kernel, expr=expr, flags=_EW | set(flags), onnx=onnx, ufunc=ufunc)


_SIGNED = NUMBER - {d.uint8, d.uint16, d.uint32, d.uint64}
negative_op = _unary("negative", "Neg", operator.neg, _SIGNED, "-{0}", {"involution"}, onnx="Neg",
                     ufunc=np.negative)
abs_op = _unary("abs", "Abs", np.abs, REAL, onnx="Abs")
sign_op = _unary("sign", "Sign", np.sign, NUMBER, onnx="Sign")
square_op = _unary("square", "Square", np.square, NUMBER)
sqrt_op = _unary("sqrt", "Sqrt", np.sqrt, FLOAT | COMPLEX, onnx="Sqrt")
rsqrt_op = _unary("rsqrt", "Rsqrt", kernel_rsqrt, FLOAT | COMPLEX)
exp_op = _unary("exp", "Exp", np.exp, FLOAT | COMPLEX, onnx="Exp")
expm1_op = _unary("expm1", "Expm1", np.expm1, FLOAT | COMPLEX)
log_op = _unary("log", "Log", np.log, FLOAT | COMPLEX, onnx="Log")
log1p_op = _unary("log1p", "Log1p", np.log1p, FLOAT | COMPLEX)
sin_op = _unary("sin", "Sin", np.sin, FLOAT | COMPLEX, onnx="Sin")
cos_op = _unary("cos", "Cos", np.cos, FLOAT | COMPLEX, onnx="Cos")
tan_op = _unary("tan", "Tan", np.tan, FLOAT | COMPLEX, onnx="Tan")
asin_op = _unary("asin", "Asin", np.arcsin, FLOAT | COMPLEX)
acos_op = _unary("acos", "Acos", np.arccos, FLOAT | COMPLEX)
atan_op = _unary("atan", "Atan", np.arctan, FLOAT | COMPLEX)
sinh_op = _unary("sinh", "Sinh", np.sinh, FLOAT | COMPLEX)
cosh_op = _unary("cosh", "Cosh", np.cosh, FLOAT | COMPLEX)
tanh_op = _unary("tanh", "Tanh", np.tanh, FLOAT | COMPLEX, onnx="Tanh")
asinh_op = _unary("asinh", "Asinh", np.arcsinh, FLOAT | COMPLEX)
acosh_op = _unary("acosh", "Acosh", np.arccosh, FLOAT | COMPLEX)
atanh_op = _unary("atanh", "Atanh", np.arctanh, FLOAT | COMPLEX)
sigmoid_op = _unary("sigmoid", "Sigmoid", kernel_sigmoid, FLOAT | COMPLEX - COMPLEX,
                    onnx="Sigmoid")
reciprocal_op = _unary("reciprocal", "Reciprocal", kernel_reciprocal, NUMBER,
                       flags={"involution"}, onnx="Reciprocal")
floor_op = _unary("floor", "Floor", np.floor, FLOAT, onnx="Floor")
ceil_op = _unary("ceil", "Ceil", np.ceil, FLOAT, onnx="Ceil")
round_op = _unary("round", "Round", kernel_round, REAL, onnx="Round")
rint_op = _unary("rint", "Rint", np.rint, FLOAT)
softplus_op = _unary("softplus", "Softplus", kernel_softplus, FLOAT, onnx="Softplus")
softsign_op = _unary("softsign", "Softsign", kernel_softsign, FLOAT, onnx="Softsign")
erf_op = _unary("erf", "Erf", kernel_erf, FLOAT, onnx="Erf")
is_nan_op = _unary("is_nan", "IsNan", np.isnan, FLOAT, infer=infer_bool_unary, onnx="IsNaN")
is_inf_op = _unary("is_inf", "IsInf", np.isinf, FLOAT, infer=infer_bool_unary, onnx="IsInf")
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


cast_op = defop("cast", "Cast", inputs=("x: SrcT",),
                attrs={"SrcT": TypeAttr(ALL_TYPES), "DstT": REQUIRED, "Truncate": False},
                infer=infer_cast, kernel=kernel_cast, expr=_cast_expr, flags=_EW, onnx="Cast")
add_n_op = defop("add_n", "AddN", inputs=("inputs: N * T",), attrs={"T": TypeAttr(NUMBER)},
                 infer=infer_add_n, kernel=kernel_add_n, flags={"pure", "commutative"},
                 onnx="Sum")

# ---- gradient rules: the `gradient` field of the records above (TensorFlow's math_grad) --------


def _mul(a, b):
    return bind(multiply_op, (a, b))


def _div(a, b):
    return bind(real_div_op, (a, b))


def _neg(a):
    return bind(negative_op, (a,))


@defgrad(add_op)
def _add_grad(op, g):
    x, y = op.inputs
    return G.unbroadcast(g, x), G.unbroadcast(g, y)


@defgrad(subtract_op)
def _sub_grad(op, g):
    x, y = op.inputs
    return G.unbroadcast(g, x), G.unbroadcast(_neg(g), y)


@defgrad(multiply_op)
def _mul_grad(op, g):
    x, y = op.inputs
    return G.unbroadcast(_mul(g, G.conj(y)), x), G.unbroadcast(_mul(G.conj(x), g), y)


@defgrad(real_div_op)
def _div_grad(op, g):
    x, y = op.inputs
    return (G.unbroadcast(_div(g, G.conj(y)), x),
            G.unbroadcast(_mul(g, G.conj(_div(_div(_neg(x), y), y))), y))


@defgrad(div_no_nan_op)
def _div_no_nan_grad(op, g):
    x, y = op.inputs
    return (G.unbroadcast(bind(div_no_nan_op, (g, y)), x),
            G.unbroadcast(_mul(g, bind(div_no_nan_op, (bind(div_no_nan_op, (_neg(x), y)), y))),
                          y))


@defgrad(pow_op)
def _pow_grad(op, g):
    x, y = op.inputs
    z = op.outputs[0]
    gx = _mul(g, _mul(y, bind(pow_op, (x, bind(subtract_op, (y, 1))))))
    if x.dtype.is_complex:
        safe_log = bind(log_op, (x,))
    else:
        positive = bind(greater_op, (x, 0))
        safe_log = G.op("select", positive, bind(log_op, (G.op("select", positive, x,
                                                                 G.ones_like(x)),)),
                        G.zeros_like(x))
    gy = _mul(g, _mul(z, safe_log))
    return G.unbroadcast(gx, x), G.unbroadcast(gy, y)


def _select_grad(op, g, pick_x):
    x, y = op.inputs
    zeros = G.zeros_like(g)
    return (G.unbroadcast(G.op("select", pick_x, g, zeros), x),
            G.unbroadcast(G.op("select", pick_x, zeros, g), y))


@defgrad(maximum_op)
def _maximum_grad(op, g):
    return _select_grad(op, g, bind(greater_equal_op, tuple(op.inputs)))


@defgrad(minimum_op)
def _minimum_grad(op, g):
    return _select_grad(op, g, bind(less_equal_op, tuple(op.inputs)))


@defgrad(squared_difference_op)
def _squared_difference_grad(op, g):
    x, y = op.inputs
    gx = _mul(_mul(g, 2), bind(subtract_op, (x, y)))
    return G.unbroadcast(gx, x), G.unbroadcast(_neg(gx), y)


@defgrad(atan2_op)
def _atan2_grad(op, g):
    y, x = op.inputs
    scale = _div(g, bind(add_op, (bind(square_op, (x,)), bind(square_op, (y,)))))
    return G.unbroadcast(_mul(x, scale), y), G.unbroadcast(_neg(_mul(y, scale)), x)


@defgrad(floor_mod_op)
def _floor_mod_grad(op, g):
    x, y = op.inputs
    return G.unbroadcast(g, x), G.unbroadcast(_mul(_neg(g), bind(floor_div_op, (x, y))), y)


@defgrad(floor_div_op, truncate_div_op, floor_op, ceil_op, round_op, rint_op)
def _no_gradient(op, *grads):
    """Piecewise-constant ops: TensorFlow registers a gradient of None for them."""
    return [None] * len(op.inputs)


def _unary_grad(record, local):
    """Registers `g * local(x, y)` (times the conjugate for complex inputs) as the rule."""
    def rule(op, g):
        return _mul(g, G.conj(local(op.inputs[0], op.outputs[0])))
    rule.__name__ = f"_{record.name}_grad"
    defgrad(record)(rule)


def _un(record, x):
    return bind(record, (x,))


def _one_minus(a):
    return bind(subtract_op, (1, a))


_unary_grad(abs_op, lambda x, y: _un(sign_op, x))
_unary_grad(square_op, lambda x, y: _mul(x, 2))
_unary_grad(sqrt_op, lambda x, y: _div(0.5, y))
_unary_grad(rsqrt_op, lambda x, y: _mul(-0.5, _mul(y, _un(square_op, y))))
_unary_grad(exp_op, lambda x, y: y)
_unary_grad(expm1_op, lambda x, y: _un(exp_op, x))
_unary_grad(log_op, lambda x, y: _un(reciprocal_op, x))
_unary_grad(log1p_op, lambda x, y: _un(reciprocal_op, bind(add_op, (x, 1))))
_unary_grad(sin_op, lambda x, y: _un(cos_op, x))
_unary_grad(cos_op, lambda x, y: _neg(_un(sin_op, x)))
_unary_grad(tan_op, lambda x, y: bind(add_op, (_un(square_op, y), 1)))
_unary_grad(asin_op, lambda x, y: _un(rsqrt_op, _one_minus(_un(square_op, x))))
_unary_grad(acos_op, lambda x, y: _neg(_un(rsqrt_op, _one_minus(_un(square_op, x)))))
_unary_grad(atan_op, lambda x, y: _un(reciprocal_op, bind(add_op, (_un(square_op, x), 1))))
_unary_grad(sinh_op, lambda x, y: _un(cosh_op, x))
_unary_grad(cosh_op, lambda x, y: _un(sinh_op, x))
_unary_grad(tanh_op, lambda x, y: _one_minus(_un(square_op, y)))
_unary_grad(asinh_op, lambda x, y: _un(reciprocal_op, _un(cosh_op, y)))
_unary_grad(acosh_op, lambda x, y: _un(reciprocal_op, _un(sinh_op, y)))
_unary_grad(atanh_op, lambda x, y: _un(reciprocal_op, _one_minus(_un(square_op, x))))
_unary_grad(sigmoid_op, lambda x, y: _mul(y, _one_minus(y)))
_unary_grad(reciprocal_op, lambda x, y: _neg(_un(square_op, y)))
_unary_grad(softplus_op, lambda x, y: _un(sigmoid_op, x))
_unary_grad(softsign_op, lambda x, y: _un(reciprocal_op, _un(square_op, bind(
    add_op, (_un(abs_op, x), 1)))))
_unary_grad(erf_op, lambda x, y: _mul(2 / np.sqrt(np.pi), _un(exp_op, _neg(_un(square_op, x)))))


@defgrad(negative_op)
def _neg_grad(op, g):
    return _neg(g)


@defgrad(sign_op)
def _sign_grad(op, g):
    return G.zeros_like(op.inputs[0])


@defgrad(conj_op)
def _conj_grad(op, g):
    return G.conj(g)


@defgrad(cast_op)
def _cast_grad(op, g):
    src = op.inputs[0].dtype
    differentiable = (src.is_floating or src.is_complex) and (g.dtype.is_floating or
                                                              g.dtype.is_complex)
    return G.cast(g, src) if differentiable else None


@defgrad(add_n_op)
def _add_n_grad(op, g):
    return [g] * len(op.inputs)

# ---- public functions (tf.math) ------------------------------------------------------------------


def _b(op):
    def fn(x, y, name=None):
        return bind(op, (x, y), NO_ATTRS, name)
    fn.__name__ = op.name
    fn.__doc__ = f"Elementwise `{op.tf_type}` with broadcasting."
    return fn


def _u(op):
    def fn(x, name=None):
        return bind(op, (x,), NO_ATTRS, name)
    fn.__name__ = op.name
    fn.__doc__ = f"Elementwise `{op.tf_type}`."
    return fn


add = _b(add_op)
subtract = _b(subtract_op)
multiply = _b(multiply_op)
floordiv = _b(floor_div_op)
floormod = _b(floor_mod_op)
truncatediv = _b(truncate_div_op)
truncatemod = _b(truncate_mod_op)
maximum = _b(maximum_op)
minimum = _b(minimum_op)
squared_difference = _b(squared_difference_op)
atan2 = _b(atan2_op)
less = _b(less_op)
less_equal = _b(less_equal_op)
greater = _b(greater_op)
greater_equal = _b(greater_equal_op)
logical_and = _b(logical_and_op)
logical_or = _b(logical_or_op)
bitwise_and = _b(bitwise_and_op)
bitwise_or = _b(bitwise_or_op)
bitwise_xor = _b(bitwise_xor_op)
left_shift = _b(left_shift_op)
right_shift = _b(right_shift_op)

negative = _u(negative_op)
sign = _u(sign_op)
square = _u(square_op)
sqrt = _u(sqrt_op)
rsqrt = _u(rsqrt_op)
exp = _u(exp_op)
expm1 = _u(expm1_op)
log = _u(log_op)
log1p = _u(log1p_op)
sin = _u(sin_op)
cos = _u(cos_op)
tan = _u(tan_op)
asin = _u(asin_op)
acos = _u(acos_op)
atan = _u(atan_op)
sinh = _u(sinh_op)
cosh = _u(cosh_op)
tanh = _u(tanh_op)
asinh = _u(asinh_op)
acosh = _u(acosh_op)
atanh = _u(atanh_op)
sigmoid = _u(sigmoid_op)
reciprocal = _u(reciprocal_op)
floor = _u(floor_op)
ceil = _u(ceil_op)
rint = _u(rint_op)
softplus = _u(softplus_op)
softsign = _u(softsign_op)
erf = _u(erf_op)
is_nan = _u(is_nan_op)
is_inf = _u(is_inf_op)
is_finite = _u(is_finite_op)
logical_not = _u(logical_not_op)
invert = _u(invert_op)
real = _u(real_op)
imag = _u(imag_op)
conj = _u(conj_op)


def abs(x, name=None):  # noqa: A001 - TensorFlow's name
    """`|x|`; complex inputs give their magnitude as a real tensor (ComplexAbs)."""
    x = convert_to_tensor(x)
    if x.dtype.is_complex:
        return bind(complex_abs_op, (x,), NO_ATTRS, name)
    return bind(abs_op, (x,), NO_ATTRS, name)


def round(x, name=None):  # noqa: A001 - TensorFlow's name
    """Rounds half to even, like `tf.math.round`."""
    return bind(round_op, (x,), NO_ATTRS, name)


def pow(x, y, name=None):  # noqa: A001 - TensorFlow's name
    """`x ** y` elementwise; integers stay integers (negative integer powers are an error)."""
    return bind(pow_op, (x, y), NO_ATTRS, name)


def equal(x, y, name=None):
    return bind(equal_op, (x, y), NO_ATTRS, name)


def not_equal(x, y, name=None):
    return bind(not_equal_op, (x, y), NO_ATTRS, name)


def logical_xor(x, y, name=None):
    return logical_and(logical_or(x, y), logical_not(logical_and(x, y)), name=name)


def cast(x, dtype, name=None):
    """Casts to `dtype`; floats truncate toward zero when cast to integers."""
    dtype = d.as_dtype(dtype)
    x = convert_to_tensor(x)
    if x.dtype == dtype:
        return x
    return bind(cast_op, (x,), {"DstT": dtype}, name)


def saturate_cast(value, dtype, name=None):
    """Casts, clipping values to the target dtype's range first."""
    dtype = d.as_dtype(dtype)
    value = convert_to_tensor(value)
    src = value.dtype
    if src.is_numeric and not src.is_complex and dtype.is_numeric and not dtype.is_complex:
        lo, hi = _in_range(max(src.min, dtype.min), src, -1), _in_range(min(src.max, dtype.max),
                                                                         src, 1)
        if lo > src.min:
            value = maximum(value, lo)
        if hi < src.max:
            value = minimum(value, hi)
    return cast(value, dtype, name=name)


def _in_range(bound, src: d.DType, side: int):
    """`bound` as a value of `src` that does not pass it (int32's max as a float32 is 2**31,
    out of range; the largest float32 below it is 2147483520)."""
    value = np.asarray(bound, dtype=src.as_numpy_dtype) if src.is_floating else bound
    if src.is_floating and (int(value) - bound) * side > 0:  # exact: value is integral
        value = np.nextafter(value, -side * np.inf, dtype=src.as_numpy_dtype)
    return value[()] if isinstance(value, np.ndarray) else value


def add_n(inputs, name=None):
    """Sums a list of tensors of the same shape and dtype."""
    if not inputs:
        raise ValueError("Inputs must be an iterable of at least one Tensor/IndexedSlices with "
                         "the same dtype and shape.")
    return bind(add_n_op, (list(inputs),), NO_ATTRS, name)


# TensorFlow's `_TRUEDIV_TABLE`: integers divide in floating point, floats stay as they are.
_TRUEDIV = {
    d.uint8: d.float32, d.int8: d.float32, d.uint16: d.float32, d.int16: d.float32,
    d.uint32: d.float64, d.int32: d.float64, d.uint64: d.float64, d.int64: d.float64,
    d.bfloat16: None, d.float16: None, d.float32: None, d.float64: None,
    d.complex64: None, d.complex128: None,
}


def _division_operands(x, y, where: str):
    """Converts both operands TensorFlow's way and casts integers to their float dtype."""
    if not _is_tensor(x) and _is_tensor(y):
        y = convert_to_tensor(y)
        x = convert_to_tensor(x, dtype=y.dtype)
    else:
        x = convert_to_tensor(x)
        y = convert_to_tensor(y, dtype_hint=x.dtype)
    if x.dtype != y.dtype:
        raise TypeError(f"`x` and `y` must have the same dtype, got {x.dtype!r} != {y.dtype!r}.")
    if x.dtype not in _TRUEDIV:
        expected = ", ".join(repr(t) for t in _TRUEDIV)
        raise TypeError(f"Invalid dtype {x.dtype!r} in {where}. Expected one of {{{expected}}}.")
    target = _TRUEDIV[x.dtype]
    if target is not None:
        x, y = cast(x, target), cast(y, target)
    return x, y


def _is_tensor(x) -> bool:
    return isinstance(getattr(x, "dtype", None), d.DType)


def truediv(x, y, name=None):
    """`x / y`; integer tensors are cast to floating point first, as TensorFlow does."""
    x, y = _division_operands(x, y, "__truediv__")
    return bind(real_div_op, (x, y), NO_ATTRS, name)


def divide_no_nan(x, y, name=None):
    """`x / y`, or 0 where `y` is 0; integers divide in floating point like `truediv`."""
    x, y = _division_operands(x, y, "tf.math.divide_no_nan")
    return bind(div_no_nan_op, (x, y), NO_ATTRS, name)


divide = truediv


def scalar_mul(scalar, x, name=None):
    return multiply(scalar, x, name=name)
