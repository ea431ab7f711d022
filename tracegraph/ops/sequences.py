"""Sequences generated from scalars: the records of Range and LinSpace."""

from __future__ import annotations

import numpy as np

from .. import dtypes as d
from ..shapes import TensorType, broadcast_shapes
from . import infer as I
from .allocation import check_allocation
from .infer import runtime as _runtime
from .registry import (
    FLOAT,
    INDEX,
    PURE,
    REAL,
    TypeAttr,
    defop,
)

# ---- range, linspace -----------------------------------------------------------------------------


_INT64_MAX = 2**63 - 1


def _number(v) -> str:
    """A scalar as TensorFlow's messages print it (C++ streams: 5, 0.5, nan, inf)."""
    return str(int(v)) if isinstance(v, (int, np.integer)) else f"{float(v):g}"


def range_size(start, limit, delta) -> int:
    """The length of Range(start, limit, delta), with TensorFlow's checks in its order
    (ValueError; comparisons written as TensorFlow's, so NaN fails them)."""
    if delta == 0:
        raise ValueError(f"Requires delta != 0: {_number(delta)}")
    if delta > 0 and not start <= limit:
        raise ValueError(f"Requires start <= limit when delta > 0: {_number(start)}/"
                         f"{_number(limit)}")
    if delta < 0 and not start >= limit:
        raise ValueError(f"Requires start >= limit when delta < 0: {_number(start)}/"
                         f"{_number(limit)}")
    if isinstance(start, (int, np.integer)):
        return (abs(int(limit) - int(start)) + abs(int(delta)) - 1) // abs(int(delta))
    with np.errstate(all="ignore"):   # in the dtype, as TensorFlow (float32: 14 / 0.7 is 20)
        size = float(np.ceil(np.abs((limit - start) / delta)))
    if not size <= _INT64_MAX:
        raise ValueError(f"Requires ((limit - start) / delta) <= {_INT64_MAX}")
    return int(size)


def _scalars(dtype, *values):
    """NumPy scalars of `dtype` (Python ints for integer dtypes)."""
    out = [np.asarray(v, dtype).reshape(-1)[0] for v in values]
    return [int(v) for v in out] if np.dtype(dtype).kind in "iu" else out


def infer_range(start, limit, delta):
    vals = [I.known_value(t) for t in (start, limit, delta)]
    if any(v is None for v in vals):
        return TensorType(start.dtype, (None,))
    return TensorType(start.dtype, (range_size(*_scalars(start.dtype.as_numpy_dtype, *vals)),))


def kernel_range(start, limit, delta):
    dtype = np.asarray(start).dtype
    n = _runtime(range_size, *_scalars(dtype, start, limit, delta))
    check_allocation((n,), dtype)
    return (np.asarray(start, dtype) + np.arange(n, dtype=dtype) * np.asarray(delta, dtype)
            if n else np.zeros(0, dtype))


range_op = defop("range", "Range", inputs=("start: Tidx", "limit: Tidx", "delta: Tidx"),
                 attrs={"Tidx": TypeAttr(REAL - {d.uint8, d.uint16, d.uint32, d.uint64},
                                         d.int32)},
                 infer=infer_range, kernel=kernel_range, flags=PURE)


def _check_num(num) -> None:
    if num is not None and num < 0:
        raise ValueError(f"Requires num >= 0: {num}")


def infer_linspace(start, stop, num):
    """`num` values along a new first axis; batched start/stop broadcast (as tf.linspace)."""
    n = I.known_ints(num)
    _check_num(None if n is None else n[0])
    batch = broadcast_shapes(start.shape, stop.shape)
    return TensorType(start.dtype, None if batch is None else
                      (None if n is None else n[0],) + tuple(batch))


def kernel_linspace(start, stop, num):
    _runtime(_check_num, int(num))
    check_allocation(np.shape(start) + (int(num),), np.asarray(start).dtype)
    return np.linspace(start, stop, int(num), dtype=np.asarray(start).dtype)


linspace_op = defop("linspace", "LinSpace", inputs=("start: T", "stop: T", "num: Tidx"),
                    attrs={"T": TypeAttr(FLOAT), "Tidx": TypeAttr(INDEX, d.int32)},
                    infer=infer_linspace, kernel=kernel_linspace, flags=PURE)
