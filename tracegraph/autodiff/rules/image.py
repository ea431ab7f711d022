"""Gradient rules of the resize records: each resize is linear, so its gradient is the
transposed resize, one TensorFlow gradient op each (ResizeArea has none, as in TensorFlow)."""

from __future__ import annotations

from ... import dtypes as d
from ...library.array import shape
from ...library.math import cast
from ...ops.image import (
    resize_bicubic_grad_op,
    resize_bilinear_grad_op,
    resize_nearest_grad_op,
    scale_and_translate_grad_op,
)
from ...ops.registry import bind
from ..registry import defgrad


def _corners(op) -> dict:
    return {"align_corners": op.attrs.get("align_corners", False),
            "half_pixel_centers": op.attrs.get("half_pixel_centers", False)}


@defgrad("ResizeBilinear")
def _resize_bilinear_grad(op, g):
    return bind(resize_bilinear_grad_op, (cast(g, d.float32), op.inputs[0]), _corners(op)), None


@defgrad("ResizeBicubic")
def _resize_bicubic_grad(op, g):
    image = op.inputs[0]
    if not image.dtype.is_floating:
        return None, None
    return bind(resize_bicubic_grad_op, (cast(g, d.float32), image), _corners(op)), None


@defgrad("ResizeNearestNeighbor")
def _resize_nearest_grad(op, g):
    size = shape(op.inputs[0])[1:3]
    return bind(resize_nearest_grad_op, (g, size), _corners(op)), None


@defgrad("ScaleAndTranslate")
def _scale_and_translate_grad(op, g):
    images, _, scale, translation = op.inputs
    attrs = {"kernel_type": op.attrs["kernel_type"], "antialias": op.attrs["antialias"]}
    grads = bind(scale_and_translate_grad_op, (cast(g, d.float32), cast(images, d.float32), scale,
                                               translation), attrs)
    return cast(grads, images.dtype), None, None, None
