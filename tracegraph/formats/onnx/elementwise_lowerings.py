"""ONNX lowerings of the elementwise op types that are not one ONNX op on the same inputs
(`ONNX_OPS` in `lowering_table` holds those), activations and casts."""

from __future__ import annotations

from .lowering_table import onnx_lowering

# ---- one input -----------------------------------------------------------------------------------

@onnx_lowering("Square")
def lower_square(ctx, x):
    return ctx.node("Mul", [x, x])


@onnx_lowering("Rsqrt")
def lower_rsqrt(ctx, x):
    return ctx.node("Reciprocal", [ctx.node("Sqrt", [x])])


@onnx_lowering("Expm1")
def lower_expm1(ctx, x):
    """exp(x) - 1 without cancellation near 0 (Kahan: (u - 1) * x / log(u), u = exp(x))."""
    u = ctx.node("Exp", [x])
    one = ctx.const(1, ctx.input_types[0].dtype)
    um1 = ctx.node("Sub", [u, one])
    kahan = ctx.node("Div", [ctx.node("Mul", [um1, x]), ctx.node("Log", [u])])
    minus_one = ctx.node("Neg", [one])
    edge = ctx.node("Or", [ctx.node("IsInf", [u]), ctx.node("Equal", [um1, minus_one])])
    out = ctx.node("Where", [edge, um1, kahan])  # overflow, and exp(x) == 0: -1
    return ctx.node("Where", [ctx.node("Equal", [u, one]), x, out])  # tiny x (and -0)


@onnx_lowering("Log1p")
def lower_log1p(ctx, x):
    """log(1 + x) without cancellation near 0 (Kahan: log(u) * x / (u - 1), u = 1 + x)."""
    one = ctx.const(1, ctx.input_types[0].dtype)
    u = ctx.node("Add", [x, one])
    log_u = ctx.node("Log", [u])
    kahan = ctx.node("Div", [ctx.node("Mul", [log_u, x]), ctx.node("Sub", [u, one])])
    zero = ctx.const(0, ctx.input_types[0].dtype)
    edge = ctx.node("Or", [ctx.node("IsInf", [u]), ctx.node("Equal", [u, zero])])
    out = ctx.node("Where", [edge, log_u, kahan])
    return ctx.node("Where", [ctx.node("Equal", [u, one]), x, out])


@onnx_lowering("Reciprocal")
def lower_reciprocal(ctx, x):
    if not ctx.input_types[0].dtype.is_floating:
        ctx.fail("an integer Reciprocal does not lower (ONNX has none; TensorFlow has no CPU "
                 "kernel for it either)")
    return ctx.node("Reciprocal", [x])


@onnx_lowering("Round")
def lower_round(ctx, x):
    return x if ctx.input_types[0].dtype.is_integer else ctx.node("Round", [x])


@onnx_lowering("IsFinite")
def lower_is_finite(ctx, x):
    return ctx.node("Not", [ctx.node("Or", [ctx.node("IsNaN", [x]), ctx.node("IsInf", [x])])])


# ---- two inputs ----------------------------------------------------------------------------------

@onnx_lowering("FloorDiv")
def lower_floor_div(ctx, x, y):
    if ctx.input_types[0].dtype.is_floating:
        return ctx.node("Floor", [ctx.node("Div", [x, y])])
    return ctx.node("Div", [ctx.node("Sub", [x, ctx.node("Mod", [x, y], fmod=0)]), y])


@onnx_lowering("FloorMod")
def lower_floor_mod(ctx, x, y):
    if ctx.input_types[0].dtype.is_floating:
        q = ctx.node("Floor", [ctx.node("Div", [x, y])])
        return ctx.node("Sub", [x, ctx.node("Mul", [y, q])])
    return ctx.node("Mod", [x, y], fmod=0)


@onnx_lowering("TruncateDiv")
def lower_truncate_div(ctx, x, y):
    q = ctx.node("Div", [x, y])
    if not ctx.input_types[0].dtype.is_floating:
        return q  # integer Div truncates
    negative = ctx.node("Less", [q, ctx.const(0, ctx.input_types[0].dtype)])
    return ctx.node("Where", [negative, ctx.node("Ceil", [q]), ctx.node("Floor", [q])])


@onnx_lowering("TruncateMod")
def lower_truncate_mod(ctx, x, y):
    return ctx.node("Mod", [x, y], fmod=1)


@onnx_lowering("SquaredDifference")
def lower_squared_difference(ctx, x, y):
    diff = ctx.node("Sub", [x, y])
    return ctx.node("Mul", [diff, diff])


@onnx_lowering("DivNoNan")
def lower_div_no_nan(ctx, x, y):
    dtype = ctx.input_types[0].dtype
    zero = ctx.const(0, dtype)
    return ctx.node("Where", [ctx.node("Equal", [y, zero]), ctx.node(
        "Expand", [zero, ctx.node("Shape", [ctx.node("Div", [x, y])])]), ctx.node("Div", [x, y])])


@onnx_lowering("MulNoNan")
def lower_mul_no_nan(ctx, x, y):
    dtype = ctx.input_types[0].dtype
    zero = ctx.const(0, dtype)
    product = ctx.node("Mul", [x, y])
    return ctx.node("Where", [ctx.node("Equal", [y, zero]), ctx.node(
        "Expand", [zero, ctx.node("Shape", [product])]), product])


@onnx_lowering("NotEqual")
def lower_not_equal(ctx, x, y):
    return ctx.node("Not", [ctx.node("Equal", [x, y])])


# ---- activations, casts, clipping ----------------------------------------------------------------

@onnx_lowering("Relu6")
def lower_relu6(ctx, x):
    dtype = ctx.input_types[0].dtype
    return ctx.node("Min", [ctx.node("Relu", [x]), ctx.const(6, dtype)])


@onnx_lowering("LeakyRelu")
def lower_leaky_relu(ctx, x):
    return ctx.node("LeakyRelu", [x], alpha=float(ctx.attrs["alpha"]))


@onnx_lowering("Cast")
def lower_cast(ctx, x):
    return ctx.cast(x, ctx.attrs["DstT"])


@onnx_lowering("ClipByValue")
def lower_clip(ctx, x, lo, hi):
    return ctx.node("Max", [ctx.node("Min", [x, hi]), lo])


def _zero_where_x_is_zero(ctx, x, value):
    zero = ctx.const(0, ctx.input_types[0].dtype)
    return ctx.node("Where", [ctx.node("Equal", [x, zero]), zero, value])


@onnx_lowering("Xlogy")
def lower_xlogy(ctx, x, y):
    return _zero_where_x_is_zero(ctx, x, ctx.node("Mul", [x, ctx.node("Log", [y])]))


@onnx_lowering("Xlog1py")
def lower_xlog1py(ctx, x, y):
    return _zero_where_x_is_zero(ctx, x, ctx.node("Mul", [x, lower_log1p(ctx, y)]))


@onnx_lowering("Xdivy")
def lower_xdivy(ctx, x, y):
    return _zero_where_x_is_zero(ctx, x, ctx.node("Div", [x, y]))
