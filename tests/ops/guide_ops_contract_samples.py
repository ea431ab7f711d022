"""Contract rows (sample inputs and attrs) for issue 24's family-5 records: scatter, segments,
search, image, spectral, hashing (merged into tests/ops/test_contract.py's SAMPLES)."""

from __future__ import annotations

import numpy as np

from tracegraph import dtypes as d

F = np.array([[0.5, 0.25, 1.5], [2.0, 0.75, 1.0]], np.float32)
F4 = np.array([[0.5, 0.25, 1.5], [2.0, 0.75, 1.0], [1.25, 0.3, 0.9], [0.7, 1.1, 0.2]],
              np.float32)
IMG = (np.arange(2 * 4 * 5 * 3, dtype=np.float32).reshape(2, 4, 5, 3) % 7) / 7
C = np.array([[1 + 2j, 3 - 1j, 0.5j], [2, -1j, 1 + 1j]], np.complex64)
S = np.array([b"ab", b"Cde", b""], dtype=object)


def i32(*v):
    return np.array(v, np.int32)


def f32(*v):
    return np.array(v, np.float32)


_ROWS = np.array([[0], [1]], np.int32)
_SCATTER = [((F, _ROWS, F[::-1] * 2), {}), ((F, np.array([[0, 2], [1, 0]], np.int32),
                                                    f32(3.0, -1.0)), {})]
_SEGMENT = [((F4, i32(0, 0, 1, 3)), {})]
_UNSORTED = [((F4, i32(2, -1, 0, 2), np.array(3, np.int32)), {})]
_RESIZE = [((IMG, i32(3, 7)), {"half_pixel_centers": True}),
           ((IMG, i32(6, 2)), {"align_corners": True})]

SAMPLES = {
    "tensor_scatter_update": _SCATTER, "tensor_scatter_add": _SCATTER,
    "tensor_scatter_sub": _SCATTER, "tensor_scatter_min": _SCATTER,
    "tensor_scatter_max": _SCATTER,
    "segment_sum": _SEGMENT, "segment_mean": _SEGMENT, "segment_prod": _SEGMENT,
    "segment_min": _SEGMENT, "segment_max": _SEGMENT,
    "unsorted_segment_sum": _UNSORTED, "unsorted_segment_prod": _UNSORTED,
    "unsorted_segment_min": _UNSORTED, "unsorted_segment_max": _UNSORTED,
    "lower_bound": [((np.sort(F, 1), F[:, :2]), {"out_type": d.int32})],
    "upper_bound": [((np.sort(F, 1), F[:, :2]), {"out_type": d.int64})],
    "broadcast_args": [((i32(2, 1), i32(3)), {})],
    "reverse_sequence": [((F, np.array([2, 3], np.int64)), {"seq_dim": 1, "batch_dim": 0})],
    "unique_with_counts": [((i32(3, 1, 3, 2, 1),), {}), ((f32(3, 1, 3, 2, 1),), {})],
    "resize_bilinear": _RESIZE, "resize_bicubic": _RESIZE,
    "resize_nearest_neighbor": _RESIZE,
    "resize_area": [((IMG, i32(3, 7)), {})],
    "scale_and_translate": [((IMG, i32(2, 3), f32(0.5, 0.6), f32(0.0, 0.0)),
                             {"kernel_type": "lanczos3", "antialias": True})],
    "resize_bilinear_grad": [((IMG[:, :3, :2], IMG), {"half_pixel_centers": True})],
    "resize_bicubic_grad": [((IMG[:, :3, :2], IMG), {"half_pixel_centers": True})],
    "resize_nearest_neighbor_grad": [((IMG[:, :3, :2], i32(4, 5)),
                                      {"half_pixel_centers": True})],
    "scale_and_translate_grad": [((IMG[:, :2, :3], IMG, f32(0.5, 0.6), f32(0.0, 0.0)),
                                  {"kernel_type": "triangle", "antialias": True})],
    "crop_and_resize": [((IMG, np.array([[0.1, 0.2, 0.8, 0.9], [-0.2, 0.5, 0.6, 1.3]],
                                         np.float32), i32(1, 0), i32(3, 4)), {}),
                        ((IMG, np.array([[0.1, 0.2, 0.8, 0.9]], np.float32), i32(0), i32(2, 2)),
                         {"method": "nearest", "extrapolation_value": -1.0})],
    "crop_and_resize_grad_image": [((IMG[:2, :3, :4], np.array([[0.1, 0.2, 0.8, 0.9],
                                                               [0.0, 0.5, 0.6, 1.0]],
                                                              np.float32), i32(1, 0),
                                     i32(2, 4, 5, 3)), {"T": d.float32})],
    "crop_and_resize_grad_boxes": [((IMG[:2, :3, :4], IMG, np.array([[0.1, 0.2, 0.8, 0.9],
                                                                    [0.0, 0.5, 0.6, 1.0]],
                                                                   np.float32), i32(1, 0)),
                                    {})],
    "adjust_contrast": [((IMG, np.array(1.5, np.float32)), {})],
    "adjust_saturation": [((IMG, np.array(0.5, np.float32)), {})],
    "adjust_hue": [((IMG, np.array(0.2, np.float32)), {})],
    "rgb_to_hsv": [((IMG,), {})], "hsv_to_rgb": [((IMG,), {})],
    "fft": [((C,), {})], "ifft": [((C,), {})], "fft2d": [((C,), {})], "ifft2d": [((C,), {})],
    "fft3d": [((C[None],), {})], "ifft3d": [((C[None],), {})],
    "rfft": [((F, i32(4)), {"Tcomplex": d.complex64})],
    "irfft": [((C, i32(4)), {"Treal": d.float32})],
    "rfft2d": [((F, i32(2, 3)), {"Tcomplex": d.complex64})],
    "irfft2d": [((C, i32(2, 4)), {"Treal": d.float32})],
    "rfft3d": [((F[None], i32(1, 2, 3)), {"Tcomplex": d.complex64})],
    "irfft3d": [((C[None], i32(1, 2, 4)), {"Treal": d.float32})],
    "complex": [((F, F[::-1]), {"Tout": d.complex64})],
    "string_to_hash_bucket_fast": [((S,), {"num_buckets": 10})],
    "string_to_hash_bucket_strong": [((S,), {"num_buckets": 10, "key": (1, 2)})],
    "string_to_hash_bucket": [((S,), {"num_buckets": 10})],
}
