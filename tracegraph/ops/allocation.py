"""The allocation guard: kernels that create an output from a requested shape (Fill, Range,
Tile, the random ops) check its size first, so a huge but valid request fails with TensorFlow's
`ResourceExhaustedError` before anything is allocated, never with a `MemoryError` after.

TensorFlow's CPU allocator refuses a tensor larger than the machine's memory; the limit here is
the same (physical memory, read once).
"""

from __future__ import annotations

import os

import numpy as np

from .. import dtypes as d
from ..errors import ResourceExhaustedError

__all__ = ["check_allocation", "memory_limit"]

_CPP_NAMES = {d.float32: "float", d.float64: "double", d.float16: "half"}


def _physical_memory() -> int:
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError, AttributeError):  # not on POSIX: no limit known
        return 1 << 62


_LIMIT = _physical_memory()


def memory_limit() -> int:
    """The largest tensor, in bytes, a kernel may allocate."""
    return _LIMIT


def check_allocation(shape, np_dtype) -> None:
    """Raises `ResourceExhaustedError` when a tensor of `shape` and `np_dtype` would not fit.

    The product is computed with Python ints, so no dimension wraps around.
    """
    n = 1
    for s in shape:
        n *= int(s)
    itemsize = np.dtype(np_dtype).itemsize
    if n * itemsize <= _LIMIT:
        return
    dtype = d.NUMPY_TO_DTYPE.get(np.dtype(np_dtype), d.string)
    dims = ",".join(str(int(s)) for s in shape)
    raise ResourceExhaustedError(
        f"OOM when allocating tensor with shape[{dims}] and type "
        f"{_CPP_NAMES.get(dtype, dtype.name)} on /job:localhost/replica:0/task:0/device:CPU:0 "
        "by allocator cpu")
