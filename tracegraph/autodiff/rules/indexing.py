"""Gradient rules of the gathering, scattering and selecting records (gather with and without
batch_dims, gather_nd, scatter_nd, select, clip, one_hot, top_k)."""

from __future__ import annotations

import numpy as np

from ... import dtypes as d
from ...framework.indexed_slices import IndexedSlices
from ...library.array import expand_dims, identity, reshape, transpose, zeros_like
from ...library.indexing import gather_nd, one_hot, scatter_nd, where
from ...library.join_split import stack
from ...library.math import (
    add,
    cast,
    greater,
    less,
    logical_not,
    logical_or,
    multiply,
    subtract,
)
from ...library.reduce import reduce_sum
from ...ops.registry import convert_to_tensor
from ..registry import defgrad
from ..static_shapes import as_shape, dims, static_shape, static_value, unbroadcast


@defgrad("GatherV2")
def _gather_grad(op, g):
    """Rows gathered along axis 0: the gradient is a `tf.IndexedSlices` of those rows (an
    optimizer updates only them); otherwise the gradient slices scatter-added back to where
    they were gathered (duplicates add up)."""
    params, indices, axis_t = op.inputs
    rank = params.shape.rank
    axis = int(static_value(axis_t)) % rank
    batch_dims = op.attrs.get("batch_dims", 0)
    if batch_dims:
        return _batched_gather_grad(params, indices, axis, batch_dims % indices.shape.rank, g)
    if axis == 0:
        return _gathered_rows(params, indices, g), None, None
    ni = indices.shape.rank
    pdims = dims(params)
    # g: params[:axis] + indices.shape + params[axis+1:] -> indices dims first
    perm = list(range(axis, axis + ni)) + list(range(axis)) + \
        list(range(axis + ni, g.shape.rank))
    moved = transpose(g, np.asarray(perm, np.int32)) if axis else g
    target = [pdims[axis]] + pdims[:axis] + pdims[axis + 1:]
    idx = cast(indices, d.int64)
    if ni == 0:   # a scalar index: a batch of one row
        idx, moved = reshape(idx, np.asarray([1], np.int32)), expand_dims(moved, 0)
    idx = expand_dims(idx, -1)
    shape = np.asarray(target, np.int64) if all(isinstance(n, int) for n in target) else \
        cast(stack(target, axis=0), d.int64)
    scattered = scatter_nd(idx, moved, shape)
    if axis:
        back = list(range(1, axis + 1)) + [0] + list(range(axis + 1, rank))
        scattered = transpose(scattered, np.asarray(back, np.int32))
    return scattered, None, None


def _gathered_rows(params, indices, g):
    """TensorFlow's IndexedSlices(values=g as [ids, *row shape], indices=the flat ids,
    dense_shape=params' shape as int32)."""
    pdims = dims(params)
    ids = reshape(indices, np.asarray([-1], np.int32))
    rows = reshape(g, as_shape([-1] + pdims[1:]))
    return IndexedSlices(rows, ids, convert_to_tensor(as_shape(pdims)))


def _batched_gather_grad(params, indices, axis, batch_dims, g):
    """batch_dims > 0 with axis == batch_dims: rows of the flattened batch are gathered at
    `indices + row * size`, so the gradient is one scatter into the flattened params."""
    pshape, ishape = static_shape(params), static_shape(indices)
    if axis != batch_dims or pshape is None or ishape is None:
        raise NotImplementedError("the gradient of gather with batch_dims needs axis == "
                                  "batch_dims and static shapes")
    batch = int(np.prod(pshape[:batch_dims], dtype=np.int64))
    size = pshape[axis]
    per = int(np.prod(ishape[batch_dims:], dtype=np.int64))
    rest = list(pshape[axis + 1:])
    offsets = (np.arange(batch, dtype=np.int64) * size)[:, None]
    flat = add(reshape(cast(indices, d.int64), np.asarray([batch, per], np.int32)), offsets)
    updates = reshape(g, np.asarray([batch * per] + rest, np.int32))
    scattered = scatter_nd(reshape(flat, np.asarray([batch * per, 1], np.int32)), updates,
                           np.asarray([batch * size] + rest, np.int64))
    return reshape(scattered, np.asarray(pshape, np.int32)), None, None


@defgrad("GatherNd")
def _gather_nd_grad(op, g):                  # scatter g back to where it was gathered
    params, indices = op.inputs
    shape = as_shape(dims(params))
    shape = shape.astype(indices.dtype.as_numpy_dtype) if isinstance(shape, np.ndarray) else \
        cast(identity(shape), indices.dtype)
    return scatter_nd(indices, g, shape), None


@defgrad("ScatterNd")
def _scatter_nd_grad(op, g):                 # gather g where the updates were scattered
    return None, gather_nd(g, op.inputs[0]), None


@defgrad("SelectV2")
def _select_grad(op, g):                     # g to the chosen side, zeros to the other
    cond, t, e = op.inputs
    zeros = zeros_like(g)
    return (None, unbroadcast(where(cond, g, zeros), t), unbroadcast(where(cond, zeros, g), e))


@defgrad("ClipByValue")
def _clip_grad(op, g):                       # g to t inside the range, else to the bound hit
    t, lo, hi = op.inputs
    zeros = zeros_like(g)
    below, above = less(t, lo), greater(t, hi)
    inside = logical_not(logical_or(below, above))
    return (unbroadcast(where(inside, g, zeros), t), unbroadcast(where(below, g, zeros), lo),
            unbroadcast(where(above, g, zeros), hi))


@defgrad("OneHot")
def _one_hot_grad(op, g):                    # on/off values: sums of g where each was placed
    indices, depth = op.inputs[0], op.inputs[1]
    ones = cast(one_hot(indices, depth, 1.0, 0.0, axis=op.attrs["axis"]), g.dtype)
    everything = list(range(g.shape.rank))
    on = reduce_sum(multiply(g, ones), everything)
    off = reduce_sum(multiply(g, subtract(1, ones)), everything)
    return None, None, on, off


@defgrad("TopKV2")
def _top_k_grad(op, g_values, g_indices):
    """The values' gradient goes back to where they were taken from (last axis)."""
    x, indices = op.inputs[0], op.outputs[1]
    shape = static_shape(x)
    k_shape = static_shape(indices)
    if shape is None or k_shape is None or not shape:
        raise NotImplementedError("the gradient of top_k needs static shapes")
    n = shape[-1]
    rows = int(np.prod(shape[:-1], dtype=np.int64))
    k = k_shape[-1]
    offsets = np.arange(rows, dtype=np.int64)[:, None] * n
    flat = add(reshape(cast(indices, d.int64), np.asarray([rows, k], np.int32)), offsets)
    scattered = scatter_nd(reshape(flat, np.asarray([rows * k, 1], np.int32)),
                           reshape(g_values, np.asarray([rows * k], np.int32)),
                           np.asarray([rows * n], np.int64))
    return reshape(scattered, np.asarray(shape, np.int32)), None
