"""The TensorFlow-style functions of the slicing family, built from its op records."""

from __future__ import annotations

import numpy as np

from .. import dtypes as d
from ..ops.registry import bind
from ..ops.slicing import (
    strided_slice_op,
)
from .join_split import stack
from .math import cast


def _is_int_scalar(x) -> bool:
    dt = getattr(x, "dtype", None)
    return isinstance(dt, d.DType) and dt.is_integer and x.shape.rank == 0

# The mask attrs in the record's order (begin, end, ellipsis, new_axis, shrink_axis).
_MASKS = tuple(k for k in strided_slice_op.attr_defaults if k.endswith("_mask"))


def getitem(tensor, key):
    """Indexing with ints, slices, `tf.newaxis`, `...` and scalar integer tensors."""
    if not isinstance(key, tuple):
        key = (key,)
    begin, end, strides = [], [], []
    masks = dict.fromkeys(_MASKS, 0)
    for i, item in enumerate(key):
        bit = 1 << i
        if isinstance(item, slice):
            for value, mask, out, default in ((item.start, "begin_mask", begin, 0),
                                              (item.stop, "end_mask", end, 0)):
                if value is None:
                    masks[mask] |= bit
                    out.append(default)
                else:
                    out.append(_index_value(value))
            strides.append(1 if item.step is None else _index_value(item.step))
        elif item is Ellipsis:
            masks["ellipsis_mask"] |= bit
            begin.append(0), end.append(0), strides.append(1)
        elif item is None:
            masks["new_axis_mask"] |= bit
            begin.append(0), end.append(0), strides.append(1)
        else:
            value = _index_value(item)
            masks["shrink_axis_mask"] |= bit
            begin.append(value)
            end.append(value + 1 if isinstance(value, int) else value)
            strides.append(1)
    return bind(strided_slice_op, (tensor, _pack(begin), _pack(end), _pack(strides)), masks)


def _index_value(item):
    if isinstance(item, (bool, np.bool_)):
        raise TypeError(_INDEX_ERROR.format(item))
    if isinstance(item, (int, np.integer)):
        return int(item)
    if _is_int_scalar(item):
        return item
    raise TypeError(_INDEX_ERROR.format(item))


_INDEX_ERROR = ("Only integers, slices (`:`), ellipsis (`...`), tf.newaxis (`None`) and scalar "
                "tf.int32/tf.int64 tensors are valid indices, got {!r}")


def _pack(values):
    if all(isinstance(v, int) for v in values):
        return np.array(values, dtype=np.int32 if all(-2**31 <= v < 2**31 for v in values)
                        else np.int64)
    dtype = d.int64 if any(getattr(v, "dtype", None) is d.int64 for v in values) else d.int32
    return stack([cast(v, dtype) if hasattr(v, "dtype") else np.array(v, dtype.as_numpy_dtype)
                  for v in values])


def strided_slice(input_, begin, end, strides=None, begin_mask=0, end_mask=0, ellipsis_mask=0,
                  new_axis_mask=0, shrink_axis_mask=0, var=None, name=None):
    if strides is None:
        strides = [1] * len(begin)
    masks = dict(zip(_MASKS, (begin_mask, end_mask, ellipsis_mask, new_axis_mask,
                              shrink_axis_mask)))
    return bind(strided_slice_op, (input_, begin, end, strides), masks, name)
