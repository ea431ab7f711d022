"""`tf.tensor_scatter_nd_*` and the segment reductions `tf.math.segment_*` and
`tf.math.unsorted_segment_*` (mean and sqrt_n of unsorted segments are composites, as in TF)."""

from __future__ import annotations

from .. import dtypes as d
from ..ops.registry import NO_ATTRS, bind, convert_to_tensor
from ..ops.scatter import (
    tensor_scatter_add_op,
    tensor_scatter_max_op,
    tensor_scatter_min_op,
    tensor_scatter_sub_op,
    tensor_scatter_update_op,
)
from ..ops.segments import (
    segment_max_op,
    segment_mean_op,
    segment_min_op,
    segment_prod_op,
    segment_sum_op,
    unsorted_segment_max_op,
    unsorted_segment_min_op,
    unsorted_segment_prod_op,
    unsorted_segment_sum_op,
)
from .array import ones_like, rank_, reshape, shape
from .join_split import concat
from .math import cast, maximum, sqrt, truediv
from .math import range_ as _range

# ---- tensor_scatter_nd_* -----------------------------------------------------------------------


def tensor_scatter_nd_update(tensor, indices, updates, name=None):
    """A copy of `tensor` with the slices at `indices` replaced by `updates`."""
    return bind(tensor_scatter_update_op, (tensor, indices, updates), NO_ATTRS, name)


def tensor_scatter_nd_add(tensor, indices, updates, name=None):
    return bind(tensor_scatter_add_op, (tensor, indices, updates), NO_ATTRS, name)


def tensor_scatter_nd_sub(tensor, indices, updates, name=None):
    return bind(tensor_scatter_sub_op, (tensor, indices, updates), NO_ATTRS, name)


def tensor_scatter_nd_min(tensor, indices, updates, name=None):
    return bind(tensor_scatter_min_op, (tensor, indices, updates), NO_ATTRS, name)


def tensor_scatter_nd_max(tensor, indices, updates, name=None):
    return bind(tensor_scatter_max_op, (tensor, indices, updates), NO_ATTRS, name)


# ---- sorted segments -----------------------------------------------------------------------------

def segment_sum(data, segment_ids, name=None):
    return bind(segment_sum_op, (data, segment_ids), NO_ATTRS, name)


def segment_mean(data, segment_ids, name=None):
    return bind(segment_mean_op, (data, segment_ids), NO_ATTRS, name)


def segment_prod(data, segment_ids, name=None):
    return bind(segment_prod_op, (data, segment_ids), NO_ATTRS, name)


def segment_min(data, segment_ids, name=None):
    return bind(segment_min_op, (data, segment_ids), NO_ATTRS, name)


def segment_max(data, segment_ids, name=None):
    return bind(segment_max_op, (data, segment_ids), NO_ATTRS, name)


# ---- unsorted segments ---------------------------------------------------------------------------

def unsorted_segment_sum(data, segment_ids, num_segments, name=None):
    return bind(unsorted_segment_sum_op, (data, segment_ids, num_segments), NO_ATTRS, name)


def unsorted_segment_prod(data, segment_ids, num_segments, name=None):
    return bind(unsorted_segment_prod_op, (data, segment_ids, num_segments), NO_ATTRS, name)


def unsorted_segment_min(data, segment_ids, num_segments, name=None):
    return bind(unsorted_segment_min_op, (data, segment_ids, num_segments), NO_ATTRS, name)


def unsorted_segment_max(data, segment_ids, num_segments, name=None):
    return bind(unsorted_segment_max_op, (data, segment_ids, num_segments), NO_ATTRS, name)


def _segment_counts(data, segment_ids, num_segments):
    """How many rows fall in each segment (at least 1), shaped to broadcast against the sums."""
    ids = convert_to_tensor(segment_ids)
    ones = ones_like(reshape(ids, [-1]), dtype=data.dtype)
    count = unsorted_segment_sum(ones, reshape(ids, [-1]), num_segments)
    extra = rank_(data) - rank_(ids)
    count_shape = concat([shape(count), cast(ones_like(_range(extra)), d.int32)], 0)
    return maximum(reshape(count, count_shape), 1)


def unsorted_segment_mean(data, segment_ids, num_segments, name=None):
    """Sum of each segment divided by its number of rows (empty segments: 0)."""
    data = convert_to_tensor(data)
    total = unsorted_segment_sum(data, segment_ids, num_segments)
    return truediv(total, _segment_counts(data, segment_ids, num_segments), name=name)


def unsorted_segment_sqrt_n(data, segment_ids, num_segments, name=None):
    """Sum of each segment divided by the square root of its number of rows."""
    data = convert_to_tensor(data)
    if not data.dtype.is_floating:
        raise TypeError(f"unsorted_segment_sqrt_n needs floating data, got {data.dtype.name}")
    total = unsorted_segment_sum(data, segment_ids, num_segments)
    return truediv(total, sqrt(_segment_counts(data, segment_ids, num_segments)), name=name)

