"""Searching sorted rows, counting values and broadcasting shape vectors: LowerBound and
UpperBound (`tf.searchsorted`: row b of `values` searched in row b of `sorted_inputs`),
UniqueWithCounts, BroadcastArgs (`tf.broadcast_dynamic_shape`)."""

from __future__ import annotations

import collections

import numpy as np

from .. import dtypes as d
from ..shapes import TensorType, broadcast_shapes, format_dims
from . import infer as I
from .indexing import kernel_unique
from .infer import runtime as _runtime
from .registry import ALL_TYPES, INDEX, PURE, REAL, TypeAttr, defop


def _check_bounds(sorted_inputs: tuple, values: tuple) -> None:
    if len(sorted_inputs) != 2 or len(values) != 2:
        raise ValueError(f"sorted_inputs and values must be 2-D, got "
                         f"{format_dims(sorted_inputs)} and {format_dims(values)}")
    if None not in (sorted_inputs[0], values[0]) and sorted_inputs[0] != values[0]:
        raise ValueError(f"Leading dim_size of both tensors must match, got "
                         f"{sorted_inputs[0]} and {values[0]}")


def infer_bound(sorted_inputs, values, out_type=d.int32):
    if sorted_inputs.shape is not None and values.shape is not None:
        _check_bounds(sorted_inputs.shape, values.shape)
    return TensorType(out_type, values.shape)


def _bound_kernel(side: str):
    def kernel(sorted_inputs, values, out_type=d.int32):
        rows, vals = np.asarray(sorted_inputs), np.asarray(values)
        _runtime(_check_bounds, rows.shape, vals.shape)
        out = np.empty(vals.shape, dtype=out_type.as_numpy_dtype)
        for b in range(vals.shape[0]):
            out[b] = np.searchsorted(rows[b], vals[b], side=side)
        return out
    return kernel


def _bound(name: str, tf_type: str, side: str):
    return defop(name, tf_type, inputs=("sorted_inputs: T", "values: T"),
                 attrs={"T": TypeAttr(REAL), "out_type": d.int32},
                 infer=infer_bound, kernel=_bound_kernel(side), flags=PURE)


lower_bound_op = _bound("lower_bound", "LowerBound", "left")
upper_bound_op = _bound("upper_bound", "UpperBound", "right")


def _broadcast_args(s0: tuple, s1: tuple) -> tuple:
    try:
        return broadcast_shapes(s0, s1)
    except ValueError:
        raise ValueError(f"Incompatible shapes: {format_dims(s0)} vs. {format_dims(s1)}") \
            from None


def infer_broadcast_args(s0, s1):
    a, b = I.known_ints(s0), I.known_ints(s1)
    if a is not None and b is not None:
        out = np.asarray(_broadcast_args(tuple(a), tuple(b)), s0.dtype.as_numpy_dtype)
        return TensorType(s0.dtype, out.shape, out)
    n0 = None if s0.shape is None else s0.shape[0]
    n1 = None if s1.shape is None else s1.shape[0]
    return TensorType(s0.dtype, (max(n0, n1) if None not in (n0, n1) else None,))


def kernel_broadcast_args(s0, s1):
    s0, s1 = np.asarray(s0), np.asarray(s1)
    out = _runtime(_broadcast_args, tuple(int(v) for v in s0), tuple(int(v) for v in s1))
    return np.asarray(out, dtype=s0.dtype).reshape(-1)


broadcast_args_op = defop("broadcast_args", "BroadcastArgs", inputs=("s0: T", "s1: T"),
                          attrs={"T": TypeAttr(INDEX, d.int32)}, infer=infer_broadcast_args,
                          kernel=kernel_broadcast_args, flags=PURE)


def infer_unique_with_counts(x, out_idx=d.int32):
    if x.shape is not None and len(x.shape) != 1:
        raise ValueError("unique expects a 1D vector.")
    return (TensorType(x.dtype, (None,)), TensorType(out_idx, x.shape),
            TensorType(out_idx, (None,)))


def kernel_unique_with_counts(x, out_idx=d.int32):
    y, idx = kernel_unique(x, out_idx)
    counts = np.bincount(idx, minlength=len(y)).astype(out_idx.as_numpy_dtype) if idx.size \
        else np.empty((0,), out_idx.as_numpy_dtype)
    return [y, idx, counts]


unique_with_counts_op = defop("unique_with_counts", "UniqueWithCounts", inputs=("x: T",),
                              attrs={"T": TypeAttr(ALL_TYPES), "out_idx": d.int32},
                              infer=infer_unique_with_counts,
                              kernel=kernel_unique_with_counts, num_outputs=3,
                              flags=PURE | {"data_dependent_shape"})

# What `tf.unique_with_counts` returns: a namedtuple of the three results, named as in TF.
UNIQUE_WITH_COUNTS_RESULT = collections.namedtuple(unique_with_counts_op.tf_type,
                                                   ["y", "idx", "count"])
