"""`tf.ragged.constant`: a RaggedTensor from nested Python lists (or NumPy arrays) of varying
lengths; `tf.ragged.range`: rows of evenly spaced numbers."""

from __future__ import annotations

import numpy as np

from .. import dtypes as d
from ..library import math as m
from ..library.array import constant as dense
from ..library.array import shape
from ..library.indexing import gather
from ..library.rearrange import broadcast_to
from ..ops.registry import convert_to_tensor
from .ragged import RaggedTensor, row_positions

__all__ = ["constant", "ragged_range"]


def constant(pylist, dtype=None, ragged_rank=None, inner_shape=None, name=None,
             row_splits_dtype=d.int64):
    """The RaggedTensor of `pylist`: its lists nest `ragged_rank` times (default: all but the
    scalars' level), every scalar at the same depth."""
    if isinstance(pylist, np.ndarray):
        pylist = pylist.tolist()
    if not isinstance(pylist, (list, tuple)):
        return dense(pylist, dtype=dtype)
    depth = _scalar_depth(pylist)
    if ragged_rank is None:
        ragged_rank = max(depth - 1, 0) if inner_shape is None else \
            depth - 1 - len(inner_shape)
    if ragged_rank < 0 or (depth and ragged_rank >= depth):
        raise ValueError(f"Invalid pylist={pylist!r}: incompatible with ragged_rank="
                         f"{ragged_rank}")
    if depth <= 1 or ragged_rank == 0:
        return dense(pylist, dtype=dtype)
    splits_dtype = d.as_dtype(row_splits_dtype).as_numpy_dtype
    nested_splits, level = [], list(pylist)
    for _ in range(ragged_rank):
        splits, flat = [0], []
        for row in level:
            flat.extend(_as_list(row))
            splits.append(len(flat))
        nested_splits.append(np.array(splits, splits_dtype))
        level = flat
    if not level and dtype is None:
        dtype = d.float32
    values = dense(level, dtype=dtype)
    out = values
    for splits in reversed(nested_splits):
        out = RaggedTensor(out, convert_to_tensor(splits), internal=True)
    return out


def _as_list(row):
    if isinstance(row, np.ndarray):
        return row.tolist()
    if not isinstance(row, (list, tuple)):
        raise ValueError("all scalar values must have the same nesting depth")
    return row


def _scalar_depth(x) -> int:
    """The nesting depth of the scalars in `x` (a flat list is 1); ValueError when scalars
    sit at different depths. Empty lists fit any depth."""
    depths = set()

    def walk(v, depth):
        if isinstance(v, np.ndarray):
            v = v.tolist()
        if isinstance(v, (list, tuple)):
            if not v:
                depths.add(("empty", depth + 1))
            for item in v:
                walk(item, depth + 1)
        else:
            depths.add(("scalar", depth))
    walk(x, 0)
    scalars = {dd for kind, dd in depths if kind == "scalar"}
    if len(scalars) > 1:
        raise ValueError("all scalar values must have the same nesting depth")
    if scalars:
        return scalars.pop()
    return max(dd for _, dd in depths)


def ragged_range(starts, limits=None, deltas=1, dtype=None, name=None,
                 row_splits_dtype=d.int64):
    """`tf.ragged.range`: row `i` is `range(starts[i], limits[i], deltas[i])` (a single
    argument gives the limits, starting at 0); scalars broadcast."""
    if limits is None:
        starts, limits = 0, starts
    limits = convert_to_tensor(limits, dtype=dtype)
    starts = convert_to_tensor(starts, dtype=limits.dtype)
    deltas = convert_to_tensor(deltas, dtype=limits.dtype)
    n = shape(m.add(m.add(starts, limits), deltas), out_type=d.int64)
    starts, limits, deltas = (broadcast_to(t, n) for t in (starts, limits, deltas))
    if starts.shape.rank not in (None, 1):
        raise ValueError("starts, limits and deltas must be scalars or vectors")
    span = m.cast(m.subtract(limits, starts), d.float64)
    lengths = m.maximum(m.cast(m.ceil(m.truediv(span, m.cast(deltas, d.float64))), d.int64), 0)
    rows, cols, _ = row_positions(m.range_(0, n[0], 1, dtype=d.int64), lengths)
    values = m.add(gather(starts, rows), m.multiply(m.cast(cols, limits.dtype),
                                                     gather(deltas, rows)))
    splits_dtype = d.as_dtype(row_splits_dtype)
    return RaggedTensor.from_row_lengths(values, m.cast(lengths, splits_dtype), validate=False)
