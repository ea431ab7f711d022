"""Gradient rules of the gathering, scattering and selecting records (gather with and
without batch_dims, gather_nd, scatter_nd, select, clip, one_hot, top_k)."""

from __future__ import annotations

import numpy as np

from .. import dtypes as d
from . import gradutil as G
from .indexing import (
    clip_op,
    gather_nd_op,
    gather_op,
    one_hot_op,
    scatter_nd_op,
    select_op,
    top_k_op,
)
from .registry import defgrad

# ---- gradient rules ---------------------------------------------------------------------------


@defgrad(gather_op)
def _gather_grad(op, g):
    """Scatter-add the gradient slices back to the gathered rows (duplicates add up)."""
    params, indices, axis_t = op.inputs
    rank = params.shape.rank
    axis = int(G.static_value(axis_t)) % rank
    batch_dims = op.attrs.get("batch_dims", 0)
    if batch_dims:
        return _batched_gather_grad(params, indices, axis, batch_dims % indices.shape.rank, g)
    ni = indices.shape.rank
    pdims = G.dims(params)
    # g: params[:axis] + indices.shape + params[axis+1:] -> indices dims first
    perm = list(range(axis, axis + ni)) + list(range(axis)) + \
        list(range(axis + ni, g.shape.rank))
    moved = G.op("transpose", g, np.asarray(perm, np.int32)) if axis else g
    target = [pdims[axis]] + pdims[:axis] + pdims[axis + 1:]
    idx = G.op("expand_dims", G.cast(indices, d.int64) if indices.dtype is not d.int64
               else indices, -1)
    scattered = G.op("scatter_nd", idx, moved, G.cast(G.op("pack", target, axis=0), d.int64)
                     if not all(isinstance(n, int) for n in target) else
                     np.asarray(target, np.int64))
    if axis:
        back = list(range(1, axis + 1)) + [0] + list(range(axis + 1, rank))
        scattered = G.op("transpose", scattered, np.asarray(back, np.int32))
    return scattered, None, None


def _batched_gather_grad(params, indices, axis, batch_dims, g):
    """batch_dims > 0 with axis == batch_dims: rows of the flattened batch are gathered at
    `indices + row * size`, so the gradient is one scatter into the flattened params."""
    pshape, ishape = G.static_shape(params), G.static_shape(indices)
    if axis != batch_dims or pshape is None or ishape is None:
        raise NotImplementedError("the gradient of gather with batch_dims needs axis == "
                                  "batch_dims and static shapes")
    batch = int(np.prod(pshape[:batch_dims], dtype=np.int64))
    size = pshape[axis]
    per = int(np.prod(ishape[batch_dims:], dtype=np.int64))
    rest = list(pshape[axis + 1:])
    offsets = (np.arange(batch, dtype=np.int64) * size)[:, None]
    flat = G.op("add", G.reshape(G.cast(indices, d.int64), np.asarray([batch, per], np.int32)),
                offsets)
    updates = G.reshape(g, np.asarray([batch * per] + rest, np.int32))
    scattered = G.op("scatter_nd", G.reshape(flat, np.asarray([batch * per, 1], np.int32)),
                     updates, np.asarray([batch * size] + rest, np.int64))
    return G.reshape(scattered, np.asarray(pshape, np.int32)), None, None


@defgrad(gather_nd_op)
def _gather_nd_grad(op, g):
    params, indices = op.inputs
    shape = G.as_shape(G.dims(params))
    return G.op("scatter_nd", indices, g, G.cast(G.op("identity", shape), indices.dtype)
                if not isinstance(shape, np.ndarray) else shape.astype(
                    indices.dtype.as_numpy_dtype)), None


@defgrad(scatter_nd_op)
def _scatter_nd_grad(op, g):
    return None, G.op("gather_nd", g, op.inputs[0]), None


@defgrad(select_op)
def _select_grad(op, g):
    cond, t, e = op.inputs
    zeros = G.zeros_like(g)
    return (None, G.unbroadcast(G.op("select", cond, g, zeros), t),
            G.unbroadcast(G.op("select", cond, zeros, g), e))


@defgrad(clip_op)
def _clip_grad(op, g):
    t, lo, hi = op.inputs
    zeros = G.zeros_like(g)
    below = G.op("less", t, lo)
    above = G.op("greater", t, hi)
    inside = G.op("logical_not", G.op("logical_or", below, above))
    return (G.unbroadcast(G.op("select", inside, g, zeros), t),
            G.unbroadcast(G.op("select", below, g, zeros), lo),
            G.unbroadcast(G.op("select", above, g, zeros), hi))




@defgrad(one_hot_op)
def _one_hot_grad(op, g):
    indices, depth = op.inputs[0], op.inputs[1]
    ones = G.cast(G.op("one_hot", indices, depth, 1.0, 0.0, axis=op.attrs["axis"]), g.dtype)
    everything = list(range(g.shape.rank))
    on = G.reduce_sum(G.op("multiply", g, ones), everything)
    off = G.reduce_sum(G.op("multiply", g, G.op("subtract", 1, ones)), everything)
    return None, None, on, off


@defgrad(top_k_op)
def _top_k_grad(op, g_values, g_indices):
    """The values' gradient goes back to where they were taken from (last axis)."""
    x, indices = op.inputs[0], op.outputs[1]
    shape = G.static_shape(x)
    k_shape = G.static_shape(indices)
    if shape is None or k_shape is None or not shape:
        raise NotImplementedError("the gradient of top_k needs static shapes")
    n = shape[-1]
    rows = int(np.prod(shape[:-1], dtype=np.int64))
    k = k_shape[-1]
    offsets = np.arange(rows, dtype=np.int64)[:, None] * n
    flat = G.op("add", G.reshape(G.cast(indices, d.int64), np.asarray([rows, k], np.int32)),
                offsets)
    scattered = G.op("scatter_nd", G.reshape(flat, np.asarray([rows * k, 1], np.int32)),
                     G.reshape(g_values, np.asarray([rows * k], np.int32)),
                     np.asarray([rows * n], np.int64))
    return G.reshape(scattered, np.asarray(shape, np.int32)), None
