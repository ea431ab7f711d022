"""ONNX lowerings of gathers, scatters, one-hot, top-k and where."""

from __future__ import annotations

import numpy as np

from ... import dtypes as d
from .lowering_table import onnx_lowering

# ---- indexing ------------------------------------------------------------------------------------

@onnx_lowering("GatherV2")
def lower_gather(ctx, params, indices, axis):
    if ctx.attrs.get("batch_dims"):
        ctx.fail("a gather with batch_dims does not lower (ONNX's Gather has none)")
    return ctx.node("Gather", [params, indices], axis=int(ctx.known(2, "axis")))


@onnx_lowering("GatherNd")
def lower_gather_nd(ctx, params, indices):
    if ctx.attrs.get("batch_dims"):
        ctx.fail("batch_dims does not lower (ONNX's GatherND takes it only for leading "
                 "dims of equal size; not expressed yet)")
    return ctx.node("GatherND", [params, ctx.as_int64(indices, 1)])


@onnx_lowering("ScatterNd")
def lower_scatter_nd(ctx, indices, updates, shape):
    dtype = ctx.input_types[1].dtype
    zeros = ctx.node("ConstantOfShape", [ctx.as_int64(shape, 2)],
                     value=np.zeros([1], dtype.numpy_dtype))
    return ctx.node("ScatterND", [zeros, ctx.as_int64(indices, 0), updates], reduction="add")


@onnx_lowering("OneHot")
def lower_one_hot(ctx, indices, depth, on, off):
    values = ctx.node("Concat", [ctx.node("Reshape", [off, ctx.const([1], np.int64)]),
                                 ctx.node("Reshape", [on, ctx.const([1], np.int64)])], axis=0)
    return ctx.node("OneHot", [indices, depth, values], axis=int(ctx.attrs.get("axis", -1)))


@onnx_lowering("TopKV2")
def lower_top_k(ctx, x, k):
    k64 = ctx.node("Reshape", [ctx.as_int64(k, 1), ctx.const([1], np.int64)])
    values, indices = ctx.node("TopK", [x, k64], outputs=2, axis=-1, largest=1, sorted=1)
    return [values, ctx.cast(indices, d.int32)]


@onnx_lowering("Where")
def lower_where_indices(ctx, x):
    if ctx.input_types[0].dtype is not d.bool:
        x = ctx.node("Not", [ctx.node("Equal", [x, ctx.const(0, ctx.input_types[0].dtype)])])
    return ctx.node("Transpose", [ctx.node("NonZero", [x])], perm=[1, 0])
