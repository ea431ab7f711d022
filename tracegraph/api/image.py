"""`tf.image`."""

from ..library.image import (  # noqa: F401
    ResizeMethod,
    adjust_brightness,
    adjust_contrast,
    adjust_gamma,
    adjust_hue,
    adjust_saturation,
    central_crop,
    convert_image_dtype,
    crop_to_bounding_box,
    extract_patches,
    flip_left_right,
    flip_up_down,
    grayscale_to_rgb,
    hsv_to_rgb,
    pad_to_bounding_box,
    per_image_standardization,
    resize,
    resize_with_crop_or_pad,
    resize_with_pad,
    rgb_to_grayscale,
    rgb_to_hsv,
    rot90,
    sobel_edges,
    total_variation,
)
from ..library.image import transpose_image as transpose  # noqa: F401
