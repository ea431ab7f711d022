"""Philox-4x32-10, the counter-based generator behind TensorFlow's stateless random ops, and
the conversions TensorFlow applies to its 32-bit outputs (`random_distributions.h`).

A seed `[s0, s1]` becomes a key and a counter as TensorFlow's `GenerateKey` makes them (the seed
is itself scrambled by one Philox call under a fixed key). Output group `g` of a distribution
is computed from the counter advanced by `g` (truncated normals reserve 256 draws per value,
as TensorFlow's variable-sample distributions do: group `g` starts `g * size * 256 / 4`
calls on), so an element's value depends only on the seed and its position: the same numbers
as TensorFlow's `stateless_*` ops, bit for bit for uniform and float64 values; float32 normals
go through float64 sin/cos/log rounded to float32, which matches TensorFlow's libm except in
the last place or two for about 2% of values.
"""

from __future__ import annotations

import numpy as np

__all__ = ["key_counter", "random_bits", "uniform_floats", "normal_floats",
           "truncated_normal_floats", "uniform_ints"]

_M0, _M1 = np.uint64(0xD2511F53), np.uint64(0xCD9E8D57)
_W0, _W1 = np.uint64(0x9E3779B9), np.uint64(0xBB67AE85)
_MASK32 = np.uint64(0xFFFFFFFF)
_SEED_KEY = (0x3EC8F720, 0x02461E29)
RESERVED_SAMPLES = 256  # 32-bit draws reserved per output value of a truncated normal


def philox(counters: np.ndarray, key) -> np.ndarray:
    """Ten Philox rounds on each row of `counters` ((n, 4) uint32) under `key` (2 uint32)."""
    c0, c1, c2, c3 = (counters[:, i].astype(np.uint64) for i in range(4))
    k0, k1 = np.uint64(key[0]), np.uint64(key[1])
    for _ in range(10):
        p0, p1 = _M0 * c0, _M1 * c2
        c0, c1, c2, c3 = (p1 >> np.uint64(32)) ^ c1 ^ k0, p1 & _MASK32, \
            (p0 >> np.uint64(32)) ^ c3 ^ k1, p0 & _MASK32
        k0, k1 = (k0 + _W0) & _MASK32, (k1 + _W1) & _MASK32
    return np.stack([c0, c1, c2, c3], axis=1).astype(np.uint32)


def key_counter(seed) -> tuple[tuple[int, int], int]:
    """TensorFlow's key (two uint32) and 128-bit counter for a `[s0, s1]` seed."""
    s0, s1 = (int(v) & 0xFFFFFFFFFFFFFFFF for v in np.asarray(seed).reshape(-1)[:2])
    counter = np.array([[s0 & 0xFFFFFFFF, s0 >> 32, s1 & 0xFFFFFFFF, s1 >> 32]], np.uint32)
    mix = philox(counter, _SEED_KEY)[0]
    return (int(mix[0]), int(mix[1])), (int(mix[2]) << 64) | (int(mix[3]) << 96)


def _counters(start: int, offsets: np.ndarray) -> np.ndarray:
    """Rows of the 128-bit counters `start + offsets` as four uint32 words (low word first)."""
    base_low, high = start & 0xFFFFFFFFFFFFFFFF, start >> 64
    low = np.uint64(base_low) + offsets.astype(np.uint64)      # wraps modulo 2**64
    carry = low < np.uint64(base_low)                          # offsets stay below 2**63
    highs = np.where(carry, np.uint64((high + 1) & 0xFFFFFFFFFFFFFFFF), np.uint64(high))
    out = np.empty((len(offsets), 4), np.uint32)
    out[:, 0] = (low & _MASK32).astype(np.uint32)
    out[:, 1] = (low >> np.uint64(32)).astype(np.uint32)
    out[:, 2] = (highs & _MASK32).astype(np.uint32)
    out[:, 3] = (highs >> np.uint64(32)).astype(np.uint32)
    return out


def random_bits(seed, n: int) -> np.ndarray:
    """The first `n` 32-bit outputs of the seed's stream (4 per counter, in order)."""
    key, start = key_counter(seed)
    groups = (n + 3) // 4
    return philox(_counters(start, np.arange(groups, dtype=np.uint64)), key).reshape(-1)[:n]


def _unit_float32(bits):
    """[0, 1) from the low 23 bits (TF's Uint32ToFloat)."""
    return ((bits & np.uint32(0x7FFFFF)) | np.uint32(0x3F800000)).view(np.float32) - \
        np.float32(1.0)


def _unit_float64(hi, lo):
    """[0, 1) from 52 bits of two outputs (TF's Uint64ToDouble)."""
    man = ((hi.astype(np.uint64) & np.uint64(0xFFFFF)) << np.uint64(32)) | lo.astype(np.uint64)
    return (man | (np.uint64(1023) << np.uint64(52))).view(np.float64) - 1.0


def _unit_float16(bits):
    """[0, 1) from the low 10 bits (TF's Uint16ToHalf)."""
    return ((bits & np.uint32(0x3FF)) | np.uint32(0x3C00)).astype(np.uint16).view(np.float16) \
        - np.float16(1.0)


def uniform_floats(seed, n: int, np_dtype) -> np.ndarray:
    """`n` values in [0, 1) as TensorFlow's stateless uniform draws them."""
    np_dtype = np.dtype(np_dtype)
    if np_dtype == np.float64:
        bits = random_bits(seed, 2 * n)
        return _unit_float64(bits[0::2], bits[1::2])
    bits = random_bits(seed, n)
    if np_dtype == np.float16:
        return _unit_float16(bits)
    return _unit_float32(bits).astype(np_dtype)


def _box_muller32(x0, x1):
    u1 = np.maximum(_unit_float32(x0), np.float32(1e-7)).astype(np.float64)
    v1 = (2.0 * np.pi * _unit_float32(x1).astype(np.float64)).astype(np.float32)
    u2 = np.sqrt((-2.0 * np.log(u1).astype(np.float32)).astype(np.float32))
    v1 = v1.astype(np.float64)
    return np.sin(v1).astype(np.float32) * u2, np.cos(v1).astype(np.float32) * u2


def _box_muller64(x0, x1, x2, x3):
    u1 = np.maximum(_unit_float64(x0, x1), 1e-7)
    v1 = 2.0 * np.pi * _unit_float64(x2, x3)
    u2 = np.sqrt(-2.0 * np.log(u1))
    return np.sin(v1) * u2, np.cos(v1) * u2


def _pairs(bits, np_dtype):
    if np.dtype(np_dtype) == np.float64:
        return _box_muller64(bits[0::4], bits[1::4], bits[2::4], bits[3::4])
    return _box_muller32(bits[0::2], bits[1::2])


def normal_floats(seed, n: int, np_dtype) -> np.ndarray:
    """`n` standard normal values as TensorFlow's stateless normal draws them."""
    per_value = 2 if np.dtype(np_dtype) == np.float64 else 1
    bits = random_bits(seed, ((n * per_value + 3) // 4) * 4)
    f0, f1 = _pairs(bits, np_dtype)
    return np.stack([f0, f1], axis=1).reshape(-1)[:n].astype(np_dtype)


def truncated_normal_floats(seed, n: int, np_dtype) -> np.ndarray:
    """`n` standard normal values within two standard deviations (others redrawn), each group
    of TensorFlow's output size from its own reserved stretch of the stream."""
    wide = np.dtype(np_dtype) == np.float64
    group = 2 if wide else 4
    key, start = key_counter(seed)
    groups = (n + group - 1) // group
    out = np.empty((groups, group), np.float64 if wide else np.float32)
    skip = group * RESERVED_SAMPLES // 4  # Philox calls between the starts of two groups
    base = np.arange(groups, dtype=np.uint64) * np.uint64(skip)
    filled = np.zeros(groups, np.int64)
    step = 0
    while (filled < group).any():
        todo = np.nonzero(filled < group)[0]
        bits = philox(_counters(start, base[todo] + np.uint64(step)), key)
        if wide:
            f0, f1 = _box_muller64(bits[:, 0], bits[:, 1], bits[:, 2], bits[:, 3])
            candidates = np.stack([f0, f1], axis=1)
        else:
            a0, a1 = _box_muller32(bits[:, 0], bits[:, 1])
            b0, b1 = _box_muller32(bits[:, 2], bits[:, 3])
            candidates = np.stack([a0, a1, b0, b1], axis=1)
        for row, values in zip(todo, candidates):
            for v in values:
                if abs(v) < 2.0 and filled[row] < group:
                    out[row, filled[row]] = v
                    filled[row] += 1
        step += 1
    return out.reshape(-1)[:n].astype(np_dtype)


def uniform_ints(seed, n: int, lo: int, hi: int, np_dtype) -> np.ndarray:
    """`n` integers in [lo, hi) as `lo + bits % (hi - lo)` (64-bit: two outputs per value)."""
    span = hi - lo
    if np.dtype(np_dtype).itemsize == 8:
        bits = random_bits(seed, 2 * n).astype(np.uint64)
        values = bits[0::2] | (bits[1::2] << np.uint64(32))
        return (np.int64(lo) + (values % np.uint64(span)).astype(np.int64)).astype(np_dtype)
    bits = random_bits(seed, n)
    return (np.int64(lo) + (bits % np.uint32(span)).astype(np.int64)).astype(np_dtype)
