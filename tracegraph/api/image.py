"""`tf.image`."""

from ..library.image import (  # noqa: F401
    ResizeMethod,
    central_crop,
    crop_and_resize,
    crop_to_bounding_box,
    extract_patches,
    flip_left_right,
    flip_up_down,
    pad_to_bounding_box,
    resize,
    resize_with_crop_or_pad,
    resize_with_pad,
    rot90,
    sobel_edges,
    total_variation,
)
from ..library.image import transpose_image as transpose  # noqa: F401
from ..library.image_pixels import (  # noqa: F401
    adjust_brightness,
    adjust_contrast,
    adjust_gamma,
    adjust_hue,
    adjust_saturation,
    convert_image_dtype,
    grayscale_to_rgb,
    hsv_to_rgb,
    per_image_standardization,
    rgb_to_grayscale,
    rgb_to_hsv,
)
