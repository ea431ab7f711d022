"""TensorFlow's distributions over a Philox stream (`random_distributions.h`), on arrays.

Each distribution turns 32-bit words into values the way TensorFlow's CPU kernels do, so equal
streams give equal values:

| values | words per value | conversion |
|---|---|---|
| uniform float16 / bfloat16 / float32 | 1 | the low 10 / 7 / 23 bits as a mantissa, minus 1 |
| uniform float64 | 2 | 20 bits of the first word and all 32 of the second, as above |
| normal float32 (float16, bfloat16 rounded) | 1 | Box-Muller on word pairs: sin, then cos |
| normal float64 | 2 | Box-Muller on two doubles made of four words |
| int32 / uint32 in [lo, hi) | 1 | `lo + word % (hi - lo)` |
| int64 / uint64 in [lo, hi) | 2 | `lo + (first | second << 32) % (hi - lo)` |
| full-range integers | 1 or 2 | the word(s) themselves |

Fixed-size distributions read block after block from the stream's start. A truncated normal
redraws values beyond two standard deviations, so TensorFlow gives each group of outputs (4
values, 2 for float64) its own stretch of the stream starting 256 words per value apart; the
candidates of a group are taken in order until it is full.
"""

from __future__ import annotations

import numpy as np

from . import libm
from .philox import Stream, blocks, words

__all__ = ["uniform", "normal", "truncated_normal", "uniform_int", "full_int", "BFLOAT16",
           "unit_float64",
           "round_to_bfloat16"]

BFLOAT16 = "bfloat16"     # tracegraph stores bfloat16 values in float32 arrays
_RESERVED_WORDS_PER_VALUE = 256
_EPSILON = 1.0e-7                     # Box-Muller's floor for its first uniform
_TRUNCATE = 2.0                       # truncated normals keep |x| < 2
_TWO_PI = 2.0 * np.pi                 # a double in TensorFlow's float code too


def round_to_bfloat16(x: np.ndarray) -> np.ndarray:
    """float32 values rounded to bfloat16 (to nearest, ties to even; NaN stays NaN), still
    held as float32."""
    bits = np.ascontiguousarray(x, np.float32).view(np.uint32)
    rounding = np.uint32(0x7FFF) + ((bits >> np.uint32(16)) & np.uint32(1))
    rounded = (bits + rounding) & np.uint32(0xFFFF0000)
    rounded = np.where(np.isnan(x), bits | np.uint32(0x00400000), rounded)
    return rounded.astype(np.uint32).view(np.float32)


def _unit_float32(w: np.ndarray) -> np.ndarray:
    return ((w & np.uint32(0x7FFFFF)) | np.uint32(0x3F800000)).view(np.float32) - \
        np.float32(1.0)


def unit_float64(high: np.ndarray, low: np.ndarray) -> np.ndarray:
    mantissa = ((high.astype(np.uint64) & np.uint64(0xFFFFF)) << np.uint64(32)) | \
        low.astype(np.uint64)
    return (mantissa | np.uint64(0x3FF0000000000000)).view(np.float64) - 1.0


def _kind(dtype) -> str:
    return BFLOAT16 if dtype == BFLOAT16 else np.dtype(dtype).name


def uniform(stream: Stream, n: int, dtype) -> np.ndarray:
    """`n` values in [0, 1) of `dtype` (a NumPy float dtype or BFLOAT16)."""
    kind = _kind(dtype)
    if kind == "float64":
        w = words(stream, 2 * n)
        return unit_float64(w[0::2], w[1::2])
    w = words(stream, n)
    if kind == "float16":
        return ((w & np.uint32(0x3FF)) | np.uint32(0x3C00)).astype(np.uint16).view(
            np.float16) - np.float16(1.0)
    if kind == BFLOAT16:
        bits = ((w & np.uint32(0x7F)) | np.uint32(0x3F80)) << np.uint32(16)
        return bits.view(np.float32) - np.float32(1.0)
    return _unit_float32(w)


def _box_muller32(x0: np.ndarray, x1: np.ndarray):
    """Pairs of float32 normals from pairs of words (TensorFlow's BoxMullerFloat: the angle is
    computed in double and rounded, the rest in float)."""
    u1 = np.maximum(_unit_float32(x0), np.float32(_EPSILON))
    angle = (_TWO_PI * _unit_float32(x1).astype(np.float64)).astype(np.float32)
    radius = np.sqrt(np.float32(-2.0) * libm.log32(u1))
    s, c = libm.sincos32(angle)
    return s * radius, c * radius


def _box_muller64(x0, x1, x2, x3):
    u1 = np.maximum(unit_float64(x0, x1), _EPSILON)
    angle = _TWO_PI * unit_float64(x2, x3)
    radius = np.sqrt(-2.0 * libm.log64(u1))
    s, c = libm.sincos64(angle)
    return s * radius, c * radius


def _narrow(values: np.ndarray, kind: str) -> np.ndarray:
    """float32 normals as `kind` (float16, bfloat16 or float32)."""
    if kind == "float16":
        return values.astype(np.float16)
    if kind == BFLOAT16:
        return round_to_bfloat16(values)
    return values


def normal(stream: Stream, n: int, dtype) -> np.ndarray:
    """`n` standard normal values of `dtype`."""
    kind = _kind(dtype)
    if kind == "float64":
        w = words(stream, 4 * -(-n // 2))
        s, c = _box_muller64(w[0::4], w[1::4], w[2::4], w[3::4])
    else:
        w = words(stream, 2 * -(-n // 2))
        s, c = _box_muller32(w[0::2], w[1::2])
    out = np.empty(s.size * 2, s.dtype)
    out[0::2], out[1::2] = s, c
    return _narrow(out[:n], kind) if kind != "float64" else out[:n]


def _candidates(stream: Stream, starts: np.ndarray, step: int, wide: bool) -> np.ndarray:
    """The candidates of block `step` of each group's stretch: (groups, 4 or 2) values."""
    b = blocks(stream, starts + np.uint64(step))
    if wide:
        s, c = _box_muller64(b[:, 0], b[:, 1], b[:, 2], b[:, 3])
        return np.stack([s, c], axis=1)
    s0, c0 = _box_muller32(b[:, 0], b[:, 1])
    s1, c1 = _box_muller32(b[:, 2], b[:, 3])
    return np.stack([s0, c0, s1, c1], axis=1)


def truncated_normal(stream: Stream, n: int, dtype) -> np.ndarray:
    """`n` standard normal values of `dtype` within (-2, 2), redrawn beyond."""
    kind = _kind(dtype)
    wide = kind == "float64"
    group = 2 if wide else 4
    groups = -(-n // group)
    stretch = group * _RESERVED_WORDS_PER_VALUE // 4           # blocks between two groups
    starts = np.arange(groups, dtype=np.uint64) * np.uint64(stretch)
    out = np.zeros((groups, group), np.float64 if wide else np.float32)
    filled = np.zeros(groups, np.int64)
    todo = np.arange(groups)
    step = 0
    while todo.size:
        # Two blocks per pass: 8 float32 (4 float64) candidates fill almost every group.
        cand = np.concatenate([_candidates(stream, starts[todo], step + i, wide)
                               for i in range(2)], axis=1)
        keep = np.abs(cand) < _TRUNCATE
        position = filled[todo, None] + np.cumsum(keep, axis=1) - 1
        take = keep & (position < group)
        rows, cols = np.nonzero(take)
        out[todo[rows], position[rows, cols]] = cand[rows, cols]
        filled[todo] = np.minimum(filled[todo] + keep.sum(axis=1), group)
        todo = todo[filled[todo] < group]
        step += 2
    flat = out.reshape(-1)[:n]
    return flat if wide else _narrow(flat, kind)


def _wide_words(stream: Stream, n: int) -> np.ndarray:
    w = words(stream, 2 * n).astype(np.uint64)
    return w[0::2] | (w[1::2] << np.uint64(32))


def uniform_int(stream: Stream, n: int, low: int, high: int, dtype) -> np.ndarray:
    """`n` integers in [low, high) of the integer `dtype` (`low < high`, checked by the
    caller): `low + bits % (high - low)`, slightly biased as TensorFlow's."""
    dtype = np.dtype(dtype)
    span = (high - low) & ((1 << (8 * dtype.itemsize)) - 1)
    if dtype.itemsize == 8:
        offsets = _wide_words(stream, n) % np.uint64(span)
    else:
        offsets = (words(stream, n) % np.uint32(span)).astype(np.uint64)
    mask = np.uint64((1 << (8 * dtype.itemsize)) - 1)
    values = (np.uint64(low & int(mask)) + offsets) & mask     # wrapping add, as in C
    return values.astype(np.dtype(f"u{dtype.itemsize}")).view(dtype)


def full_int(stream: Stream, n: int, dtype) -> np.ndarray:
    """`n` integers over the whole range of `dtype` (32 or 64 bits)."""
    dtype = np.dtype(dtype)
    if dtype.itemsize == 8:
        return _wide_words(stream, n).view(dtype)
    return words(stream, n).view(dtype)
