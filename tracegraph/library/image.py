"""`tf.image`: resizing with TensorFlow's methods, flips and rotations, crops and pads, colour
adjustments and dtype conversion, as TensorFlow's image_ops_impl composes them."""

from __future__ import annotations

import numpy as np

from .. import dtypes as d
from ..ops.image import (
    resize_area_op,
    resize_bicubic_op,
    resize_bilinear_op,
    resize_nearest_op,
    scale_and_translate_op,
)
from ..ops.image_crops import crop_and_resize_op
from ..ops.registry import bind, convert_to_tensor
from .array import expand_dims, identity, reshape, shape, squeeze, transpose
from .indexing import gather
from .join_split import stack
from .math import abs as abs_
from .math import (
    add,
    cast,
    maximum,
    minimum,
    multiply,
)
from .math import round as round_
from .rearrange import pad, reverse, slice_
from .reduce import reduce_sum


class ResizeMethod:
    """The methods of `tf.image.resize`."""
    BILINEAR = "bilinear"
    NEAREST_NEIGHBOR = "nearest"
    BICUBIC = "bicubic"
    AREA = "area"
    LANCZOS3 = "lanczos3"
    LANCZOS5 = "lanczos5"
    GAUSSIAN = "gaussian"
    MITCHELLCUBIC = "mitchellcubic"


_SCALE_AND_TRANSLATE = ("lanczos3", "lanczos5", "gaussian", "mitchellcubic")


def _batched(images):
    """The images as a batch (a 3-D image gains a batch of one) and whether it was one."""
    images = convert_to_tensor(images)
    rank = images.shape.rank
    if rank is None:
        raise ValueError("'images' contains no shape.")
    if rank == 3:
        return expand_dims(images, 0), False
    if rank != 4:
        raise ValueError("'images' must have either 3 or 4 dimensions.")
    return images, True


def _unbatched(images, is_batch):
    return images if is_batch else squeeze(images, [0])


def resize(images, size, method=ResizeMethod.BILINEAR, preserve_aspect_ratio=False,
           antialias=False, name=None):
    """`tf.image.resize` (v2): float32 results except nearest, which keeps the dtype."""
    images, is_batch = _batched(images)
    try:
        size = convert_to_tensor(size, dtype=d.int32)
    except (TypeError, ValueError):
        raise ValueError("'size' must be a 1-D int32 Tensor") from None
    if not size.shape.is_compatible_with([2]):
        raise ValueError("'size' must be a 1-D Tensor of 2 elements: new_height, new_width")
    if preserve_aspect_ratio:
        current = cast(shape(images)[1:3], d.float32)
        factor = minimum(cast(size[0], d.float32) / current[0],
                         cast(size[1], d.float32) / current[1])
        size = cast(round_(factor * current), d.int32)
    out = _resize(images, size, method, antialias)
    return _unbatched(out, is_batch)


def _resize(images, size, method, antialias):
    def scale_and_translate(kernel_type):
        scale = cast(size, d.float32) / cast(shape(images)[1:3], d.float32)
        return bind(scale_and_translate_op, (images, size, scale, [0.0, 0.0]),
                    {"kernel_type": kernel_type, "antialias": bool(antialias)})
    if method == ResizeMethod.BILINEAR:
        if antialias:
            return scale_and_translate("triangle")
        return bind(resize_bilinear_op, (images, size), {"half_pixel_centers": True})
    if method == ResizeMethod.NEAREST_NEIGHBOR:
        return bind(resize_nearest_op, (images, size), {"half_pixel_centers": True})
    if method == ResizeMethod.BICUBIC:
        if antialias:
            return scale_and_translate("keyscubic")
        return bind(resize_bicubic_op, (images, size), {"half_pixel_centers": True})
    if method == ResizeMethod.AREA:
        return bind(resize_area_op, (images, size), {})
    if method in _SCALE_AND_TRANSLATE:
        return scale_and_translate(method)
    raise ValueError(f"Resize method is not implemented: {method}")


def resize_with_pad(image, target_height, target_width, method=ResizeMethod.BILINEAR,
                    antialias=False):
    """Resizes keeping the aspect ratio, then pads to the target with zeros."""
    images, is_batch = _batched(image)
    h, w = images.shape[1], images.shape[2]
    if h is None or w is None:
        raise ValueError("resize_with_pad needs images of known height and width")
    ratio = max(w / target_width, h / target_height)
    new_h, new_w = int(h / ratio), int(w / ratio)
    resized = resize(images, [new_h, new_w], method=method, antialias=antialias)
    out = pad_to_bounding_box(resized, max((target_height - new_h) // 2, 0),
                              max((target_width - new_w) // 2, 0), target_height, target_width)
    return _unbatched(out, is_batch)


# ---- flips, rotations ---------------------------------------------------------------------------

def _flip(image, axis_3d):
    image = convert_to_tensor(image)
    rank = image.shape.rank
    if rank not in (3, 4):
        raise ValueError(f"'image' (shape {image.shape}) must be at least three-dimensional."
                         if rank is not None and rank < 3 else
                         f"'image' (shape {image.shape})must have either 3 or 4 dimensions.")
    return reverse(image, [axis_3d + (rank - 3)])


def flip_left_right(image):
    return _flip(image, 1)


def flip_up_down(image):
    return _flip(image, 0)


def transpose_image(image, name=None):
    image = convert_to_tensor(image)
    perm = [1, 0, 2] if image.shape.rank == 3 else [0, 2, 1, 3]
    return transpose(image, perm, name=name)


def rot90(image, k=1, name=None):
    """Rotates counter-clockwise by k quarter turns."""
    k = int(k) % 4
    out = convert_to_tensor(image)
    for _ in range(k):
        out = flip_up_down(transpose_image(out))
    return out if k else identity(out, name=name)


# ---- crops and pads ---------------------------------------------------------------------------

def _hw(images):
    h, w = images.shape[1], images.shape[2]
    return (h if h is not None else shape(images)[1]), (w if w is not None else shape(images)[2])


def crop_to_bounding_box(image, offset_height, offset_width, target_height, target_width):
    """The box of `target_height` x `target_width` at (offset_height, offset_width)."""
    images, is_batch = _batched(image)
    h, w = _hw(images)
    for value, what in ((offset_height, "offset_height must be >= 0."),
                        (offset_width, "offset_width must be >= 0."),
                        (target_height, "target_height must be > 0."),
                        (target_width, "target_width must be > 0.")):
        if isinstance(value, int) and (value < 0 or (value == 0 and "target" in what)):
            raise ValueError(what)
    if isinstance(h, int) and isinstance(target_height, int) and \
            isinstance(offset_height, int) and h < target_height + offset_height:
        raise ValueError("height must be >= target + offset.")
    if isinstance(w, int) and isinstance(target_width, int) and \
            isinstance(offset_width, int) and w < target_width + offset_width:
        raise ValueError("width must be >= target + offset.")
    out = slice_(images, [0, offset_height, offset_width, 0],
                 [-1, target_height, target_width, -1])
    return _unbatched(out, is_batch)


def pad_to_bounding_box(image, offset_height, offset_width, target_height, target_width):
    """The image placed at (offset_height, offset_width) in a zero image of the target size."""
    images, is_batch = _batched(image)
    h, w = _hw(images)
    after_h = target_height - offset_height - h
    after_w = target_width - offset_width - w
    for value, what in ((offset_height, "offset_height must be >= 0"),
                        (offset_width, "offset_width must be >= 0"),
                        (after_h, "height must be <= target - offset"),
                        (after_w, "width must be <= target - offset")):
        if isinstance(value, int) and value < 0:
            raise ValueError(what)
    out = pad(images, [[0, 0], [offset_height, after_h], [offset_width, after_w], [0, 0]])
    return _unbatched(out, is_batch)


def resize_with_crop_or_pad(image, target_height, target_width):
    """Crops the centre or pads evenly with zeros to reach the target size."""
    images, is_batch = _batched(image)
    h, w = _hw(images)

    def half_diff(target, size):
        diff = target - size
        return (maximum(-diff // 2, 0), maximum(diff // 2, 0)) if not isinstance(diff, int) \
            else (max(-diff // 2, 0), max(diff // 2, 0))
    crop_h, pad_h = half_diff(target_height, h)
    crop_w, pad_w = half_diff(target_width, w)
    low = (min if isinstance(h, int) and isinstance(w, int) else minimum)
    cropped = crop_to_bounding_box(images, crop_h, crop_w, low(target_height, h),
                                   low(target_width, w))
    out = pad_to_bounding_box(cropped, pad_h, pad_w, target_height, target_width)
    return _unbatched(out, is_batch)


def central_crop(image, central_fraction):
    """The central `central_fraction` of the image along height and width."""
    if central_fraction <= 0.0 or central_fraction > 1.0:
        raise ValueError("central_fraction must be within (0, 1]")
    image = convert_to_tensor(image)
    if central_fraction == 1.0:
        return image
    images, is_batch = _batched(image)
    h, w = images.shape[1], images.shape[2]
    if h is None or w is None:
        hf, wf = cast(shape(images)[1], d.float64), cast(shape(images)[2], d.float64)
        top = cast((hf - hf * central_fraction) / 2, d.int32)
        left = cast((wf - wf * central_fraction) / 2, d.int32)
        size_h, size_w = shape(images)[1] - top * 2, shape(images)[2] - left * 2
    else:
        top = int((h - h * central_fraction) / 2)
        left = int((w - w * central_fraction) / 2)
        size_h, size_w = h - top * 2, w - left * 2
    out = slice_(images, [0, top, left, 0], [-1, size_h, size_w, -1])
    return _unbatched(out, is_batch)


def total_variation(images, name=None):
    """Sum of absolute differences between neighbouring pixels, per image."""
    images = convert_to_tensor(images)
    rank = images.shape.rank
    if rank == 3:
        dh = images[1:, :, :] - images[:-1, :, :]
        dw = images[:, 1:, :] - images[:, :-1, :]
        axes = None
    elif rank == 4:
        dh = images[:, 1:, :, :] - images[:, :-1, :, :]
        dw = images[:, :, 1:, :] - images[:, :, :-1, :]
        axes = [1, 2, 3]
    else:
        raise ValueError("'images' must be either 3 or 4-dimensional.")
    return add(reduce_sum(abs_(dh), axes), reduce_sum(abs_(dw), axes), name=name)



# ---- edges and patches --------------------------------------------------------------------------

_SOBEL = (np.array([[-1, -2, -1], [0, 0, 0], [1, 2, 1]]),   # d/dy
          np.array([[-1, 0, 1], [-2, 0, 2], [-1, 0, 1]]))   # d/dx


def sobel_edges(image):
    """Sobel responses `[batch, h, w, channels, 2]` (dy, dx), with reflected borders."""
    image = convert_to_tensor(image)
    if image.shape.rank != 4:
        raise ValueError(f"image must be 4-D [batch, height, width, channels], got {image.shape}")
    padded = pad(image, [[0, 0], [1, 1], [1, 1], [0, 0]], mode="REFLECT")
    h, w = shape(image)[1], shape(image)[2]
    outputs = []
    for kernel in _SOBEL:
        total = None
        for i in range(3):
            for j in range(3):
                if kernel[i, j]:
                    part = slice_(padded, [0, i, j, 0], _box(h, w))
                    part = multiply(part, cast(kernel[i, j], image.dtype))
                    total = part if total is None else add(total, part)
        outputs.append(total)
    return stack(outputs, axis=-1)


def _box(h, w):
    return stack([-1, h, w, -1])


def extract_patches(images, sizes, strides, rates, padding, name=None):
    """Patches as if applying a convolution, each flattened into the depth axis:
    `[batch, out_rows, out_cols, ksize_rows * ksize_cols * depth]` (static height and width)."""
    images = convert_to_tensor(images)
    if images.shape.rank != 4:
        raise ValueError(f"images must be 4-D, got shape {images.shape}")
    _, height, width, depth = images.shape.as_list()
    if height is None or width is None or depth is None:
        raise ValueError("extract_patches needs images of known height, width and depth")
    (kh, kw), (sh, sw), (rh, rw) = (_middle(sizes, "sizes"), _middle(strides, "strides"),
                                    _middle(rates, "rates"))
    eff_h, eff_w = (kh - 1) * rh + 1, (kw - 1) * rw + 1
    if padding == "VALID":
        out_h, out_w = -(-(height - eff_h + 1) // sh), -(-(width - eff_w + 1) // sw)
        top = left = 0
    elif padding == "SAME":
        out_h, out_w = -(-height // sh), -(-width // sw)
        top = max((out_h - 1) * sh + eff_h - height, 0) // 2
        left = max((out_w - 1) * sw + eff_w - width, 0) // 2
    else:
        raise ValueError(f"padding must be 'VALID' or 'SAME', got {padding!r}")
    out_h, out_w = max(out_h, 0), max(out_w, 0)
    # Gather rows then columns of a zero-padded copy; index `pad` picks the padding zero.
    rows = (np.arange(out_h)[:, None] * sh + np.arange(kh)[None, :] * rh - top)
    cols = (np.arange(out_w)[:, None] * sw + np.arange(kw)[None, :] * rw - left)
    padded = pad(images, [[0, 0], [1, 0], [1, 0], [0, 0]])
    row_index = np.where((rows >= 0) & (rows < height), rows + 1, 0).astype(np.int32)
    col_index = np.where((cols >= 0) & (cols < width), cols + 1, 0).astype(np.int32)
    picked = gather(gather(padded, row_index, axis=1), col_index, axis=3)
    # picked: [batch, out_h, kh, out_w, kw, depth] -> [batch, out_h, out_w, kh, kw, depth]
    moved = transpose(picked, [0, 1, 3, 2, 4, 5])
    return reshape(moved, [-1, out_h, out_w, kh * kw * depth], name=name)


def _middle(values, what):
    values = [int(v) for v in values]
    if len(values) != 4 or values[0] != 1 or values[3] != 1:
        raise ValueError(f"{what} must be [1, rows, cols, 1], got {values}")
    return values[1], values[2]


def crop_and_resize(image, boxes, box_indices, crop_size, method="bilinear",
                    extrapolation_value=0.0, name=None):
    """Crops of `image[box_indices[n]]` at the normalized `boxes[n]` (y1, x1, y2, x2), each
    resized to `crop_size`: `[num_boxes, crop_height, crop_width, depth]` float32."""
    if method not in ("bilinear", "nearest"):
        raise ValueError(f"method must be 'bilinear' or 'nearest', got {method!r}")
    return bind(crop_and_resize_op, (image, boxes, box_indices, crop_size),
                {"method": method, "extrapolation_value": float(extrapolation_value)}, name)
