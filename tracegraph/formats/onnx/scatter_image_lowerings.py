"""ONNX lowerings of tensor_scatter_nd_* (ScatterND and its reductions) and of the resize ops
ONNX's Resize computes as TensorFlow does (half-pixel bilinear and nearest). Bicubic is left
out: onnxruntime refuses cubic Resize on these 4-D inputs."""

from __future__ import annotations

import numpy as np

from ... import dtypes as d
from .lowering_table import onnx_lowering


def _scatter(reduction: str | None, negate: bool = False, opset: int = 16):
    def lower(ctx, tensor, indices, updates):
        if ctx.opset < opset:
            ctx.fail(f"ScatterND with reduction={reduction!r} needs opset {opset}; export with "
                     f"opset={opset} or later: this does not lower at opset {ctx.opset}")
        if negate:
            updates = ctx.node("Neg", [updates])
        attrs = {"reduction": reduction} if reduction else {}
        return ctx.node("ScatterND", [tensor, ctx.as_int64(indices, 1), updates], **attrs)
    return lower


onnx_lowering("TensorScatterUpdate")(_scatter(None, opset=11))
onnx_lowering("TensorScatterAdd")(_scatter("add"))
onnx_lowering("TensorScatterSub")(_scatter("add", negate=True))
onnx_lowering("TensorScatterMin")(_scatter("min", opset=18))
onnx_lowering("TensorScatterMax")(_scatter("max", opset=18))


def _resize(mode: str, half_pixel_mode: str, **extra):
    def lower(ctx, images, size):
        if ctx.attrs.get("align_corners"):
            ctx.fail("align_corners=True does not lower (only TF2's half-pixel resize does)")
        if not ctx.attrs.get("half_pixel_centers"):
            ctx.fail("half_pixel_centers=False does not lower (only TF2's half-pixel resize "
                     "does)")
        hw = ctx.known(1, "size").astype(np.int64).reshape(-1)
        x = images
        if ctx.input_types[0].dtype is not d.float32 and mode != "nearest":
            x = ctx.cast(images, d.float32)
        x = ctx.node("Transpose", [x], perm=[0, 3, 1, 2])   # onnxruntime resizes NCHW
        batch_channels = ctx.node("Slice", [ctx.node("Shape", [x]), ctx.const([0], np.int64),
                                            ctx.const([2], np.int64)])
        sizes = ctx.node("Concat", [batch_channels, ctx.const(hw)], axis=0)
        out = ctx.node("Resize", [x, "", "", sizes], mode=mode,
                       coordinate_transformation_mode=half_pixel_mode, **extra)
        return ctx.node("Transpose", [out], perm=[0, 2, 3, 1])
    return lower


onnx_lowering("ResizeBilinear")(_resize("linear", "half_pixel"))
onnx_lowering("ResizeNearestNeighbor")(_resize("nearest", "tf_half_pixel_for_nn",
                                               nearest_mode="floor"))


@onnx_lowering("ReverseSequence")
def lower_reverse_sequence(ctx, x, lengths):
    batch, time = int(ctx.attrs.get("batch_dim", 0)), int(ctx.attrs["seq_dim"])
    if {batch, time} != {0, 1}:
        ctx.fail("only batch and sequence axes 0 and 1 lower (ONNX's ReverseSequence)")
    return ctx.node("ReverseSequence", [x, ctx.as_int64(lengths, 1)], batch_axis=batch,
                    time_axis=time)


@onnx_lowering("UniqueWithCounts")
def lower_unique_with_counts(ctx, x):
    y, _, inverse, counts = ctx.node("Unique", [x], outputs=4, sorted=0)
    out_idx = ctx.attrs.get("out_idx", d.int32)
    return [y, ctx.cast_back(inverse, out_idx), ctx.cast_back(counts, out_idx)]
