"""`tf.image`'s pixel-value functions: dtype conversion (TensorFlow's scaling and saturation
rules), brightness, contrast, saturation, hue and gamma, grayscale and HSV conversions, and
per-image standardization."""

from __future__ import annotations

from .. import dtypes as d
from ..ops.image import (
    adjust_contrast_op,
    adjust_hue_op,
    adjust_saturation_op,
    hsv_to_rgb_op,
    rgb_to_hsv_op,
)
from ..ops.registry import bind, convert_to_tensor
from .array import expand_dims, identity, shape
from .linalg import tensordot
from .math import (
    add,
    cast,
    divide,
    floordiv,
    maximum,
    multiply,
    rsqrt,
    saturate_cast,
    subtract,
)
from .math import pow as pow_
from .rearrange import tile
from .reduce import reduce_mean, reduce_prod

# ---- dtype conversion and colour ----------------------------------------------------------------

def convert_image_dtype(image, dtype, saturate=False, name=None):
    """Converts between image dtypes, scaling: floats are in [0, 1], integers in [0, MAX]."""
    image = convert_to_tensor(image)
    dtype = d.as_dtype(dtype)
    if not dtype.is_floating and not dtype.is_integer:
        raise AttributeError("dtype must be either floating point or integer")
    if not image.dtype.is_floating and not image.dtype.is_integer:
        raise AttributeError("image dtype must be either floating point or integer")
    if dtype == image.dtype:
        return identity(image, name=name)
    convert = saturate_cast if saturate else cast
    if image.dtype.is_integer and dtype.is_integer:
        scale_in, scale_out = image.dtype.max, dtype.max
        if scale_in > scale_out:
            scale = (scale_in + 1) // (scale_out + 1)
            return convert(floordiv(image, cast(scale, image.dtype)), dtype, name=name)
        scale = (scale_out + 1) // (scale_in + 1)
        return multiply(convert(image, dtype), cast(scale, dtype), name=name)
    if image.dtype.is_floating and dtype.is_floating:
        return cast(image, dtype, name=name)
    if image.dtype.is_integer:
        return multiply(cast(image, dtype), convert_to_tensor(1.0 / image.dtype.max, dtype=dtype),
                        name=name)
    scaled = multiply(image, convert_to_tensor(dtype.max + 0.5, dtype=image.dtype))
    return convert(scaled, dtype, name=name)


def _as_float(image):
    image = convert_to_tensor(image)
    if image.dtype in (d.float16, d.float32):
        return image, image.dtype
    return convert_image_dtype(image, d.float32), image.dtype


def adjust_brightness(image, delta):
    """Adds `delta` to every component (in the [0, 1] float representation)."""
    flt, orig = _as_float(image)
    adjusted = add(flt, cast(delta, flt.dtype))
    return convert_image_dtype(adjusted, orig, saturate=True)


def adjust_contrast(images, contrast_factor):
    """`(x - mean) * contrast_factor + mean`, per channel of each image."""
    flt, orig = _as_float(images)
    adjusted = bind(adjust_contrast_op, (flt, cast(contrast_factor, d.float32)), {})
    return convert_image_dtype(adjusted, orig, saturate=True)


def adjust_saturation(image, saturation_factor, name=None):
    flt, orig = _as_float(image)
    adjusted = bind(adjust_saturation_op, (flt, cast(saturation_factor, d.float32)), {})
    return convert_image_dtype(adjusted, orig)


def adjust_hue(image, delta, name=None):
    if not -1 <= delta <= 1 if isinstance(delta, (int, float)) else False:
        raise ValueError("delta must be in the interval [-1, 1]")
    flt, orig = _as_float(image)
    adjusted = bind(adjust_hue_op, (flt, cast(delta, d.float32)), {})
    return convert_image_dtype(adjusted, orig)


def adjust_gamma(image, gamma=1, gain=1):
    """`gain * image ** gamma` in the float representation."""
    image = convert_to_tensor(image)
    orig = image.dtype
    flt = image if orig in (d.float16, d.float32) else convert_image_dtype(image, d.float32)
    out = multiply(cast(gain, flt.dtype), pow_(flt, cast(gamma, flt.dtype)))
    return convert_image_dtype(out, orig, saturate=True)


def rgb_to_grayscale(images, name=None):
    """Luma with weights 0.2989, 0.5870, 0.1140; the channel axis kept with size 1."""
    images = convert_to_tensor(images)
    flt = convert_image_dtype(images, d.float32)
    gray = tensordot(flt, [0.2989, 0.5870, 0.1140], [-1, -1])
    return convert_image_dtype(expand_dims(gray, -1), images.dtype, name=name)


def grayscale_to_rgb(images, name=None):
    images = convert_to_tensor(images)
    if images.shape.rank is not None and images.shape[-1] not in (None, 1):
        raise ValueError(f"Last dimension of a grayscale image should be size 1, got "
                         f"{images.shape[-1]}")
    rank = images.shape.rank
    return tile(images, [1] * (rank - 1) + [3], name=name)


def rgb_to_hsv(images, name=None):
    return bind(rgb_to_hsv_op, (images,), {}, name)


def hsv_to_rgb(images, name=None):
    return bind(hsv_to_rgb_op, (images,), {}, name)


def per_image_standardization(image):
    """`(x - mean) / max(stddev, 1/sqrt(N))` over each image's pixels and channels."""
    image = convert_to_tensor(image)
    if image.shape.rank is not None and image.shape.rank < 3:
        raise ValueError(f"'image' (shape {image.shape}) must be at least three-dimensional.")
    if not image.dtype.is_floating:
        image = convert_image_dtype(image, d.float32)
    axes = [-1, -2, -3]
    n = reduce_prod(cast(shape(image)[-3:], image.dtype))
    mean = reduce_mean(image, axes, keepdims=True)
    stddev = reduce_mean(subtract(image, mean) ** 2, axes, keepdims=True) ** 0.5
    floor = rsqrt(n)
    return divide(subtract(image, mean), maximum(stddev, floor))
