"""The interpolation weights of TensorFlow's image resize kernels, one matrix per axis.

Every resize TensorFlow has is separable: output row i is a weighted sum of input rows, and the
same holds for columns. `weights_<method>(in_size, out_size, ...)` returns that (out, in) float32
matrix, computed with TensorFlow's float32 arithmetic (its half-pixel and align-corners
scalers, its 1024-entry cubic coefficient table, its scale-and-translate spans), so that
`Wy @ image @ Wx^T` is the kernel's result and `Wy^T @ grads @ Wx` its gradient.
"""

from __future__ import annotations

import functools
import math

import numpy as np

F32 = np.float32


def _cached(fn):
    """Weights depend only on sizes and a few scalars: computed once per distinct call (a
    training loop resizes every batch alike). The arrays are shared, so they are read-only."""
    cached = functools.lru_cache(maxsize=256)(fn)

    @functools.wraps(fn)
    def read_only(*args):
        out = cached(*(a.item() if isinstance(a, np.generic) else a for a in args))
        out.flags.writeable = False
        return out
    return read_only


def resize_scale(in_size: int, out_size: int, align_corners: bool) -> np.float32:
    """TensorFlow's CalculateResizeScale."""
    if align_corners and out_size > 1:
        return F32(in_size - 1) / F32(out_size - 1)
    return F32(in_size) / F32(out_size)


def _source_positions(in_size, out_size, align_corners, half_pixel, shift=True):
    scale = resize_scale(in_size, out_size, align_corners)
    x = np.arange(out_size, dtype=F32)
    if half_pixel:
        return (x + F32(0.5)) * scale - (F32(0.5) if shift else F32(0))
    return x * scale


@_cached
def weights_bilinear(in_size, out_size, align_corners=False, half_pixel_centers=False):
    pos = _source_positions(in_size, out_size, align_corners, half_pixel_centers)
    floor = np.floor(pos)
    lower = np.maximum(floor.astype(np.int64), 0)
    upper = np.minimum(np.ceil(pos).astype(np.int64), in_size - 1)
    lerp = (pos - floor).astype(F32)
    w = np.zeros((out_size, in_size), F32)
    rows = np.arange(out_size)
    np.add.at(w, (rows, lower), F32(1) - lerp)
    np.add.at(w, (rows, upper), lerp)
    return w


@_cached
def nearest_indices(in_size, out_size, align_corners=False, half_pixel_centers=False):
    pos = _source_positions(in_size, out_size, align_corners, half_pixel_centers, shift=False)
    if align_corners:
        idx = np.where(pos >= 0, np.floor(pos + F32(0.5)), np.ceil(pos - F32(0.5)))
    else:
        idx = np.floor(pos)
    return np.clip(idx.astype(np.int64), 0, in_size - 1)


def weights_nearest(in_size, out_size, align_corners=False, half_pixel_centers=False):
    w = np.zeros((out_size, in_size), F32)
    w[np.arange(out_size), nearest_indices(in_size, out_size, align_corners,
                                           half_pixel_centers)] = 1
    return w


_TABLE_SIZE = 1024


def _cubic_table(a: float) -> np.ndarray:
    x = np.arange(_TABLE_SIZE + 1, dtype=F32) / F32(_TABLE_SIZE)
    a = F32(a)
    table = np.empty((_TABLE_SIZE + 1) * 2, F32)
    table[0::2] = ((a + 2) * x - (a + 3)) * x * x + 1
    x1 = x + F32(1)
    table[1::2] = ((a * x1 - 5 * a) * x1 + 8 * a) * x1 - 4 * a
    return table


_KEYS_TABLE = _cubic_table(-0.5)
_LEGACY_TABLE = _cubic_table(-0.75)


@_cached
def weights_bicubic(in_size, out_size, align_corners=False, half_pixel_centers=False):
    """ResizeBicubic: Keys' cubic (a=-0.5) with taps outside the image dropped and the rest
    renormalized when half_pixel_centers, else the legacy a=-0.75 with edge taps repeated."""
    pos = _source_positions(in_size, out_size, align_corners, half_pixel_centers)
    table = _KEYS_TABLE if half_pixel_centers else _LEGACY_TABLE
    w = np.zeros((out_size, in_size), F32)
    for i, p in enumerate(pos):
        base = math.floor(p)
        offset = int(np.rint(F32(p - F32(base)) * F32(_TABLE_SIZE)))
        taps = [table[offset * 2 + 1], table[offset * 2],
                table[(_TABLE_SIZE - offset) * 2], table[(_TABLE_SIZE - offset) * 2 + 1]]
        sources = [base - 1, base, base + 1, base + 2]
        bounded = [min(max(s, 0), in_size - 1) for s in sources]
        if half_pixel_centers:
            taps = [t if b == s else F32(0) for t, s, b in zip(taps, sources, bounded)]
            total = F32(sum(taps, F32(0)))
            if abs(total) >= 1000 * np.finfo(F32).tiny:
                taps = [F32(t * (F32(1) / total)) for t in taps]
        for t, b in zip(taps, bounded):
            w[i, b] += t
    return w


@_cached
def weights_area(in_size, out_size, align_corners=False):
    """ResizeArea: each output cell averages the input cells its box covers, by overlap."""
    scale = resize_scale(in_size, out_size, align_corners)
    w = np.zeros((out_size, in_size), F32)
    for i in range(out_size):
        lo, hi = F32(i) * scale, F32(i + 1) * scale
        for k in range(math.floor(lo), math.ceil(hi)):
            overlap = F32(min(F32(k + 1), hi) - max(F32(k), lo))
            w[i, min(k, in_size - 1)] += overlap / scale
    return w


# ---- ScaleAndTranslate's kernels (TensorFlow's sampling_kernels) ----------------------------

def _lanczos(radius):
    def f(x):
        if x > radius:
            return 0.0
        if x < 1e-3:
            return 1.0
        px = math.pi * x
        return radius * math.sin(px) * math.sin(px / radius) / (px * px)
    return f, float(radius)


def _keys_cubic(x):
    if x >= 2:
        return 0.0
    if x >= 1:
        return ((-0.5 * x + 2.5) * x - 4.0) * x + 2.0
    return ((1.5 * x - 2.5) * x) * x + 1.0


def _mitchell_cubic(x):
    if x >= 2:
        return 0.0
    if x >= 1:
        return (((-7.0 / 18.0) * x + 2.0) * x - 10.0 / 3.0) * x + 16.0 / 9.0
    return (((7.0 / 6.0) * x - 2.0) * x) * x + 8.0 / 9.0


SAMPLING_KERNELS = {
    "lanczos1": _lanczos(1), "lanczos3": _lanczos(3), "lanczos5": _lanczos(5),
    "gaussian": (lambda x: 0.0 if x >= 1.5 else math.exp(-x * x / (2 * 0.5 * 0.5)), 1.5),
    "box": (lambda x: 1.0 if x < 0.5 else (0.5 if x == 0.5 else 0.0), 1.0),
    "triangle": (lambda x: 1.0 - x if x < 1 else 0.0, 1.0),
    "keyscubic": (_keys_cubic, 2.0),
    "mitchellcubic": (_mitchell_cubic, 2.0),
}


@_cached
def weights_scale_and_translate(in_size, out_size, scale, translation, kernel_type="lanczos3",
                                antialias=True):
    """ScaleAndTranslate's spans: output x samples the input at (x + 0.5 - t) / s, with the
    kernel widened by 1/s when shrinking with antialias; weights renormalized to sum 1."""
    if kernel_type not in SAMPLING_KERNELS:
        raise ValueError(f"Unrecognized kernel type: {kernel_type}")
    kernel, radius = SAMPLING_KERNELS[kernel_type]
    scale, translation = F32(scale), F32(translation)
    inv_scale = F32(1) / scale
    inv_translate = -inv_scale * translation
    kernel_scale = max(inv_scale, F32(1)) if antialias else F32(1)
    w = np.zeros((out_size, in_size), F32)
    for x in range(out_size):
        sample = F32(x + 0.5) * inv_scale + inv_translate
        if sample < 0 or sample > in_size:
            continue
        start = math.ceil(F32(sample - F32(radius) * kernel_scale - F32(0.5)))
        end = math.floor(F32(sample + F32(radius) * kernel_scale - F32(0.5)))
        start = min(max(start, 0), in_size - 1)
        end = min(max(end, 0), in_size - 1) + 1
        taps = [F32(kernel(abs(float(F32(F32(s) + F32(0.5) - sample) / kernel_scale))))
                for s in range(start, end)]
        total = F32(sum(taps, F32(0)))
        if abs(total) >= 1000 * np.finfo(F32).tiny:
            taps = [F32(t * (F32(1) / total)) for t in taps]
        w[x, start:end] = taps
    return w
