"""Gradient rule of RaggedTensorToTensor: each flat value gets the gradient at the dense
position it went to (zero where `shape` cut it off); the default value gets the rest."""

from __future__ import annotations

from ... import dtypes as d
from ...framework.ragged import row_positions
from ...library import math as m
from ...library.array import reshape, shape
from ...library.indexing import gather, gather_nd
from ...library.join_split import stack
from ...library.math import cast, less, multiply, subtract
from ...library.reduce import reduce_all, reduce_sum
from ..registry import defgrad


def _positions(splits: list, n):
    """The dense index [row, col, col, ...] of each of the `n` flat values."""
    levels = []
    for s in splits:
        s = cast(s, d.int64)
        levels.append(row_positions(s[:-1], subtract(s[1:], s[:-1]))[:2])
    r = m.range_(0, n, 1, dtype=d.int64)
    columns = []
    for rows, cols in reversed(levels):
        columns.insert(0, gather(cols, r))
        r = gather(rows, r)
    columns.insert(0, r)
    return stack(columns, axis=1)


@defgrad("RaggedTensorToTensor")
def _ragged_to_tensor_grad(op, g):
    values, default = op.inputs[0], op.inputs[1]
    splits = list(op.inputs[2:])
    coords = _positions(splits, shape(values, out_type=d.int64)[0])
    bounds = shape(g, out_type=d.int64)[:len(splits) + 1]
    inside = reduce_all(less(coords, bounds), axis=1)
    safe = multiply(coords, cast(inside, d.int64)[:, None])
    mask = reshape(cast(inside, g.dtype), [-1] + [1] * (values.shape.rank - 1)) \
        if values.shape.rank is not None else None
    values_grad = gather_nd(g, safe)
    if mask is not None:
        values_grad = multiply(values_grad, mask)
    default_grad = None
    if default.shape.rank == 0:
        default_grad = subtract(reduce_sum(g), reduce_sum(values_grad))
    return [values_grad, default_grad] + [None] * len(splits)
