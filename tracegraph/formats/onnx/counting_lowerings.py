"""ONNX lowerings of the counting records: `DenseBincount` (a one-hot of each value, out of
range values and negative ones all zero, summed, or maxed for `binary_output`, over the values of
a row) and `InTopKV2` (a target is in the top k when fewer than k predictions of its row are
larger; rows holding a non-finite value and targets out of range are False, as TensorFlow's
kernel has them)."""

from __future__ import annotations

import numpy as np

from ... import dtypes as d
from .lowering_table import onnx_lowering


@onnx_lowering("DenseBincount")
def lower_dense_bincount(ctx, values, size, weights):
    rank = ctx.input_types[0].shape.rank
    if rank not in (1, 2):
        ctx.fail("a bincount of an input of unknown rank does not lower")
    x = ctx.as_int64(values, 0)
    depth = ctx.node("Reshape", [ctx.as_int64(size, 1), ctx.const([1], np.int64)])
    # negative values would count from the end in ONNX's OneHot: moved past the end instead
    x = ctx.node("Where", [ctx.node("Less", [x, ctx.const(0, np.int64)]),
                           ctx.node("Squeeze", [depth]), x])
    out_dtype = ctx.output_types[0].dtype
    # onnxruntime's OneHot takes int64 indices and depth with float values
    hot = ctx.node("OneHot", [x, depth, ctx.const([0, 1], np.float32)], axis=-1)
    if out_dtype is not d.float32:
        hot = ctx.cast(hot, out_dtype)
    weights_known = ctx.input_types[2].shape.as_list()
    if not ctx.attrs["binary_output"] and weights_known != [0]:
        if weights_known is None or None in weights_known:
            ctx.fail("a weighted bincount needs the weights' shape known")
        hot = ctx.node("Mul", [hot, ctx.node("Unsqueeze", [weights, ctx.const([-1], np.int64)])])
    axis = ctx.const([rank - 1], np.int64)
    if not ctx.attrs["binary_output"]:
        return ctx.node("ReduceSum", [hot, axis], keepdims=0)
    if ctx.opset >= 18:
        return ctx.node("ReduceMax", [hot, axis], keepdims=0)
    return ctx.node("ReduceMax", [hot], axes=[rank - 1], keepdims=0)


@onnx_lowering("InTopKV2")
def lower_in_top_k(ctx, predictions, targets, k):
    classes = ctx.input_types[0].shape.as_list()[-1] if ctx.input_types[0].shape.rank else None
    if classes is None:
        ctx.fail("in_top_k needs the number of classes known")
    t = ctx.as_int64(targets, 1)
    valid = ctx.node("And", [ctx.node("GreaterOrEqual", [t, ctx.const(0, np.int64)]),
                             ctx.node("Less", [t, ctx.const(classes, np.int64)])])
    safe = ctx.node("Where", [valid, t, ctx.const(0, np.int64)])
    column = ctx.node("Unsqueeze", [safe, ctx.const([1], np.int64)])
    target_value = ctx.node("GatherElements", [predictions, column], axis=1)
    larger = ctx.cast(ctx.node("Greater", [predictions, target_value]), d.int64)
    above = ctx.node("ReduceSum", [larger, ctx.const([1], np.int64)], keepdims=0)
    bad = ctx.cast(ctx.node("Or", [ctx.node("IsNaN", [predictions]),
                                   ctx.node("IsInf", [predictions])]), d.int64)
    nonfinite = ctx.node("ReduceSum", [bad, ctx.const([1], np.int64)], keepdims=0)
    finite = ctx.node("Equal", [nonfinite, ctx.const(0, np.int64)])
    ranked = ctx.node("Less", [above, ctx.as_int64(k, 2)])
    return ctx.node("And", [ctx.node("And", [finite, valid]), ranked])
