"""Philox-4x32-10, the counter-based generator behind TensorFlow's random ops, on NumPy arrays.

Philox (Salmon et al., "Parallel Random Numbers: As Easy as 1, 2, 3", SC'11) maps a 128-bit
counter and a 64-bit key to four 32-bit words by ten rounds of multiply-and-xor. A *stream* is
a key and a starting counter: block `i` of the stream is Philox of `counter + i`, so any part of
it is computed directly, every block at once here (uint32 words held in uint64 arrays: a 32x32
product fits, and its high half is a shift).

TensorFlow's layout, which this module keeps: the key is one uint64 (low 32 bits are the first
key word), the counter two uint64 (low word first), a `tf.random.Generator`'s state the int64
vector `[counter_low, counter_high, key]`. A `seed` of two integers becomes a key and counter by
one Philox call under a fixed key (TensorFlow's `StatelessRandomGetKeyCounter`).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

__all__ = ["Stream", "stream_from_seed", "stream_from_state", "blocks", "words", "MASK64",
           "STATE_SKIP_PER_VALUE"]

MASK64 = (1 << 64) - 1
_MASK128 = (1 << 128) - 1
_MULTIPLIERS = (np.uint64(0xD2511F53), np.uint64(0xCD9E8D57))
_KEY_STEPS = (0x9E3779B9, 0xBB67AE85)           # added to the key words after each round
_SEED_KEY = 0x02461E293EC8F720                    # the fixed key that scrambles a seed
_LOW32 = np.uint64(0xFFFFFFFF)
_SHIFT32 = np.uint64(32)
# A Generator's counter moves 256 blocks per value it draws (TensorFlow's RngReadAndSkip), the
# room a truncated normal may use for one value.
STATE_SKIP_PER_VALUE = 256


class Stream(NamedTuple):
    """A Philox stream: its key (64 bits) and first counter (128 bits), as Python ints."""

    key: int
    counter: int

    def skipped(self, blocks: int) -> Stream:
        """The stream starting `blocks` blocks later (the counter wraps at 2**128)."""
        return Stream(self.key, (self.counter + blocks) & _MASK128)

    @property
    def counter_words(self) -> tuple[int, int]:
        """The counter as TensorFlow stores it: (low 64 bits, high 64 bits)."""
        return self.counter & MASK64, self.counter >> 64


def _rounds(c0, c1, c2, c3, key: int):
    """Ten Philox rounds on the counter words (uint64 arrays of 32-bit values)."""
    k0, k1 = key & 0xFFFFFFFF, key >> 32
    m0, m1 = _MULTIPLIERS
    for _ in range(10):
        p0 = m0 * c0
        p1 = m1 * c2
        c0, c1, c2, c3 = ((p1 >> _SHIFT32) ^ c1 ^ np.uint64(k0), p1 & _LOW32,
                          (p0 >> _SHIFT32) ^ c3 ^ np.uint64(k1), p0 & _LOW32)
        k0 = (k0 + _KEY_STEPS[0]) & 0xFFFFFFFF
        k1 = (k1 + _KEY_STEPS[1]) & 0xFFFFFFFF
    return c0, c1, c2, c3


def blocks(stream: Stream, offsets) -> np.ndarray:
    """Philox of `stream.counter + offset` for each offset (uint64, below 2**64): an array of
    shape (len(offsets), 4), uint32."""
    offsets = np.asarray(offsets, np.uint64)
    low0, high0 = stream.counter_words
    low = np.uint64(low0) + offsets                  # wraps modulo 2**64
    high = np.full(low.shape, np.uint64(high0))
    high += (low < np.uint64(low0)).astype(np.uint64)  # the carry into the high word
    words4 = _rounds(low & _LOW32, low >> _SHIFT32, high & _LOW32, high >> _SHIFT32, stream.key)
    out = np.empty(offsets.shape + (4,), np.uint32)
    for i, w in enumerate(words4):
        out[..., i] = w
    return out


def words(stream: Stream, count: int, first_block: int = 0) -> np.ndarray:
    """The first `count` 32-bit words of the stream from block `first_block` on, in order
    (four per block)."""
    n_blocks = -(-count // 4)
    offsets = np.arange(first_block, first_block + n_blocks, dtype=np.uint64)
    return blocks(stream, offsets).reshape(-1)[:count]


def stream_from_seed(seed0: int, seed1: int) -> Stream:
    """TensorFlow's key and counter for the seed `[seed0, seed1]` (each taken as 64 bits, so a
    negative int32 seed is sign-extended): Philox of the counter (seed0, seed1) under a fixed
    key gives four words, the first two the key, the last two the counter's high half."""
    counter = (seed0 & MASK64) | ((seed1 & MASK64) << 64)
    mix = blocks(Stream(_SEED_KEY, counter), [0])[0]
    key = int(mix[0]) | (int(mix[1]) << 32)
    return Stream(key, (int(mix[2]) | (int(mix[3]) << 32)) << 64)


def stream_from_state(counter_low: int, counter_high: int, key: int) -> Stream:
    """The stream of TensorFlow's key/counter words (int64 or uint64 values, any sign)."""
    return Stream(key & MASK64, (counter_low & MASK64) | ((counter_high & MASK64) << 64))
