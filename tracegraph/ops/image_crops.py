"""CropAndResize (`tf.image.crop_and_resize`) and its gradient ops CropAndResizeGradImage and
CropAndResizeGradBoxes. Box n samples image box_ind[n] at `crop_size` points spread evenly
between its normalized corners (y1, x1, y2, x2), bilinearly or at the nearest pixel; samples
outside the image take `extrapolation_value`. Arithmetic in float32, as TensorFlow's kernel."""

from __future__ import annotations

import numpy as np

from .. import dtypes as d
from ..errors import InvalidArgumentError
from ..shapes import TensorType
from . import infer as I
from .registry import PURE, REAL, TypeAttr, defop

F32 = np.float32


def _positions(lo, hi, size: int, crop: int):
    """Where each of the `crop` samples falls in [0, size - 1], and whether it is inside."""
    lo, hi = F32(lo), F32(hi)
    if crop > 1:
        scale = (hi - lo) * F32(size - 1) / F32(crop - 1)
        pos = lo * F32(size - 1) + np.arange(crop, dtype=F32) * scale
    else:
        pos = np.array([F32(0.5) * (lo + hi) * F32(size - 1)], F32)
    inside = (pos >= 0) & (pos <= size - 1)
    return pos, inside


def _axis(lo, hi, size, crop, method):
    """(low index, high index, fraction toward high) per sample; outside samples index 0."""
    pos, inside = _positions(lo, hi, size, crop)
    safe = np.where(inside, pos, 0).astype(F32)
    if method == "nearest":
        near = np.floor(safe + F32(0.5)).astype(np.int64)
        return near, near, np.zeros(crop, F32), inside
    low = np.floor(safe).astype(np.int64)
    high = np.ceil(safe).astype(np.int64)
    return low, high, (safe - low).astype(F32), inside


def _check(image, boxes, box_ind, crop):
    if image.ndim != 4:
        raise InvalidArgumentError(f"input image must be 4-D, got shape {image.shape}")
    if boxes.ndim != 2 or boxes.shape[1] != 4:
        raise InvalidArgumentError(f"boxes must be 2-D [num_boxes, 4], got {boxes.shape}")
    if box_ind.shape != (boxes.shape[0],):
        raise InvalidArgumentError("box_index has incompatible shape")
    bad = (box_ind < 0) | (box_ind >= image.shape[0])
    if bad.any():
        raise InvalidArgumentError(f"box_index has values outside [0, {image.shape[0]})")
    if len(crop) != 2 or min(crop) <= 0:
        raise InvalidArgumentError("crop dimensions must be positive")


def _sample(img, ys, xs):
    """img (h, w, d) at rows ys and columns xs: (len(ys), len(xs), d)."""
    return img[ys][:, xs].astype(F32)


def infer_crop_and_resize(image, boxes, box_ind, crop_size, method="bilinear",
                          extrapolation_value=0.0):
    hw = I.known_ints(crop_size) or [None, None]
    n = None if boxes.shape is None else boxes.shape[0]
    depth = None if image.shape is None else image.shape[3]
    return TensorType(d.float32, (n, hw[0], hw[1], depth))


def kernel_crop_and_resize(image, boxes, box_ind, crop_size, method="bilinear",
                           extrapolation_value=0.0):
    image, boxes, box_ind = np.asarray(image), np.asarray(boxes), np.asarray(box_ind)
    crop = I.ints(crop_size)
    _check(image, boxes, box_ind, crop)
    _, h, w, depth = image.shape
    out = np.empty((len(boxes), crop[0], crop[1], depth), F32)
    for n, (y1, x1, y2, x2) in enumerate(boxes):
        top, bottom, yl, y_in = _axis(y1, y2, h, crop[0], method)
        left, right, xl, x_in = _axis(x1, x2, w, crop[1], method)
        img = image[box_ind[n]]
        xl_, yl_ = xl[None, :, None], yl[:, None, None]
        upper = _sample(img, top, left) + (_sample(img, top, right) -
                                          _sample(img, top, left)) * xl_
        lower = _sample(img, bottom, left) + (_sample(img, bottom, right) -
                                             _sample(img, bottom, left)) * xl_
        value = upper + (lower - upper) * yl_
        inside = (y_in[:, None] & x_in[None, :])[..., None]
        out[n] = np.where(inside, value, F32(extrapolation_value))
    return out


crop_and_resize_op = defop(
    "crop_and_resize", "CropAndResize",
    inputs=("image: T", "boxes: float32", "box_ind: int32", "crop_size: int32"),
    attrs={"T": TypeAttr(REAL), "method": "bilinear", "extrapolation_value": 0.0},
    infer=infer_crop_and_resize, kernel=kernel_crop_and_resize, flags=PURE)


def infer_grad_image(grads, boxes, box_ind, image_size, T=d.float32, method="bilinear"):  # noqa: N803
    dims = I.known_ints(image_size)
    return TensorType(T, None if dims is None else tuple(dims))


def kernel_grad_image(grads, boxes, box_ind, image_size, T=d.float32, method="bilinear"):  # noqa: N803
    g, boxes, box_ind = np.asarray(grads, F32), np.asarray(boxes), np.asarray(box_ind)
    b, h, w, depth = I.ints(image_size)
    out = np.zeros((b, h, w, depth), F32)
    for n, (y1, x1, y2, x2) in enumerate(boxes):
        top, bottom, yl, y_in = _axis(y1, y2, h, g.shape[1], method)
        left, right, xl, x_in = _axis(x1, x2, w, g.shape[2], method)
        gn = g[n] * (y_in[:, None] & x_in[None, :])[..., None]
        target = out[box_ind[n]]
        for ys, wy in ((top, 1 - yl), (bottom, yl)):
            for xs, wx in ((left, 1 - xl), (right, xl)):
                np.add.at(target, (ys[:, None], xs[None, :]), gn * (wy[:, None] * wx[None, :])[
                    ..., None])
    return out.astype(T.as_numpy_dtype)


crop_and_resize_grad_image_op = defop(
    "crop_and_resize_grad_image", "CropAndResizeGradImage",
    inputs=("grads: float32", "boxes: float32", "box_ind: int32", "image_size: int32"),
    attrs={"T": d.float32, "method": "bilinear"},
    infer=infer_grad_image, kernel=kernel_grad_image, flags=PURE)


def infer_grad_boxes(grads, image, boxes, box_ind, method="bilinear"):
    return TensorType(d.float32, boxes.shape)


def kernel_grad_boxes(grads, image, boxes, box_ind, method="bilinear"):
    g, image = np.asarray(grads, F32), np.asarray(image)
    boxes, box_ind = np.asarray(boxes), np.asarray(box_ind)
    _, h, w, _ = image.shape
    ch, cw = g.shape[1], g.shape[2]
    out = np.zeros(boxes.shape, F32)
    for n, (y1, x1, y2, x2) in enumerate(boxes):
        top, bottom, yl, y_in = _axis(y1, y2, h, ch, "bilinear")
        left, right, xl, x_in = _axis(x1, x2, w, cw, "bilinear")
        img = image[box_ind[n]]
        tl, tr = _sample(img, top, left), _sample(img, top, right)
        bl, br = _sample(img, bottom, left), _sample(img, bottom, right)
        xl_, yl_ = xl[None, :, None], yl[:, None, None]
        along_y = (1 - xl_) * (bl - tl) + xl_ * (br - tr)       # d value / d row position
        along_x = (1 - yl_) * (tr - tl) + yl_ * (br - bl)       # d value / d column position
        gn = g[n] * (y_in[:, None] & x_in[None, :])[..., None]
        dy = (gn * along_y).sum(axis=(1, 2))                   # per output row
        dx = (gn * along_x).sum(axis=(0, 2))                   # per output column
        ry = np.arange(ch, dtype=F32) / F32(ch - 1) if ch > 1 else np.full(1, F32(0.5))
        rx = np.arange(cw, dtype=F32) / F32(cw - 1) if cw > 1 else np.full(1, F32(0.5))
        out[n] = [(dy * (1 - ry)).sum() * (h - 1), (dx * (1 - rx)).sum() * (w - 1),
                  (dy * ry).sum() * (h - 1), (dx * rx).sum() * (w - 1)]
    return out


crop_and_resize_grad_boxes_op = defop(
    "crop_and_resize_grad_boxes", "CropAndResizeGradBoxes",
    inputs=("grads: float32", "image: T", "boxes: float32", "box_ind: int32"),
    attrs={"T": TypeAttr(REAL), "method": "bilinear"},
    infer=infer_grad_boxes, kernel=kernel_grad_boxes, flags=PURE)
