"""The TensorFlow-style functions of the join_split family, built from its op records."""

from __future__ import annotations

import numpy as np

from .. import dtypes as d
from ..composite_dispatch import dispatchable
from ..ops.arguments import int_arg
from ..ops.convert import to_array
from ..ops.join_split import (
    check_unpack_axis,
    concat_op,
    pack_op,
    split_op,
    split_v_op,
    unpack_op,
)
from ..ops.registry import NO_ATTRS, bind, convert_to_tensor
from .array import constant, identity


@dispatchable
def concat(values, axis, name="concat"):
    if not isinstance(values, (list, tuple)):
        values = [values]
    if not values:
        raise ValueError("tf.concat needs at least one tensor to concatenate")
    if not isinstance(getattr(axis, "dtype", None), d.DType):
        to_array(axis, d.int32)  # a str or float axis: TensorFlow's conversion TypeError
    if len(values) == 1:
        return identity(values[0], name=name)
    return bind(concat_op, (list(values), axis), NO_ATTRS, name)


@dispatchable
def stack(values, axis=0, name="stack"):
    """`tf.stack`; `axis` is checked against the known rank before the op runs, as in TF."""
    values = list(values)
    if not values:
        return constant([], d.float32, name=name)
    axis = int_arg(axis, "axis")
    first = convert_to_tensor(values[0])
    rank = first.shape.rank
    if rank is not None:
        check_unpack_axis(rank + 1, axis)
    return bind(pack_op, (values,), {"axis": axis}, name)


def unstack(value, num=None, axis=0, name="unstack"):
    value = convert_to_tensor(value)
    axis = int_arg(axis, "axis")
    if value.shape.rank is not None:
        check_unpack_axis(value.shape.rank, axis)
    if num is None:
        shape = value.shape
        if shape.rank is None or shape[axis] is None:
            raise ValueError(f"Cannot infer argument `num` from shape {shape}")
        num = shape[axis]
    return bind(unpack_op, (value,), {"num": int(num), "axis": int(axis)}, name)


def split(value, num_or_size_splits, axis=0, num=None, name="split"):
    """`tf.split`: `num_or_size_splits` equal parts (Split) or parts of the given sizes (SplitV)."""
    if isinstance(num_or_size_splits, (int, np.integer)):
        return bind(split_op, (axis, value), {"num_split": int(num_or_size_splits)}, name)
    sizes = num_or_size_splits
    if num is None:
        num = len(sizes) if isinstance(sizes, (list, tuple)) else None
    if num is None:
        t = convert_to_tensor(sizes)
        num = t.shape[0]
        if num is None:
            raise ValueError("Cannot infer argument `num` from shape <unknown>")
    return bind(split_v_op, (value, sizes, axis), {"num_split": int(num)}, name)
