"""Sequences generated from scalars: the records of Range and LinSpace."""

from __future__ import annotations

import numpy as np

from .. import dtypes as d
from ..errors import InvalidArgumentError
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


def infer_range(start, limit, delta):
    vals = [I.known_ints(t) if start.dtype.is_integer else I.known_value(t)
            for t in (start, limit, delta)]
    if any(v is None for v in vals):
        return TensorType(start.dtype, (None,))
    s, lim, dl = (float(np.asarray(v).reshape(-1)[0]) for v in vals)
    if dl == 0:
        raise ValueError("Requires delta != 0")
    n = max(0, int(np.ceil((lim - s) / dl)))
    return TensorType(start.dtype, (n,))


def kernel_range(start, limit, delta):
    if delta == 0:
        raise InvalidArgumentError(f"Requires delta != 0: {delta}")
    if (delta > 0 and start > limit) or (delta < 0 and start < limit):
        raise InvalidArgumentError(f"Requires start <= limit when delta > 0: {start}/{limit}"
                                   if delta > 0 else
                                   f"Requires start >= limit when delta < 0: {start}/{limit}")
    dtype = np.asarray(start).dtype
    if dtype.kind in "iu":
        n = max(0, -((int(start) - int(limit)) // int(delta)))
    else:
        n = max(0, int(np.ceil((float(limit) - float(start)) / float(delta))))
    check_allocation((n,), dtype)
    return np.arange(start, limit, delta, dtype=np.asarray(start).dtype)


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
