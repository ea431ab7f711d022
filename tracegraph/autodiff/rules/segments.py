"""Gradient rules of the tensor_scatter_nd_* records and of the segment reductions, as
TensorFlow's array_grad/math_grad define them (min/max share the gradient among ties)."""

from __future__ import annotations

from ... import dtypes as d
from ...library.array import ones_like, rank_, reshape, shape, zeros_like
from ...library.indexing import gather, gather_nd, scatter_nd, where
from ...library.join_split import concat
from ...library.math import (
    cast,
    divide,
    equal,
    greater,
    greater_equal,
    logical_and,
    maximum,
    multiply,
    negative,
    range_,
)
from ...library.segments import (
    segment_prod,
    segment_sum,
    tensor_scatter_nd_update,
    unsorted_segment_prod,
    unsorted_segment_sum,
)
from ..registry import defgrad

# ---- tensor_scatter_nd_* -------------------------------------------------------------------------


@defgrad("TensorScatterUpdate")
def _tensor_scatter_update_grad(op, g):      # replaced slices get no gradient
    tensor, indices, updates = op.inputs
    return (tensor_scatter_nd_update(g, indices, zeros_like(updates)), None,
            gather_nd(g, indices))


@defgrad("TensorScatterAdd")
def _tensor_scatter_add_grad(op, g):
    return g, None, gather_nd(g, op.inputs[1])


@defgrad("TensorScatterSub")
def _tensor_scatter_sub_grad(op, g):
    return g, None, negative(gather_nd(g, op.inputs[1]))


@defgrad("TensorScatterMin", "TensorScatterMax")
def _tensor_scatter_min_max_grad(op, g):
    """g goes to whichever of tensor and the updates gave the output, shared among ties."""
    tensor, indices, updates = op.inputs
    y = op.outputs[0]
    x_hit = cast(equal(tensor, y), g.dtype)
    u_hit = cast(equal(updates, gather_nd(y, indices)), g.dtype)
    hits = x_hit + scatter_nd(indices, u_hit, shape(tensor, out_type=indices.dtype))
    return (multiply(divide(g, hits), x_hit), None,
            multiply(gather_nd(divide(g, hits), indices), u_hit))


# ---- segment reductions --------------------------------------------------------------------------

def _broadcast_ids(ids, data):
    """`ids` reshaped to broadcast against `data` (trailing dims of 1)."""
    extra = rank_(data) - rank_(ids)
    ones = cast(ones_like(gather(shape(data), range_(extra))), d.int32)
    return reshape(ids, concat([shape(ids), ones], 0))


def _gather_drop_negatives(params, ids):
    """gather(params, ids) with zero rows where an id is negative (dropped by the forward)."""
    gathered = gather(params, maximum(ids, 0))
    keep = greater_equal(_broadcast_ids(ids, gathered), 0)
    return where(keep, gathered, zeros_like(gathered)), keep


@defgrad("SegmentSum")
def _segment_sum_grad(op, g):
    return gather(g, op.inputs[1]), None


@defgrad("SegmentMean")
def _segment_mean_grad(op, g):               # g / count, back to every row of the segment
    data, ids = op.inputs
    counts = segment_sum(ones_like(data), ids)
    return gather(divide(g, counts), ids), None


@defgrad("SegmentMin", "SegmentMax")
def _segment_min_max_grad(op, g):            # to the rows equal to the result, split evenly
    data, ids = op.inputs
    chosen = equal(data, gather(op.outputs[0], ids))
    count = segment_sum(cast(chosen, g.dtype), ids)
    spread = gather(divide(g, count), ids)
    return where(chosen, spread, zeros_like(data)), None


@defgrad("UnsortedSegmentSum")
def _unsorted_segment_sum_grad(op, g):
    return _gather_drop_negatives(g, op.inputs[1])[0], None, None


@defgrad("UnsortedSegmentMin", "UnsortedSegmentMax")
def _unsorted_segment_min_max_grad(op, g):
    data, ids, n = op.inputs
    gathered_out, keep = _gather_drop_negatives(op.outputs[0], ids)
    chosen = logical_and(equal(data, gathered_out), keep)
    count = unsorted_segment_sum(cast(chosen, g.dtype), ids, n)
    spread = _gather_drop_negatives(divide(g, count), ids)[0]
    return where(chosen, spread, zeros_like(data)), None, None


def _prod_partials(data, out, non_zero_prod, gather_fn):
    """d(prod)/d(x): prod/x, or the product of the others where x is the segment's one zero."""
    is_zero = equal(data, zeros_like(data))
    non_zero = where(is_zero, ones_like(data), data)
    by_division = divide(gather_fn(out), non_zero)
    return where(is_zero, gather_fn(non_zero_prod), by_division), is_zero, non_zero


@defgrad("SegmentProd")
def _segment_prod_grad(op, g):
    data, ids = op.inputs
    is_zero = equal(data, zeros_like(data))
    zeros_in = segment_sum(cast(is_zero, d.int32), ids)
    g = where(greater(_broadcast_ids(zeros_in, g), 1), zeros_like(g), g)  # two zeros: none
    non_zero_prod = segment_prod(where(is_zero, ones_like(data), data), ids)
    partial, _, _ = _prod_partials(data, op.outputs[0], non_zero_prod,
                                   lambda t: gather(t, ids))
    return multiply(gather(g, ids), partial), None


@defgrad("UnsortedSegmentProd")
def _unsorted_segment_prod_grad(op, g):
    data, ids, n = op.inputs
    is_zero = equal(data, zeros_like(data))
    zeros_in = unsorted_segment_sum(cast(is_zero, d.int32), ids, n)
    g = where(greater(_broadcast_ids(zeros_in, g), 1), zeros_like(g), g)
    non_zero_prod = unsorted_segment_prod(where(is_zero, ones_like(data), data), ids, n)
    partial, _, _ = _prod_partials(data, op.outputs[0], non_zero_prod,
                                   lambda t: _gather_drop_negatives(t, ids)[0])
    return multiply(_gather_drop_negatives(g, ids)[0], partial), None, None
