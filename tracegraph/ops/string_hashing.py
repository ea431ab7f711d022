"""String hashing into buckets with TensorFlow's hash functions: StringToHashBucketFast
(FarmHash's Fingerprint64, the stable fingerprint), StringToHashBucketStrong (SipHash-2-4
keyed by two uint64s) and StringToHashBucket (TensorFlow's legacy Hash64, a MurmurHash2
variant seeded 0xDECAFCAFFE). Each output is `hash % num_buckets` as int64.

The hash functions are written from the published algorithms; 64-bit arithmetic wraps with
`& MASK`.
"""

from __future__ import annotations

import struct

import numpy as np

from .. import dtypes as d
from ..errors import InvalidArgumentError
from ..shapes import TensorType
from .registry import PURE, REQUIRED, defop

MASK = (1 << 64) - 1
_K0 = 0xC3A5C85C97CB3127
_K1 = 0xB492B66FBE98F273
_K2 = 0x9AE16A3B2F90404F


def _fetch64(s: bytes, i: int) -> int:
    return struct.unpack_from("<Q", s, i)[0]


def _fetch32(s: bytes, i: int) -> int:
    return struct.unpack_from("<I", s, i)[0]


def _rotate(v: int, shift: int) -> int:
    return v if shift == 0 else ((v >> shift) | (v << (64 - shift))) & MASK


def _shift_mix(v: int) -> int:
    return v ^ (v >> 47)


def _hash_len16(u: int, v: int, mul: int) -> int:
    a = ((u ^ v) * mul) & MASK
    a ^= a >> 47
    b = ((v ^ a) * mul) & MASK
    b ^= b >> 47
    return (b * mul) & MASK


def _len_0_to_16(s: bytes) -> int:
    n = len(s)
    if n >= 8:
        mul = _K2 + n * 2
        a = (_fetch64(s, 0) + _K2) & MASK
        b = _fetch64(s, n - 8)
        c = (_rotate(b, 37) * mul + a) & MASK
        e = ((_rotate(a, 25) + b) * mul) & MASK
        return _hash_len16(c, e, mul)
    if n >= 4:
        mul = _K2 + n * 2
        return _hash_len16((n + (_fetch32(s, 0) << 3)) & MASK, _fetch32(s, n - 4), mul)
    if n > 0:
        y = s[0] + (s[n >> 1] << 8)
        z = n + (s[n - 1] << 2)
        return (_shift_mix(((y * _K2) ^ (z * _K0)) & MASK) * _K2) & MASK
    return _K2


def _len_17_to_32(s: bytes) -> int:
    n = len(s)
    mul = _K2 + n * 2
    a = (_fetch64(s, 0) * _K1) & MASK
    b = _fetch64(s, 8)
    c = (_fetch64(s, n - 8) * mul) & MASK
    e = (_fetch64(s, n - 16) * _K2) & MASK
    return _hash_len16((_rotate((a + b) & MASK, 43) + _rotate(c, 30) + e) & MASK,
                       (a + _rotate((b + _K2) & MASK, 18) + c) & MASK, mul)


def _len_33_to_64(s: bytes) -> int:
    n = len(s)
    mul = _K2 + n * 2
    a = (_fetch64(s, 0) * _K2) & MASK
    b = _fetch64(s, 8)
    c = (_fetch64(s, n - 8) * mul) & MASK
    e = (_fetch64(s, n - 16) * _K2) & MASK
    y = (_rotate((a + b) & MASK, 43) + _rotate(c, 30) + e) & MASK
    z = _hash_len16(y, (a + _rotate((b + _K2) & MASK, 18) + c) & MASK, mul)
    f1 = (_fetch64(s, 16) * mul) & MASK
    f2 = _fetch64(s, 24)
    g = ((y + _fetch64(s, n - 32)) * mul) & MASK
    h = ((z + _fetch64(s, n - 24)) * mul) & MASK
    return _hash_len16((_rotate((f1 + f2) & MASK, 43) + _rotate(g, 30) + h) & MASK,
                       (f1 + _rotate((f2 + a) & MASK, 18) + g) & MASK, mul)


def _weak_hash_len32(s: bytes, i: int, a: int, b: int) -> tuple:
    w, x, y, z = (_fetch64(s, i + k) for k in (0, 8, 16, 24))
    a = (a + w) & MASK
    b = _rotate((b + a + z) & MASK, 21)
    c = a
    a = (a + x + y) & MASK
    b = (b + _rotate(a, 44)) & MASK
    return (a + z) & MASK, (b + c) & MASK


def fingerprint64(s: bytes) -> int:
    """FarmHash's Fingerprint64 (farmhashna::Hash64) of `s`."""
    n = len(s)
    if n <= 16:
        return _len_0_to_16(s)
    if n <= 32:
        return _len_17_to_32(s)
    if n <= 64:
        return _len_33_to_64(s)
    seed = 81
    x = seed
    y = (seed * _K1 + 113) & MASK
    z = (_shift_mix((y * _K2 + 113) & MASK) * _K2) & MASK
    v, w = (0, 0), (0, 0)
    x = (x * _K2 + _fetch64(s, 0)) & MASK
    end = ((n - 1) // 64) * 64
    last64 = end + ((n - 1) & 63) - 63
    i = 0
    while True:
        x = (_rotate((x + y + v[0] + _fetch64(s, i + 8)) & MASK, 37) * _K1) & MASK
        y = (_rotate((y + v[1] + _fetch64(s, i + 48)) & MASK, 42) * _K1) & MASK
        x ^= w[1]
        y = (y + v[0] + _fetch64(s, i + 40)) & MASK
        z = (_rotate((z + w[0]) & MASK, 33) * _K1) & MASK
        v = _weak_hash_len32(s, i, (v[1] * _K1) & MASK, (x + w[0]) & MASK)
        w = _weak_hash_len32(s, i + 32, (z + w[1]) & MASK, (y + _fetch64(s, i + 16)) & MASK)
        z, x = x, z
        i += 64
        if i == end:
            break
    mul = _K1 + ((z & 0xFF) << 1)
    i = last64
    w = ((w[0] + ((n - 1) & 63)) & MASK, w[1])
    v = ((v[0] + w[0]) & MASK, v[1])
    w = ((w[0] + v[0]) & MASK, w[1])
    x = (_rotate((x + y + v[0] + _fetch64(s, i + 8)) & MASK, 37) * mul) & MASK
    y = (_rotate((y + v[1] + _fetch64(s, i + 48)) & MASK, 42) * mul) & MASK
    x ^= (w[1] * 9) & MASK
    y = (y + v[0] * 9 + _fetch64(s, i + 40)) & MASK
    z = (_rotate((z + w[0]) & MASK, 33) * mul) & MASK
    v = _weak_hash_len32(s, i, (v[1] * mul) & MASK, (x + w[0]) & MASK)
    w = _weak_hash_len32(s, i + 32, (z + w[1]) & MASK, (y + _fetch64(s, i + 16)) & MASK)
    z, x = x, z
    return _hash_len16((_hash_len16(v[0], w[0], mul) + _shift_mix(y) * _K0 + z) & MASK,
                       (_hash_len16(v[1], w[1], mul) + x) & MASK, mul)


def siphash24(k0: int, k1: int, s: bytes) -> int:
    """SipHash-2-4 of `s` with the 128-bit key (k0, k1)."""
    v0 = k0 ^ 0x736F6D6570736575
    v1 = k1 ^ 0x646F72616E646F6D
    v2 = k0 ^ 0x6C7967656E657261
    v3 = k1 ^ 0x7465646279746573

    def rounds(v0, v1, v2, v3, count):
        for _ in range(count):
            v0 = (v0 + v1) & MASK
            v1 = _rotl(v1, 13) ^ v0
            v0 = _rotl(v0, 32)
            v2 = (v2 + v3) & MASK
            v3 = _rotl(v3, 16) ^ v2
            v0 = (v0 + v3) & MASK
            v3 = _rotl(v3, 21) ^ v0
            v2 = (v2 + v1) & MASK
            v1 = _rotl(v1, 17) ^ v2
            v2 = _rotl(v2, 32)
        return v0, v1, v2, v3

    n = len(s)
    full = n - n % 8
    for i in range(0, full, 8):
        m = _fetch64(s, i)
        v3 ^= m
        v0, v1, v2, v3 = rounds(v0, v1, v2, v3, 2)
        v0 ^= m
    last = (n & 0xFF) << 56
    for j, byte in enumerate(s[full:]):
        last |= byte << (8 * j)
    v3 ^= last
    v0, v1, v2, v3 = rounds(v0, v1, v2, v3, 2)
    v0 ^= last
    v2 ^= 0xFF
    v0, v1, v2, v3 = rounds(v0, v1, v2, v3, 4)
    return v0 ^ v1 ^ v2 ^ v3


def siphash24_many(k0: int, k1: int, strings: list) -> np.ndarray:
    """siphash24 of many strings at once: strings with the same number of 8-byte blocks are
    hashed together, as uint64 vectors (NumPy's uint64 arithmetic wraps like the algorithm's)."""
    out = np.empty(len(strings), np.uint64)
    groups: dict = {}
    for i, s in enumerate(strings):
        groups.setdefault(len(s) // 8, []).append(i)
    for blocks, members in groups.items():
        data = [strings[i] for i in members]
        words = np.frombuffer(b"".join(s[:blocks * 8] for s in data), "<u8").reshape(
            len(data), blocks) if blocks else np.zeros((len(data), 0), np.uint64)
        last = np.array([(len(s) & 0xFF) << 56 | int.from_bytes(s[blocks * 8:], "little")
                         for s in data], np.uint64)
        out[members] = _siphash_vectors(k0, k1, words.astype(np.uint64), last)
    return out


def _siphash_vectors(k0: int, k1: int, words: np.ndarray, last: np.ndarray) -> np.ndarray:
    n = len(last)
    v0 = np.full(n, k0 ^ 0x736F6D6570736575, np.uint64)
    v1 = np.full(n, k1 ^ 0x646F72616E646F6D, np.uint64)
    v2 = np.full(n, k0 ^ 0x6C7967656E657261, np.uint64)
    v3 = np.full(n, k1 ^ 0x7465646279746573, np.uint64)

    def rotl(v, shift):
        return (v << np.uint64(shift)) | (v >> np.uint64(64 - shift))

    def rounds(v0, v1, v2, v3, count):
        for _ in range(count):
            v0 = v0 + v1
            v1 = rotl(v1, 13) ^ v0
            v0 = rotl(v0, 32)
            v2 = v2 + v3
            v3 = rotl(v3, 16) ^ v2
            v0 = v0 + v3
            v3 = rotl(v3, 21) ^ v0
            v2 = v2 + v1
            v1 = rotl(v1, 17) ^ v2
            v2 = rotl(v2, 32)
        return v0, v1, v2, v3

    with np.errstate(over="ignore"):
        for j in range(words.shape[1]):
            m = words[:, j]
            v3 = v3 ^ m
            v0, v1, v2, v3 = rounds(v0, v1, v2, v3, 2)
            v0 = v0 ^ m
        v3 = v3 ^ last
        v0, v1, v2, v3 = rounds(v0, v1, v2, v3, 2)
        v0 = v0 ^ last
        v2 = v2 ^ np.uint64(0xFF)
        v0, v1, v2, v3 = rounds(v0, v1, v2, v3, 4)
    return v0 ^ v1 ^ v2 ^ v3


def _rotl(v: int, shift: int) -> int:
    return ((v << shift) | (v >> (64 - shift))) & MASK


def legacy_hash64(s: bytes, seed: int = 0xDECAFCAFFE) -> int:
    """TensorFlow's Hash64 (core/lib/hash): MurmurHash64A with its seed."""
    m, r = 0xC6A4A7935BD1E995, 47
    n = len(s)
    h = (seed ^ (n * m)) & MASK
    full = n - n % 8
    for i in range(0, full, 8):
        k = (_fetch64(s, i) * m) & MASK
        k ^= k >> r
        k = (k * m) & MASK
        h ^= k
        h = (h * m) & MASK
    tail = s[full:]
    if tail:
        for j in range(len(tail) - 1, -1, -1):
            h ^= tail[j] << (8 * j)
        h = (h * m) & MASK
    h ^= h >> r
    h = (h * m) & MASK
    h ^= h >> r
    return h


# ---- the op records ------------------------------------------------------------------------------

def _as_bytes(v) -> bytes:
    return v if isinstance(v, bytes) else str(v).encode()


def _buckets(hash_fn, strings, num_buckets: int) -> np.ndarray:
    if num_buckets < 1:
        raise InvalidArgumentError(f"num_buckets must be >= 1, got {num_buckets}")
    strings = np.asarray(strings, dtype=object)
    out = np.empty(strings.shape, np.int64)
    flat = out.reshape(-1)
    for i, s in enumerate(strings.reshape(-1)):
        flat[i] = hash_fn(_as_bytes(s)) % num_buckets
    return out


def infer_hash_bucket(input, **_):  # noqa: A002
    return TensorType(d.int64, input.shape)


def infer_hash_bucket_legacy(string_tensor, **_):
    return TensorType(d.int64, string_tensor.shape)


def kernel_hash_bucket_fast(input, num_buckets):  # noqa: A002
    return _buckets(fingerprint64, input, int(num_buckets))


def kernel_hash_bucket_strong(input, num_buckets, key):  # noqa: A002
    k0, k1 = (int(k) & MASK for k in key)
    num_buckets = int(num_buckets)
    if num_buckets < 1:
        raise InvalidArgumentError(f"num_buckets must be >= 1, got {num_buckets}")
    strings = np.asarray(input, dtype=object)
    hashes = siphash24_many(k0, k1, [_as_bytes(v) for v in strings.reshape(-1)])
    return (hashes % np.uint64(num_buckets)).astype(np.int64).reshape(strings.shape)


def kernel_hash_bucket(string_tensor, num_buckets):
    return _buckets(legacy_hash64, string_tensor, int(num_buckets))


string_to_hash_bucket_fast_op = defop(
    "string_to_hash_bucket_fast", "StringToHashBucketFast", inputs=("input: string",),
    attrs={"num_buckets": REQUIRED}, infer=infer_hash_bucket, kernel=kernel_hash_bucket_fast,
    flags=PURE)
string_to_hash_bucket_strong_op = defop(
    "string_to_hash_bucket_strong", "StringToHashBucketStrong", inputs=("input: string",),
    attrs={"num_buckets": REQUIRED, "key": REQUIRED}, infer=infer_hash_bucket,
    kernel=kernel_hash_bucket_strong, flags=PURE)
string_to_hash_bucket_op = defop(
    "string_to_hash_bucket", "StringToHashBucket", inputs=("string_tensor: string",),
    attrs={"num_buckets": REQUIRED}, infer=infer_hash_bucket_legacy,
    kernel=kernel_hash_bucket, flags=PURE)
