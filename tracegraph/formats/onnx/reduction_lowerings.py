"""ONNX lowerings of reductions, scans and losses."""

from __future__ import annotations

import numpy as np

from ... import dtypes as d
from .lowering_table import onnx_lowering

# ---- reductions ----------------------------------------------------------------------------------

# ONNX's reduction of each op type; from opset 18 the axes are an input, as ReduceSum's always are
_REDUCTIONS = {"Sum": "ReduceSum", "Mean": "ReduceMean", "Prod": "ReduceProd",
               "Max": "ReduceMax", "Min": "ReduceMin"}
# any/all as max/min over the booleans taken as int32
_BOOL_REDUCTIONS = {"Any": "ReduceMax", "All": "ReduceMin"}


def _reduce(ctx, op_type, x):
    axes_value = ctx.known(1, "axis").reshape(-1).astype(np.int64)
    if axes_value.size == 0:
        return ctx.node("Identity", [x])
    keep = int(bool(ctx.attrs.get("keep_dims")))
    if op_type == "ReduceSum" or ctx.opset >= 18:
        return ctx.node(op_type, [x, ctx.const(axes_value)], keepdims=keep)
    return ctx.node(op_type, [x], axes=axes_value.tolist(), keepdims=keep)


@onnx_lowering(*_REDUCTIONS)
def lower_reduction(ctx, x, axes):
    return _reduce(ctx, _REDUCTIONS[ctx.op.type], x)


@onnx_lowering(*_BOOL_REDUCTIONS)
def lower_bool_reduction(ctx, x, axes):
    as_int = ctx.cast(x, d.int32)
    return ctx.cast(_reduce(ctx, _BOOL_REDUCTIONS[ctx.op.type], as_int), d.bool)


@onnx_lowering("ArgMax", "ArgMin")
def lower_arg_reduction(ctx, x, dimension):
    axis = int(ctx.known(1, "dimension"))
    out = ctx.node(ctx.op.type, [x], axis=axis, keepdims=0)  # ONNX's ArgMax, ArgMin
    return ctx.cast_back(out, ctx.attrs.get("output_type", d.int64))


@onnx_lowering("Cumsum")
def lower_cumsum(ctx, x, axis):
    return ctx.node("CumSum", [x, axis], exclusive=int(bool(ctx.attrs.get("exclusive"))),
                    reverse=int(bool(ctx.attrs.get("reverse"))))


# ---- losses --------------------------------------------------------------------------------------

@onnx_lowering("L2Loss")
def lower_l2_loss(ctx, t):
    dtype = ctx.input_types[0].dtype
    total = ctx.node("ReduceSum", [ctx.node("Mul", [t, t])], keepdims=0)
    return ctx.node("Div", [total, ctx.const(2, dtype)])


@onnx_lowering("SoftmaxCrossEntropyWithLogits")
def lower_softmax_cross_entropy(ctx, features, labels):
    log_probs = ctx.node("LogSoftmax", [features], axis=-1)
    product = ctx.node("Mul", [labels, log_probs])
    loss = ctx.node("Neg", [ctx.node("ReduceSum", [product, ctx.const([-1], np.int64)],
                                     keepdims=0)])
    return [loss, ctx.node("Sub", [ctx.node("Softmax", [features], axis=-1), labels])]


@onnx_lowering("SparseSoftmaxCrossEntropyWithLogits")
def lower_sparse_softmax_cross_entropy(ctx, features, labels):
    dtype = ctx.input_types[0].dtype
    depth = ctx.node("Gather", [ctx.node("Shape", [features]), ctx.const([-1], np.int64)])
    values = ctx.const([0, 1], dtype)
    dense = ctx.node("OneHot", [ctx.as_int64(labels, 1), depth, values], axis=-1)
    return lower_softmax_cross_entropy(ctx, features, dense)
