"""ONNX lowerings of op records (`onnx=` of `defop`): elementwise, matrices, reductions,
convolutions, control flow. The shape and indexing ops' lowerings are in `lowering_shapes`.

A lowering is `lower(ctx, *input_names) -> output name(s)`; `ctx` (the exporter's
`LoweringContext`) emits ONNX nodes: `ctx.node(op_type, inputs, outputs=1, **attrs)`,
`ctx.const(value, dtype)`, `ctx.cast(name, dtype)`, `ctx.branch(graph, inputs)`,
`ctx.loop(cond, body, inputs)`, `ctx.inline(graph, inputs)`, with the op's `attrs`,
`input_types`, `output_types` and `opset`. Nothing here imports onnx. A lowering that cannot
express a case raises ValueError saying it "does not lower".
"""

from __future__ import annotations

import numpy as np

from .. import dtypes as d

INT64_MAX = np.iinfo(np.int64).max
# ONNX op names the exporter itself emits (between lowerings, around sub-graphs)
ONNX_CAST, ONNX_IDENTITY = "Cast", "Identity"
INT64_MIN = np.iinfo(np.int64).min


def known(ctx, i, what):
    value = ctx.input_types[i]._value
    if value is None:
        raise ValueError(f"ONNX export of {ctx.op.name} ({ctx.op.type}) needs a constant "
                         f"{what}; it is computed at run time here.")
    return np.asarray(value)


def as_int64(ctx, name, i):
    return name if ctx.input_types[i].dtype is d.int64 else ctx.cast(name, d.int64)


def cast_back(ctx, name, dtype):
    return name if dtype is d.int64 else ctx.cast(name, dtype)


# ---- elementwise ------------------------------------------------------------------------------

def lower_square(ctx, x):
    return ctx.node("Mul", [x, x])


def lower_rsqrt(ctx, x):
    return ctx.node("Reciprocal", [ctx.node("Sqrt", [x])])


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


def lower_reciprocal(ctx, x):
    if not ctx.input_types[0].dtype.is_floating:
        raise ValueError(f"ONNX export of {ctx.op.name}: an integer Reciprocal does not lower "
                         "(ONNX has none; TensorFlow has no CPU kernel for it either)")
    return ctx.node("Reciprocal", [x])


def lower_round(ctx, x):
    return x if ctx.input_types[0].dtype.is_integer else ctx.node("Round", [x])


def lower_is_finite(ctx, x):
    return ctx.node("Not", [ctx.node("Or", [ctx.node("IsNaN", [x]), ctx.node("IsInf", [x])])])


def lower_floor_div(ctx, x, y):
    if ctx.input_types[0].dtype.is_floating:
        return ctx.node("Floor", [ctx.node("Div", [x, y])])
    return ctx.node("Div", [ctx.node("Sub", [x, ctx.node("Mod", [x, y], fmod=0)]), y])


def lower_floor_mod(ctx, x, y):
    if ctx.input_types[0].dtype.is_floating:
        q = ctx.node("Floor", [ctx.node("Div", [x, y])])
        return ctx.node("Sub", [x, ctx.node("Mul", [y, q])])
    return ctx.node("Mod", [x, y], fmod=0)


def lower_truncate_div(ctx, x, y):
    q = ctx.node("Div", [x, y])
    if not ctx.input_types[0].dtype.is_floating:
        return q  # integer Div truncates
    negative = ctx.node("Less", [q, ctx.const(0, ctx.input_types[0].dtype)])
    return ctx.node("Where", [negative, ctx.node("Ceil", [q]), ctx.node("Floor", [q])])


def lower_truncate_mod(ctx, x, y):
    return ctx.node("Mod", [x, y], fmod=1)


def lower_squared_difference(ctx, x, y):
    diff = ctx.node("Sub", [x, y])
    return ctx.node("Mul", [diff, diff])


def lower_div_no_nan(ctx, x, y):
    dtype = ctx.input_types[0].dtype
    zero = ctx.const(0, dtype)
    return ctx.node("Where", [ctx.node("Equal", [y, zero]), ctx.node(
        "Expand", [zero, ctx.node("Shape", [ctx.node("Div", [x, y])])]), ctx.node("Div", [x, y])])


def lower_not_equal(ctx, x, y):
    return ctx.node("Not", [ctx.node("Equal", [x, y])])


def lower_relu6(ctx, x):
    dtype = ctx.input_types[0].dtype
    return ctx.node("Min", [ctx.node("Relu", [x]), ctx.const(6, dtype)])


def lower_leaky_relu(ctx, x):
    return ctx.node("LeakyRelu", [x], alpha=float(ctx.attrs["alpha"]))


def lower_cast(ctx, x):
    return ctx.cast(x, ctx.attrs["DstT"])


def lower_clip(ctx, x, lo, hi):
    return ctx.node("Max", [ctx.node("Min", [x, hi]), lo])


# ---- matrices ---------------------------------------------------------------------------------

def _swap_last(ctx, x, rank):
    perm = list(range(rank))
    perm[-2:] = perm[-1], perm[-2]
    return ctx.node("Transpose", [x], perm=perm)


def lower_matmul(ctx, a, b):
    if ctx.attrs.get("transpose_a"):
        a = _swap_last(ctx, a, 2)
    if ctx.attrs.get("transpose_b"):
        b = _swap_last(ctx, b, 2)
    return ctx.node("MatMul", [a, b])


def lower_batch_matmul(ctx, x, y):
    if ctx.attrs.get("adj_x"):
        x = _swap_last(ctx, x, ctx.input_types[0].shape.rank)
    if ctx.attrs.get("adj_y"):
        y = _swap_last(ctx, y, ctx.input_types[1].shape.rank)
    return ctx.node("MatMul", [x, y])


_ACTIVATIONS = {"Relu": "Relu", "Tanh": "Tanh", "Sigmoid": "Sigmoid", "Elu": "Elu"}


def lower_fused_matmul(ctx, a, b, bias):
    out = ctx.node("Add", [lower_matmul(ctx, a, b), bias])
    for name in ctx.attrs.get("fused_ops", ())[1:]:
        if name == "Relu6":
            out = lower_relu6(ctx, out)
        elif name == "LeakyRelu":
            out = ctx.node("LeakyRelu", [out], alpha=float(ctx.attrs.get("leakyrelu_alpha", 0.2)))
        else:
            out = ctx.node(_ACTIVATIONS[name], [out])
    return out


def lower_bias_add(ctx, value, bias):
    if ctx.attrs.get("data_format", "NHWC") == "NHWC":
        return ctx.node("Add", [value, bias])
    rank = ctx.input_types[0].shape.rank
    shaped = ctx.node("Unsqueeze", [bias, ctx.const(list(range(1, rank - 1)), np.int64)])
    return ctx.node("Add", [value, shaped])


# ---- reductions --------------------------------------------------------------------------------

def reduce(op_type):
    def lower(ctx, x, axes):
        axes_value = known(ctx, 1, "axis").reshape(-1).astype(np.int64)
        if axes_value.size == 0:
            return ctx.node("Identity", [x])
        keep = int(bool(ctx.attrs.get("keep_dims")))
        if op_type == "ReduceSum" or ctx.opset >= 18:
            return ctx.node(op_type, [x, ctx.const(axes_value)], keepdims=keep)
        return ctx.node(op_type, [x], axes=axes_value.tolist(), keepdims=keep)
    return lower


def reduce_bool(op_type):
    inner = reduce(op_type)

    def lower(ctx, x, axes):
        as_int = ctx.cast(x, d.int32)
        return ctx.cast(inner(ctx, as_int, axes), d.bool)
    return lower


def arg(op_type):
    def lower(ctx, x, dimension):
        axis = int(known(ctx, 1, "dimension"))
        out = ctx.node(op_type, [x], axis=axis, keepdims=0)
        return cast_back(ctx, out, ctx.attrs.get("output_type", d.int64))
    return lower


def lower_cumsum(ctx, x, axis):
    return ctx.node("CumSum", [x, axis], exclusive=int(bool(ctx.attrs.get("exclusive"))),
                    reverse=int(bool(ctx.attrs.get("reverse"))))


# ---- convolution and pooling (NHWC kept by transposing around ONNX's NCHW ops) ----------------

def _nchw(ctx, x, attrs_format):
    return x if attrs_format == "NCHW" else ctx.node("Transpose", [x], perm=[0, 3, 1, 2])


def _back(ctx, y, attrs_format):
    return y if attrs_format == "NCHW" else ctx.node("Transpose", [y], perm=[0, 2, 3, 1])


def _spatial(values, data_format):
    return list(values[2:4] if data_format == "NCHW" else values[1:3])


def _padding(ctx):
    padding = ctx.attrs["padding"]
    if padding == "SAME":
        return {"auto_pad": "SAME_UPPER"}
    if padding == "VALID":
        return {"auto_pad": "VALID"}
    if padding == "EXPLICIT":
        pairs = np.asarray(ctx.attrs["explicit_paddings"]).reshape(4, 2)
        h, w = _spatial(list(pairs), ctx.attrs.get("data_format", "NHWC"))
        return {"pads": [int(h[0]), int(w[0]), int(h[1]), int(w[1])]}
    raise ValueError(f"ONNX export of {ctx.op.name}: padding {padding!r} does not lower")


def lower_conv2d(ctx, x, filters, bias=None):
    fmt = ctx.attrs.get("data_format", "NHWC")
    weights = ctx.node("Transpose", [filters], perm=[3, 2, 0, 1])
    y = ctx.node("Conv", [_nchw(ctx, x, fmt), weights] + ([] if bias is None else [bias]),
                 strides=_spatial(ctx.attrs["strides"], fmt),
                 dilations=_spatial(ctx.attrs.get("dilations", (1, 1, 1, 1)), fmt),
                 **_padding(ctx))
    return _back(ctx, y, fmt)


def lower_fused_conv2d(ctx, x, filters, bias):
    out = lower_conv2d(ctx, x, filters, bias)
    for name in ctx.attrs.get("fused_ops", ())[1:]:
        out = lower_relu6(ctx, out) if name == "Relu6" else ctx.node(_ACTIVATIONS[name], [out])
    return out


def pool(op_type):
    def lower(ctx, x):
        fmt = ctx.attrs.get("data_format", "NHWC")
        extra = {"count_include_pad": 0} if op_type == "AveragePool" else {}
        y = ctx.node(op_type, [_nchw(ctx, x, fmt)],
                     kernel_shape=_spatial(ctx.attrs["ksize"], fmt),
                     strides=_spatial(ctx.attrs["strides"], fmt), **_padding(ctx), **extra)
        return _back(ctx, y, fmt)
    return lower


# ---- control flow and calls ----------------------------------------------------------------------

def lower_if(ctx, cond, *args):
    if ctx.input_types[0].dtype is not d.bool:
        cond = ctx.cast(cond, d.bool)
    n = len(ctx.output_types)
    outs = ctx.node("If", [cond], outputs=n,
                    then_branch=ctx.branch(ctx.attrs["then_branch"], args),
                    else_branch=ctx.branch(ctx.attrs["else_branch"], args))
    return [outs] if n == 1 else outs


def lower_while(ctx, *args):
    outs = ctx.loop(ctx.attrs["cond"], ctx.attrs["body"], args)
    return [outs] if isinstance(outs, str) else outs


def lower_call(ctx, *args):
    return ctx.inline(ctx.attrs["f"], args)
