"""Gradient rules of the resize records (each resize is linear, so its gradient is the
transposed resize, one TensorFlow gradient op each; ResizeArea has none, as in TensorFlow) and
of RGBToHSV."""

from __future__ import annotations

from ... import dtypes as d
from ...library.array import ones_like, shape, zeros_like
from ...library.indexing import where
from ...library.join_split import stack
from ...library.math import (
    cast,
    equal,
    greater,
    logical_and,
    logical_not,
    logical_or,
    minimum,
    subtract,
)
from ...ops.image import (
    resize_bicubic_grad_op,
    resize_bilinear_grad_op,
    resize_nearest_grad_op,
    scale_and_translate_grad_op,
)
from ...ops.image_crops import crop_and_resize_grad_boxes_op, crop_and_resize_grad_image_op
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


@defgrad("RGBToHSV")
def _rgb_to_hsv_grad(op, g):
    """Per pixel, with M the largest channel (red first on ties, then green) and m the smallest,
    C = M - m: dV = dM; dS = (m dM - M dm) / M^2; dH = (dN C - N dC) / (6 C^2) where N is the
    difference of the two other channels that places the hue in M's sector. Where C = 0 the hue
    is constant (0) and where M = 0 the saturation is (0)."""
    rgb, hsv = op.inputs[0], op.outputs[0]
    r, gr, b = rgb[..., 0], rgb[..., 1], rgb[..., 2]
    v = hsv[..., 2]
    zeros = zeros_like(r)
    red_max = equal(r, v)
    green_max = logical_and(logical_not(red_max), equal(gr, v))
    blue_max = logical_not(logical_or(red_max, green_max))
    low = minimum(minimum(r, gr), b)
    red_min = equal(r, low)
    green_min = logical_and(logical_not(red_min), equal(gr, low))
    blue_min = logical_not(logical_or(red_min, green_min))
    c = subtract(v, low)
    # N: g - b (red sector), b - r (green), r - g (blue); dN per channel, as +1/-1/0
    n = where(red_max, subtract(gr, b), where(green_max, subtract(b, r), subtract(r, gr)))
    ones = ones_like(r)

    def pick(mask, value):
        return where(mask, value, zeros)
    dn = [pick(green_max, -ones) + pick(blue_max, ones),        # d/dr
          pick(red_max, ones) + pick(blue_max, -ones),          # d/dg
          pick(red_max, -ones) + pick(green_max, ones)]         # d/db
    dmax = [pick(red_max, ones), pick(green_max, ones), pick(blue_max, ones)]
    dmin = [pick(red_min, ones), pick(green_min, ones), pick(blue_min, ones)]
    has_hue = greater(c, zeros)
    has_sat = greater(v, zeros)
    safe_c = where(has_hue, c, ones)
    safe_v = where(has_sat, v, ones)
    gh, gs, gv = g[..., 0], g[..., 1], g[..., 2]
    grads = []
    for k in range(3):
        dc = dmax[k] - dmin[k]
        dh = (dn[k] * safe_c - n * dc) / (6.0 * safe_c * safe_c)
        ds = (low * dmax[k] - v * dmin[k]) / (safe_v * safe_v)
        grads.append(pick(has_hue, dh) * gh + pick(has_sat, ds) * gs + dmax[k] * gv)
    return stack(grads, axis=-1)


@defgrad("CropAndResize")
def _crop_and_resize_grad(op, g):            # back into the image, and to the box corners
    image, boxes, box_ind, _ = op.inputs
    g = cast(g, d.float32)
    image_grad = None
    if image.dtype.is_floating:
        image_grad = bind(crop_and_resize_grad_image_op, (g, boxes, box_ind, shape(image)),
                          {"T": image.dtype, "method": op.attrs.get("method", "bilinear")})
    boxes_grad = bind(crop_and_resize_grad_boxes_op, (g, image, boxes, box_ind), {})
    return image_grad, boxes_grad, None, None
