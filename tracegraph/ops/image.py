"""Image ops: the resize kernels (ResizeBilinear, ResizeNearestNeighbor, ResizeBicubic,
ResizeArea, ScaleAndTranslate) and their gradient ops, AdjustContrastv2, RGBToHSV, HSVToRGB,
AdjustSaturation, AdjustHue. Images are NHWC; every resize is `Wy @ image @ Wx^T` with the
per-axis weights of `image_weights.py`."""

from __future__ import annotations

import numpy as np

from .. import dtypes as d
from ..shapes import TensorType, format_dims
from . import image_weights as W
from . import infer as I
from .infer import runtime as _runtime
from .registry import FLOAT, PURE, REAL, TypeAttr, defop

_IMAGE_TYPES = REAL


def _check_images(shape: tuple, what: str = "input") -> None:
    if len(shape) != 4:
        raise ValueError(f"{what} must be 4-dimensional{format_dims(shape)}")


def _check_size(size) -> tuple | None:
    if size is None:
        return None
    if len(size) != 2:
        raise ValueError(f"size must be 1-D with 2 elements, got {size}")
    if min(size) <= 0:
        raise ValueError(f"output dimensions must be positive, got {size}")
    return tuple(size)


def _resized_type(images, size, dtype):
    hw = I.known_ints(size)
    hw = _check_size(hw) if hw is not None else (None, None)
    if images.shape is None:
        return TensorType(dtype, None)
    _check_images(images.shape)
    return TensorType(dtype, (images.shape[0],) + hw + (images.shape[3],))


def _apply(images: np.ndarray, wy: np.ndarray, wx: np.ndarray) -> np.ndarray:
    x = images.astype(np.float32, copy=False)
    return np.einsum("ih,bhwc->biwc", wy, np.einsum("jw,bhwc->bhjc", wx, x, optimize=True),
                     optimize=True).astype(np.float32)


def _apply_transposed(grads: np.ndarray, wy: np.ndarray, wx: np.ndarray) -> np.ndarray:
    g = grads.astype(np.float32, copy=False)
    return np.einsum("ih,biwc->bhwc", wy, np.einsum("jw,bhjc->bhwc", wx, g, optimize=True),
                     optimize=True)


def _resize_record(name, tf_type, weights, out_dtype, half_pixel=True):
    def infer(images, size, align_corners=False, half_pixel_centers=False):
        return _resized_type(images, size, out_dtype or images.dtype)

    def kernel(images, size, align_corners=False, half_pixel_centers=False):
        images = np.asarray(images)
        _runtime(_check_images, images.shape)
        h, w = _runtime(_check_size, I.ints(size))
        if align_corners and half_pixel_centers:
            _runtime(_raise, "If half_pixel_centers is True, align_corners must be False.")
        wy = weights(images.shape[1], h, align_corners, half_pixel_centers)
        wx = weights(images.shape[2], w, align_corners, half_pixel_centers)
        return _apply(images, wy, wx)

    attrs = {"T": TypeAttr(_IMAGE_TYPES), "align_corners": False}
    if half_pixel:
        attrs["half_pixel_centers"] = False
    return defop(name, tf_type, inputs=("images: T", "size: int32"), attrs=attrs,
                 infer=infer, kernel=kernel, flags=PURE)


def _raise(message: str):
    raise ValueError(message)


resize_bilinear_op = _resize_record("resize_bilinear", "ResizeBilinear", W.weights_bilinear,
                                    d.float32)
resize_bicubic_op = _resize_record("resize_bicubic", "ResizeBicubic", W.weights_bicubic,
                                   d.float32)


def _area_weights(in_size, out_size, align_corners, half_pixel_centers):
    return W.weights_area(in_size, out_size, align_corners)


resize_area_op = _resize_record("resize_area", "ResizeArea", _area_weights, d.float32,
                                half_pixel=False)


def infer_resize_nearest(images, size, align_corners=False, half_pixel_centers=False):
    return _resized_type(images, size, images.dtype)


def kernel_resize_nearest(images, size, align_corners=False, half_pixel_centers=False):
    images = np.asarray(images)
    _runtime(_check_images, images.shape)
    h, w = _runtime(_check_size, I.ints(size))
    iy = W.nearest_indices(images.shape[1], h, align_corners, half_pixel_centers)
    ix = W.nearest_indices(images.shape[2], w, align_corners, half_pixel_centers)
    return images[:, iy][:, :, ix]


resize_nearest_op = defop("resize_nearest_neighbor", "ResizeNearestNeighbor",
                          inputs=("images: T", "size: int32"),
                          attrs={"T": TypeAttr(_IMAGE_TYPES), "align_corners": False,
                                 "half_pixel_centers": False},
                          infer=infer_resize_nearest, kernel=kernel_resize_nearest, flags=PURE)


def infer_scale_and_translate(images, size, scale, translation, kernel_type="lanczos3",
                              antialias=True):
    return _resized_type(images, size, d.float32)


def kernel_scale_and_translate(images, size, scale, translation, kernel_type="lanczos3",
                               antialias=True):
    images = np.asarray(images)
    _runtime(_check_images, images.shape)
    h, w = _runtime(_check_size, I.ints(size))
    (sy, sx), (ty, tx) = np.asarray(scale, np.float32), np.asarray(translation, np.float32)
    wy = _runtime(W.weights_scale_and_translate, images.shape[1], h, sy, ty, kernel_type,
                  antialias)
    wx = W.weights_scale_and_translate(images.shape[2], w, sx, tx, kernel_type, antialias)
    return _apply(images, wy, wx)


scale_and_translate_op = defop(
    "scale_and_translate", "ScaleAndTranslate",
    inputs=("images: T", "size: int32", "scale: float32", "translation: float32"),
    attrs={"T": TypeAttr(_IMAGE_TYPES), "kernel_type": "lanczos3", "antialias": True},
    infer=infer_scale_and_translate, kernel=kernel_scale_and_translate, flags=PURE)

# ---- gradient ops ----------------------------------------------------------------------------


def _infer_grad_like_original(grads, original_image, *_, **__):
    return TensorType(original_image.dtype, original_image.shape)


def _grad_record(name, tf_type, weights):
    def kernel(grads, original_image, align_corners=False, half_pixel_centers=False):
        g, original = np.asarray(grads), np.asarray(original_image)
        wy = weights(original.shape[1], g.shape[1], align_corners, half_pixel_centers)
        wx = weights(original.shape[2], g.shape[2], align_corners, half_pixel_centers)
        return _apply_transposed(g, wy, wx).astype(original.dtype)
    return defop(name, tf_type, inputs=("grads: float32", "original_image: T"),
                 attrs={"T": TypeAttr(FLOAT), "align_corners": False,
                        "half_pixel_centers": False},
                 infer=_infer_grad_like_original, kernel=kernel, flags=PURE)


resize_bilinear_grad_op = _grad_record("resize_bilinear_grad", "ResizeBilinearGrad",
                                       W.weights_bilinear)
resize_bicubic_grad_op = _grad_record("resize_bicubic_grad", "ResizeBicubicGrad",
                                      W.weights_bicubic)


def infer_resize_nearest_grad(grads, size, align_corners=False, half_pixel_centers=False):
    hw = I.known_ints(size) or [None, None]
    if grads.shape is None:
        return TensorType(grads.dtype, None)
    return TensorType(grads.dtype, (grads.shape[0], *hw, grads.shape[3]))


def kernel_resize_nearest_grad(grads, size, align_corners=False, half_pixel_centers=False):
    g = np.asarray(grads)
    h, w = I.ints(size)
    iy = W.nearest_indices(h, g.shape[1], align_corners, half_pixel_centers)
    ix = W.nearest_indices(w, g.shape[2], align_corners, half_pixel_centers)
    out = np.zeros((g.shape[0], h, w, g.shape[3]), g.dtype)
    np.add.at(out, (slice(None), iy[:, None], ix[None, :]), g)
    return out


resize_nearest_grad_op = defop("resize_nearest_neighbor_grad", "ResizeNearestNeighborGrad",
                               inputs=("grads: T", "size: int32"),
                               attrs={"T": TypeAttr(REAL), "align_corners": False,
                                      "half_pixel_centers": False},
                               infer=infer_resize_nearest_grad,
                               kernel=kernel_resize_nearest_grad, flags=PURE)


def kernel_scale_and_translate_grad(grads, original_image, scale, translation,
                                    kernel_type="lanczos3", antialias=True):
    g, original = np.asarray(grads), np.asarray(original_image)
    (sy, sx), (ty, tx) = np.asarray(scale, np.float32), np.asarray(translation, np.float32)
    wy = W.weights_scale_and_translate(original.shape[1], g.shape[1], sy, ty, kernel_type,
                                       antialias)
    wx = W.weights_scale_and_translate(original.shape[2], g.shape[2], sx, tx, kernel_type,
                                       antialias)
    return _apply_transposed(g, wy, wx).astype(np.float32)


scale_and_translate_grad_op = defop(
    "scale_and_translate_grad", "ScaleAndTranslateGrad",
    inputs=("grads: T", "original_image: T", "scale: float32", "translation: float32"),
    attrs={"T": TypeAttr({d.float32}), "kernel_type": "lanczos3", "antialias": True},
    infer=_infer_grad_like_original, kernel=kernel_scale_and_translate_grad, flags=PURE)

# ---- colour ------------------------------------------------------------------------------------


def infer_same_float(x, *rest, **_):
    return TensorType(x.dtype, x.shape)


def _check_rgb(shape: tuple) -> None:
    if len(shape) < 1 or shape[-1] not in (None, 3):
        raise ValueError(f"input must have 3 channels but instead has {shape[-1] if shape else 0}"
                         " channels.")


def rgb_to_hsv_array(rgb: np.ndarray) -> np.ndarray:
    r, g, b = rgb[..., 0], rgb[..., 1], rgb[..., 2]
    v = np.maximum(np.maximum(r, g), b)
    lo = np.minimum(np.minimum(r, g), b)
    rng = v - lo
    s = np.where(v > 0, rng / np.where(v > 0, v, 1), 0)
    norm = 1 / (6 * np.where(rng > 0, rng, 1))
    h = np.where(r == v, norm * (g - b),
                 np.where(g == v, norm * (b - r) + 2 / 6, norm * (r - g) + 4 / 6))
    h = np.where(rng > 0, h, 0)
    h = np.where(h < 0, h + 1, h)
    return np.stack([h, s, v], -1).astype(rgb.dtype)


def hsv_to_rgb_array(hsv: np.ndarray) -> np.ndarray:
    """AdjustSaturation's and AdjustHue's conversion back (by hue sector)."""
    h, s, v = hsv[..., 0], hsv[..., 1], hsv[..., 2]
    c = s * v
    m = v - c
    dh = h * 6
    fmodu = np.fmod(dh, 2)
    x = c * (1 - np.abs(fmodu - 1))
    sector = np.floor(dh).astype(np.int64)
    zeros = np.zeros_like(c)
    choices_r = [c, x, zeros, zeros, x, c]
    choices_g = [x, c, c, x, zeros, zeros]
    choices_b = [zeros, zeros, x, c, c, x]
    valid = (sector >= 0) & (sector < 6)
    k = np.clip(sector, 0, 5)
    pick = [np.choose(k, ch) for ch in (choices_r, choices_g, choices_b)]
    out = [np.where(valid, p, 0) + m for p in pick]
    return np.stack(out, -1).astype(hsv.dtype)


def _colour_record(name, tf_type, fn):
    def kernel(images):
        images = np.asarray(images)
        _runtime(_check_rgb, images.shape)
        return fn(images)

    def infer(images):
        if images.shape is not None:
            _check_rgb(images.shape)
        return TensorType(images.dtype, images.shape)
    return defop(name, tf_type, inputs=("images: T",), attrs={"T": TypeAttr(FLOAT, d.float32)},
                 infer=infer, kernel=kernel, flags=PURE)


rgb_to_hsv_op = _colour_record("rgb_to_hsv", "RGBToHSV", rgb_to_hsv_array)


def hsv_to_rgb_smooth(hsv: np.ndarray) -> np.ndarray:
    """HSVToRGB's formula (clamped distances to the hue's sector centres)."""
    h, s, v = hsv[..., 0], hsv[..., 1], hsv[..., 2]
    dh = h * 6
    dr = np.clip(np.abs(dh - 3) - 1, 0, 1)
    dg = np.clip(2 - np.abs(dh - 2), 0, 1)
    db = np.clip(2 - np.abs(dh - 4), 0, 1)
    one_s = 1 - s
    return np.stack([(one_s + s * c) * v for c in (dr, dg, db)], -1).astype(hsv.dtype)


hsv_to_rgb_op = _colour_record("hsv_to_rgb", "HSVToRGB", hsv_to_rgb_smooth)


def kernel_adjust_saturation(images, scale):
    images = np.asarray(images)
    _runtime(_check_rgb, images.shape)
    hsv = rgb_to_hsv_array(images.astype(np.float32))
    hsv[..., 1] = np.clip(hsv[..., 1] * np.float32(scale), 0, 1)
    return hsv_to_rgb_array(hsv).astype(images.dtype)


adjust_saturation_op = defop("adjust_saturation", "AdjustSaturation",
                             inputs=("images: T", "scale: float32"),
                             attrs={"T": TypeAttr({d.float16, d.float32}, d.float32)},
                             infer=infer_same_float, kernel=kernel_adjust_saturation,
                             flags=PURE)


def kernel_adjust_hue(images, delta):
    images = np.asarray(images)
    _runtime(_check_rgb, images.shape)
    hsv = rgb_to_hsv_array(images.astype(np.float32))
    h = hsv[..., 0] + np.float32(delta)
    hsv[..., 0] = np.mod(h, 1)
    return hsv_to_rgb_array(hsv).astype(images.dtype)


adjust_hue_op = defop("adjust_hue", "AdjustHue", inputs=("images: T", "delta: float32"),
                      attrs={"T": TypeAttr({d.float16, d.float32}, d.float32)},
                      infer=infer_same_float, kernel=kernel_adjust_hue, flags=PURE)


def _check_contrast(shape: tuple) -> None:
    if len(shape) < 3:
        raise ValueError(f"input must be at least 3-D, got shape{format_dims(shape)}")


def kernel_adjust_contrast(images, contrast_factor):
    x = np.asarray(images)
    _runtime(_check_contrast, x.shape)
    mean = x.astype(np.float32).mean(axis=(-3, -2), keepdims=True)
    out = (x - mean) * np.float32(contrast_factor) + mean
    return out.astype(x.dtype)


adjust_contrast_op = defop("adjust_contrast", "AdjustContrastv2",
                           inputs=("images: T", "contrast_factor: float32"),
                           attrs={"T": TypeAttr({d.float16, d.float32}, d.float32)},
                           infer=infer_same_float, kernel=kernel_adjust_contrast, flags=PURE)

