"""CRC32C as TensorFlow's tables and tensor bundles use it, from `google_crc32c` (a C
implementation; never a Python loop over data).

TensorFlow stores checksums "masked" (rotated right by 15 bits plus a constant), so that the
CRC of data that itself contains CRCs does not degenerate: `mask` and `unmask` do that.
"""

from __future__ import annotations

import numpy as np

from ...optional_extras import require

__all__ = ["crc32c", "crc32c_of_array", "mask", "unmask"]

_MASK_DELTA = 0xA282EAD8
_CHUNK = 8 << 20


def _module():
    return require("google_crc32c", "tfformats", "TensorFlow's checksums (CRC32C)")


def crc32c(data: bytes, crc: int = 0) -> int:
    """The CRC32C of `data`, continuing from `crc` (0 starts a new one)."""
    return _module().extend(crc, bytes(data))


def crc32c_of_array(arr: np.ndarray, crc: int = 0) -> int:
    """The CRC32C of a contiguous array's bytes, in bounded chunks (no whole copy)."""
    flat = np.ascontiguousarray(arr).reshape(-1).view(np.uint8)
    extend = _module().extend
    for start in range(0, flat.size, _CHUNK):
        crc = extend(crc, flat[start:start + _CHUNK].tobytes())
    return crc


def mask(crc: int) -> int:
    return ((((crc >> 15) | (crc << 17)) & 0xFFFFFFFF) + _MASK_DELTA) & 0xFFFFFFFF


def unmask(masked: int) -> int:
    rot = (masked - _MASK_DELTA) & 0xFFFFFFFF
    return ((rot >> 17) | (rot << 15)) & 0xFFFFFFFF
