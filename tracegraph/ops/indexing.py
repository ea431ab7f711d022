"""Gathering, scattering, selecting and generating: gather (axis, batch_dims), gather_nd,
scatter_nd, where/select, one_hot, top_k, sort, unique, boolean_mask, clip, range, linspace.
"""

from __future__ import annotations

import numpy as np

from .. import dtypes as d
from ..errors import InvalidArgumentError
from ..shapes import TensorType, broadcast_shapes, format_dims
from . import gradutil as G
from . import infer as I
from .registry import (
    ALL_TYPES,
    BOOL,
    FLOAT,
    INDEX,
    NO_ATTRS,
    NUMBER,
    REAL,
    TypeAttr,
    bind,
    convert_to_tensor,
    defgrad,
    defop,
)

_T = {"T": TypeAttr(ALL_TYPES)}
_PURE = {"pure"}


def _check_indices(indices: np.ndarray, bound: int) -> None:
    """TensorFlow's bounds check: `indices[i] = v is not in [0, bound)`."""
    if indices.size == 0:
        return
    bad = (indices < 0) | (indices >= bound)
    if bad.any():
        pos = np.unravel_index(int(np.argmax(bad)), indices.shape)
        where = ",".join(str(int(p)) for p in pos)
        raise InvalidArgumentError(f"indices[{where}] = {int(indices[pos])} is not in "
                                   f"[0, {bound})")


def _runtime(check, *args):
    """Runs a check shared with inference: its ValueError is a runtime InvalidArgumentError."""
    try:
        return check(*args)
    except ValueError as e:
        raise InvalidArgumentError(str(e)) from None


# ---- gather ------------------------------------------------------------------------------------

def _gather_dims(params: tuple, indices: tuple | None, axis: int, batch_dims: int):
    """GatherV2's checks, in TensorFlow's order; returns the normalized (axis, batch_dims)."""
    rank = len(params)
    if rank == 0:
        raise ValueError("params must be at least 1 dimensional")
    if not -rank <= axis < rank:
        need = axis + 1 if axis >= 0 else -axis
        raise ValueError(f"Shape must be at least rank {need} but is rank {rank}")
    axis %= rank
    if batch_dims and indices is not None:
        n = len(indices)
        if not -n <= batch_dims <= n:
            raise ValueError(f"Expected batch_dims in the range [{-n}, {n}], but got "
                             f"{batch_dims}")
        if batch_dims < 0:
            batch_dims += n
        if batch_dims >= rank:
            raise ValueError(f"batch_dims ({batch_dims}) must be less than rank(params) "
                             f"({rank}).")
        if axis < batch_dims:
            raise ValueError(f"batch_dims ({batch_dims}) must be less than or equal to axis "
                             f"({axis}).")
        for i in range(batch_dims):
            if None not in (params[i], indices[i]) and params[i] != indices[i]:
                raise ValueError(f"params.shape[{i}]: {params[i]} should be equal to "
                                 f"indices.shape[{i}]: {indices[i]}")
    return axis, batch_dims


def infer_gather(params, indices, axis, batch_dims=0):
    a = I.known_ints(axis)
    if params.shape is None or indices.shape is None or a is None:
        return TensorType(params.dtype, None)
    ax, bd = _gather_dims(params.shape, indices.shape, a[0], batch_dims)
    shape = params.shape[:ax] + indices.shape[bd:] + params.shape[ax + 1:]
    return TensorType(params.dtype, shape)


def kernel_gather(params, indices, axis, batch_dims=0):
    params = np.asarray(params)
    indices = np.asarray(indices)
    ax, batch_dims = _runtime(_gather_dims, params.shape, indices.shape, int(axis), batch_dims)
    _check_indices(indices, params.shape[ax])
    if batch_dims == 0:
        return np.take(params, indices, axis=ax)
    batch = params.shape[:batch_dims]
    p = params.reshape((-1,) + params.shape[batch_dims:])
    i = indices.reshape((-1,) + indices.shape[batch_dims:])
    parts = [np.take(p[b], i[b], axis=ax - batch_dims) for b in range(p.shape[0])]
    out = np.stack(parts) if parts else np.empty((0,) + params.shape[batch_dims:ax]
                                                 + indices.shape[batch_dims:]
                                                 + params.shape[ax + 1:], params.dtype)
    return out.reshape(batch + out.shape[1:])


gather_op = defop("gather", "GatherV2",
                  inputs=("params: Tparams", "indices: Tindices", "axis: Taxis"),
                  attrs={"Tparams": TypeAttr(ALL_TYPES), "Tindices": TypeAttr(INDEX),
                         "Taxis": TypeAttr(INDEX, d.int32), "batch_dims": 0},
                  infer=infer_gather, kernel=kernel_gather, flags=_PURE, onnx="Gather")


def _gather_nd_depth(params: tuple, indices: tuple, batch_dims: int):
    """GatherNd's checks; returns the index depth (the last dim of `indices`)."""
    if len(indices) == 0:
        raise ValueError("indices must be at least a vector")
    if batch_dims and len(indices) <= batch_dims:
        raise ValueError(f"batch_dims ({batch_dims}) must be less than the rank of indices "
                         f"({len(indices)})")
    for i in range(batch_dims):
        if None not in (params[i], indices[i]) and params[i] != indices[i]:
            raise ValueError(f"params.shape[{i}]: {params[i]} should be equal to "
                             f"indices.shape[{i}]: {indices[i]}")
    k = indices[-1]
    if k is not None and k > len(params) - batch_dims:
        raise ValueError(f"index innermost dimension length must be <= params rank; saw: {k} "
                         f"vs. {len(params) - batch_dims}")
    return k


def infer_gather_nd(params, indices, batch_dims=0):
    if params.shape is None or indices.shape is None:
        return TensorType(params.dtype, None)
    k = _gather_nd_depth(params.shape, indices.shape, batch_dims)
    if k is None:
        return TensorType(params.dtype, None)
    return TensorType(params.dtype, indices.shape[:-1] + params.shape[batch_dims + k:])


def _gather_nd(params: np.ndarray, indices: np.ndarray) -> np.ndarray:
    k = indices.shape[-1]
    flat = indices.reshape(-1, k)
    for j in range(k):
        bad = (flat[:, j] < 0) | (flat[:, j] >= params.shape[j])
        if bad.any():
            row = int(np.argmax(bad))
            raise InvalidArgumentError(f"indices[{row}] = [{', '.join(map(str, flat[row]))}] "
                                       f"does not index into param shape "
                                       f"{format_dims(params.shape)}")
    out = params[tuple(flat[:, j] for j in range(k))]
    return out.reshape(indices.shape[:-1] + params.shape[k:])


def kernel_gather_nd(params, indices, batch_dims=0):
    params, indices = np.asarray(params), np.asarray(indices)
    k = _runtime(_gather_nd_depth, params.shape, indices.shape, batch_dims)
    if not batch_dims:
        return _gather_nd(params, indices)
    # As TensorFlow does: fold the batch dims into one and prepend its index to each index row.
    batch = int(np.prod(params.shape[:batch_dims], dtype=np.int64))
    p = params.reshape((batch,) + params.shape[batch_dims:])
    rows = indices.reshape(batch, -1, k)
    prefix = np.broadcast_to(np.arange(batch, dtype=rows.dtype)[:, None, None],
                             rows.shape[:2] + (1,))
    out = _gather_nd(p, np.concatenate([prefix, rows], axis=-1))
    return out.reshape(indices.shape[:-1] + params.shape[batch_dims + k:])


gather_nd_op = defop("gather_nd", "GatherNd", inputs=("params: Tparams", "indices: Tindices"),
                     attrs={"Tparams": TypeAttr(ALL_TYPES), "Tindices": TypeAttr(INDEX),
                            "batch_dims": 0},
                     infer=infer_gather_nd, kernel=kernel_gather_nd, flags=_PURE,
                     onnx="GatherND")


def _check_scatter_shapes(indices: tuple, updates: tuple, shape: tuple) -> None:
    """ScatterNd: updates must be indices.shape[:-1] + shape[indices.shape[-1]:]."""
    slice_dim = indices[-1] if len(indices) > 1 else 1
    batch_dim = len(indices) - 1 if len(indices) > 1 else 1
    if None in indices or None in updates or None in shape:
        return
    prefix = ValueError(f"Dimensions [0,{batch_dim}) of indices[shape={format_dims(indices)}] "
                        f"must match dimensions [0,{batch_dim}) of "
                        f"updates[shape={format_dims(updates)}]")
    suffix = ValueError(f"Dimensions [{slice_dim},{len(shape)}) of input[shape="
                        f"{format_dims(shape)}] must match dimensions [{batch_dim},"
                        f"{len(updates)}) of updates[shape={format_dims(updates)}]")
    if len(updates) < batch_dim or any(updates[i] != indices[i] for i in range(batch_dim)):
        raise prefix
    if len(updates) != batch_dim + len(shape) - slice_dim:
        raise suffix
    if any(updates[i + batch_dim] != shape[i + slice_dim]
           for i in range(len(updates) - batch_dim)):
        raise suffix


def infer_scatter_nd(indices, updates, shape):
    target = I.known_ints(shape)
    if target is not None and indices.shape is not None and updates.shape is not None:
        _check_scatter_shapes(indices.shape, updates.shape, tuple(target))
    return TensorType(updates.dtype, None if target is None else tuple(target))


def kernel_scatter_nd(indices, updates, shape):
    target = tuple(int(s) for s in np.asarray(shape).reshape(-1))
    indices, updates = np.asarray(indices), np.asarray(updates)
    _runtime(_check_scatter_shapes, indices.shape, updates.shape, target)
    out = np.zeros(target, dtype=updates.dtype)
    k = indices.shape[-1]
    flat = indices.reshape(-1, k)
    for j in range(k):
        bad = (flat[:, j] < 0) | (flat[:, j] >= target[j])
        if bad.any():
            row = int(np.argmax(bad))
            raise InvalidArgumentError(f"indices[{row}] = [{', '.join(map(str, flat[row]))}] "
                                       f"does not index into shape {format_dims(target)}")
    upd = updates.reshape((flat.shape[0],) + target[k:])
    index = tuple(flat[:, j] for j in range(k))
    if out.dtype == np.bool_:
        np.logical_or.at(out, index, upd)
    else:
        np.add.at(out, index, upd)
    return out


scatter_nd_op = defop("scatter_nd", "ScatterNd",
                      inputs=("indices: Tindices", "updates: T", "shape: Tindices"),
                      attrs={"T": TypeAttr(NUMBER | BOOL), "Tindices": TypeAttr(INDEX)},
                      infer=infer_scatter_nd, kernel=kernel_scatter_nd, flags=_PURE,
                      onnx="ScatterND")

# ---- where / select -----------------------------------------------------------------------------


def _select_shape(condition, t, e):
    try:
        return broadcast_shapes(condition, broadcast_shapes(t, e))
    except ValueError:
        raise ValueError(f"condition {format_dims(condition)}, then {format_dims(t)}, and else "
                         f"{format_dims(e)} must be broadcastable") from None


def infer_select(condition, t, e):
    return TensorType(t.dtype, _select_shape(condition.shape, t.shape, e.shape))


def kernel_select(condition, t, e):
    _runtime(_select_shape, np.shape(condition), np.shape(t), np.shape(e))
    return np.where(condition, t, e)


select_op = defop("select", "SelectV2", inputs=("condition: bool", "t: T", "e: T"), attrs=_T,
                  infer=infer_select, kernel=kernel_select, flags=_PURE | {"elementwise"},
                  onnx="Where")


def infer_where_indices(input):  # noqa: A002
    rank = None if input.shape is None else len(input.shape)
    return TensorType(d.int64, (None, rank))


def kernel_where_indices(input):  # noqa: A002
    return np.argwhere(np.asarray(input)).astype(np.int64)


where_indices_op = defop("where_indices", "Where", inputs=("input: T",),
                         attrs={"T": TypeAttr(NUMBER | BOOL)}, infer=infer_where_indices,
                         kernel=kernel_where_indices, flags=_PURE | {"data_dependent_shape"})

# ---- one_hot, clip -------------------------------------------------------------------------------


def _one_hot_axis(rank: int, depth, axis: int) -> int:
    """The output axis of OneHot for indices of rank `rank`, with TensorFlow's checks."""
    if depth is not None and depth < 0:
        raise ValueError(f"depth must be non-negative, got: {depth}")
    if axis != -1 and not 0 <= axis <= rank:
        raise ValueError(f"Expected axis to be -1 or between [0, {rank + 1}).  But received: "
                         f"{axis}")
    return rank if axis == -1 else axis


def infer_one_hot(indices, depth, on_value, off_value, axis=-1):
    n = I.known_ints(depth)
    dim = None if n is None else n[0]
    if indices.shape is None:
        _one_hot_axis(0, dim, -1)
        return TensorType(on_value.dtype, None)
    ax = _one_hot_axis(len(indices.shape), dim, axis)
    return TensorType(on_value.dtype, indices.shape[:ax] + (dim,) + indices.shape[ax:])


def kernel_one_hot(indices, depth, on_value, off_value, axis=-1):
    indices = np.asarray(indices)
    n = int(depth)
    ax = _runtime(_one_hot_axis, indices.ndim, n, axis)
    hot = indices[..., None] == np.arange(n)
    out = np.where(hot, on_value, off_value)
    return out if ax == indices.ndim else np.moveaxis(out, -1, ax)


one_hot_op = defop("one_hot", "OneHot",
                   inputs=("indices: TI", "depth: int32", "on_value: T", "off_value: T"),
                   attrs={**_T, "TI": TypeAttr({d.uint8, d.int8, d.int32, d.int64}),
                          "axis": -1},
                   infer=infer_one_hot, kernel=kernel_one_hot, flags=_PURE, onnx="OneHot")


def _clip_shape(t, lo, hi):
    """The bounds broadcast against `t`, never `t` against them (TensorFlow's check)."""
    out = broadcast_shapes(broadcast_shapes(t, hi), lo)
    if out is not None and t is not None and tuple(out) != tuple(t):
        raise ValueError(f"Incompatible shapes: {format_dims(t)} vs. {format_dims(out)}")
    return t


def infer_clip(t, clip_value_min, clip_value_max):
    return TensorType(t.dtype, _clip_shape(t.shape, clip_value_min.shape, clip_value_max.shape))


def kernel_clip(t, clip_value_min, clip_value_max):
    _runtime(_clip_shape, np.shape(t), np.shape(clip_value_min), np.shape(clip_value_max))
    # min(t, max) first, then max(., min): with min > max every value becomes min, as in TF.
    return np.maximum(np.minimum(t, clip_value_max), clip_value_min)


clip_op = defop("clip_by_value", "ClipByValue",
                inputs=("t: T", "clip_value_min: T", "clip_value_max: T"),
                attrs={"T": TypeAttr(REAL)}, infer=infer_clip, kernel=kernel_clip,
                flags=_PURE | {"elementwise"}, onnx="Clip")

# ---- top_k, unique -------------------------------------------------------------------------------


def _check_top_k(shape: tuple, k) -> None:
    if len(shape) == 0:
        raise ValueError("input must be >= 1-D, got shape []")
    if k is not None and k < 0:
        raise ValueError(f"Need k >= 0, got {k}")
    if k is not None and shape[-1] is not None and shape[-1] < k:
        raise ValueError(f"input must have at least k columns. Had {shape[-1]}, needed {k}")


def infer_top_k(input, k, sorted=True):  # noqa: A002
    kk = I.known_ints(k)
    if input.shape is None:
        return (TensorType(input.dtype, None), TensorType(d.int32, None))
    last = None if kk is None else kk[0]
    _check_top_k(input.shape, last)
    shape = input.shape[:-1] + (last,)
    return (TensorType(input.dtype, shape), TensorType(d.int32, shape))


def kernel_top_k(input, k, sorted=True):  # noqa: A002
    x = np.asarray(input)
    k = int(k)
    _runtime(_check_top_k, x.shape, k)
    n = x.shape[-1]
    key = np.where(np.isnan(x), -np.inf, x) if x.dtype.kind == "f" else x  # NaN sorts last
    # Descending order; ties keep the lower index first (TensorFlow's order).
    order = (n - 1 - np.argsort(key[..., ::-1], axis=-1, kind="stable"))[..., ::-1][..., :k]
    return [np.take_along_axis(x, order, axis=-1), order.astype(np.int32)]


top_k_op = defop("top_k", "TopKV2", inputs=("input: T", "k: int32"),
                 attrs={"T": TypeAttr(REAL), "sorted": True}, infer=infer_top_k,
                 kernel=kernel_top_k, num_outputs=2, flags=_PURE, onnx="TopK")


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


def _check_unique(shape) -> None:
    if shape is not None and len(shape) != 1:
        raise ValueError("unique expects a 1D vector.")


def infer_unique(x, out_idx=d.int32):
    _check_unique(x.shape)
    return (TensorType(x.dtype, (None,)), TensorType(out_idx, x.shape))


def kernel_unique(x, out_idx=d.int32):
    x = np.asarray(x)
    _runtime(_check_unique, x.shape)
    seen: dict = {}
    idx = np.empty(x.shape, dtype=out_idx.as_numpy_dtype)
    values = []
    for i, v in enumerate(x.tolist()):
        j = seen.get(v)
        if j is None:
            j = seen[v] = len(values)
            values.append(x[i])
        idx[i] = j
    y = np.array(values, dtype=x.dtype) if values else np.empty((0,), x.dtype)
    return [y, idx]


unique_op = defop("unique", "Unique", inputs=("x: T",), attrs={**_T, "out_idx": d.int32},
                  infer=infer_unique, kernel=kernel_unique, num_outputs=2,
                  flags=_PURE | {"data_dependent_shape"})

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
    return np.arange(start, limit, delta, dtype=np.asarray(start).dtype)


range_op = defop("range", "Range", inputs=("start: Tidx", "limit: Tidx", "delta: Tidx"),
                 attrs={"Tidx": TypeAttr(REAL - {d.uint8, d.uint16, d.uint32, d.uint64},
                                         d.int32)},
                 infer=infer_range, kernel=kernel_range, flags=_PURE, onnx="Range")


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
    return np.linspace(start, stop, int(num), dtype=np.asarray(start).dtype)


linspace_op = defop("linspace", "LinSpace", inputs=("start: T", "stop: T", "num: Tidx"),
                    attrs={"T": TypeAttr(FLOAT), "Tidx": TypeAttr(INDEX, d.int32)},
                    infer=infer_linspace, kernel=kernel_linspace, flags=_PURE)

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


# ---- public functions ---------------------------------------------------------------------------


def gather(params, indices, validate_indices=None, axis=None, batch_dims=0, name=None):
    """`tf.gather`: slices of `params` along `axis` at `indices` (bounds are checked)."""
    if axis is None:
        axis = batch_dims
    return bind(gather_op, (params, indices, axis), {"batch_dims": int(batch_dims)}, name)


def gather_nd(params, indices, batch_dims=0, name=None):
    return bind(gather_nd_op, (params, indices), {"batch_dims": int(batch_dims)}, name)


def scatter_nd(indices, updates, shape, name=None):
    return bind(scatter_nd_op, (indices, updates, shape), NO_ATTRS, name)


def where(condition, x=None, y=None, name=None):
    """`tf.where`: elementwise select with x and y, else the indices of true elements."""
    if x is None and y is None:
        return bind(where_indices_op, (condition,), NO_ATTRS, name)
    if x is None or y is None:
        raise ValueError("x and y must both be non-None or both be None.")
    return bind(select_op, (condition, x, y), NO_ATTRS, name)


def one_hot(indices, depth, on_value=None, off_value=None, axis=None, dtype=None, name=None):
    """`tf.one_hot`; `dtype` defaults to on/off values' dtype, else float32 (TF's rules)."""
    dtype = d.as_dtype(dtype) if dtype is not None else None
    on = None if on_value is None else convert_to_tensor(on_value, dtype_hint=dtype)
    off = None if off_value is None else convert_to_tensor(off_value, dtype_hint=dtype)
    if dtype is not None:
        for what, v in (("on_value", on), ("off_value", off)):
            if v is not None and v.dtype != dtype:
                raise TypeError(f"dtype {v.dtype} of {what} does not match dtype parameter "
                                f"{dtype}")
    else:
        dtype = on.dtype if on is not None else (off.dtype if off is not None else d.float32)
    on = convert_to_tensor(1, dtype=dtype) if on is None else on
    off = convert_to_tensor(0, dtype=dtype) if off is None else off
    if on.dtype != off.dtype:
        raise TypeError(f"dtype {on.dtype} of on_value does not match dtype {off.dtype} of "
                        "off_value")
    return bind(one_hot_op, (indices, depth, on, off), {"axis": -1 if axis is None else axis},
                name)


def clip_by_value(t, clip_value_min, clip_value_max, name=None):
    return bind(clip_op, (t, clip_value_min, clip_value_max), NO_ATTRS, name)


def top_k(input, k=1, sorted=True, name=None):  # noqa: A002
    values, indices = bind(top_k_op, (input, k), {"sorted": bool(sorted)}, name)
    return _TopK(values, indices)


class _TopK(tuple):
    """`TopKV2(values=..., indices=...)` as TensorFlow returns it."""

    def __new__(cls, values, indices):
        return super().__new__(cls, (values, indices))

    values = property(lambda self: self[0])
    indices = property(lambda self: self[1])

    def __repr__(self):
        return f"TopKV2(values={self[0]!r}, indices={self[1]!r})"


def sort(values, axis=-1, direction="ASCENDING", name=None):
    return _sort(values, axis, direction, name, want_indices=False)


def argsort(values, axis=-1, direction="ASCENDING", stable=False, name=None):
    return _sort(values, axis, direction, name, want_indices=True)


def _sort(values, axis, direction, name, want_indices):
    """Sorting with top_k, as TensorFlow does; ascending order flips the values first: the
    dtype's max minus x (unsigned), ~x (signed ints: no overflow at the minimum), -x (floats)."""
    from .array import shape, transpose
    from .math import bitwise_xor, negative, subtract
    if direction not in ("ASCENDING", "DESCENDING"):
        raise ValueError(f"Argument `direction` should be one of ASCENDING, DESCENDING. "
                         f"Received: direction={direction}")
    values = convert_to_tensor(values)
    rank = values.shape.rank
    if rank is None:
        raise ValueError("sort needs a tensor of known rank")
    n = shape(values)[axis]  # like TensorFlow: an out-of-range axis fails in StridedSlice
    axis %= rank
    perm = None
    x = values
    if axis != rank - 1:
        perm = list(range(rank))
        perm[axis], perm[-1] = perm[-1], perm[axis]
        x = transpose(x, perm)
    if values.shape[axis] is not None:
        n = values.shape[axis]
    flip = None
    if direction == "ASCENDING":
        dtype = values.dtype
        if dtype.is_unsigned:
            def flip(t):
                return subtract(dtype.max, t)
        elif dtype.is_integer:
            def flip(t):
                return bitwise_xor(t, -1)
        else:
            flip = negative
        x = flip(x)
    top = top_k(x, n)
    if want_indices:
        out = top.indices
    else:
        out = top.values if flip is None else flip(top.values)
    if perm is not None:
        out = transpose(out, perm)
    return out


def unique(x, out_idx=d.int32, name=None):
    y, idx = bind(unique_op, (x,), {"out_idx": d.as_dtype(out_idx)}, name)
    return _Unique(y, idx)


class _Unique(tuple):
    def __new__(cls, y, idx):
        return super().__new__(cls, (y, idx))

    y = property(lambda self: self[0])
    idx = property(lambda self: self[1])


_RANGE_ORDER = (d.int32, d.int64, d.float16, d.float32, d.float64)


def range_(start, limit=None, delta=1, dtype=None, name="range"):
    """`tf.range`: like Python's range; the widest dtype among the arguments wins."""
    from .math import cast
    if limit is None:
        start, limit = 0, start
    dtype = None if dtype is None else d.as_dtype(dtype)
    args = [convert_to_tensor(a, dtype=None if hasattr(a, "dtype") else dtype)
            for a in (start, limit, delta)]
    if dtype is None:
        dtype = max((a.dtype for a in args),
                    key=lambda t: _RANGE_ORDER.index(t) if t in _RANGE_ORDER else 0)
    args = [cast(a, dtype) for a in args]
    return bind(range_op, tuple(args), NO_ATTRS, name)


def linspace(start, stop, num, name=None, axis=0):
    """`num` evenly spaced values from `start` to `stop` (both included), along `axis`."""
    start = convert_to_tensor(start)
    if start.dtype.is_integer:
        from .math import cast
        start = cast(start, d.float64)
    out = bind(linspace_op, (start, stop, num), NO_ATTRS, name if axis == 0 else None)
    rank = out.shape.rank
    if axis == 0 or rank is None or axis % rank == 0:
        return out
    from .array import transpose
    perm = list(range(1, rank))
    perm.insert(axis % rank, 0)
    return transpose(out, perm, name=name)


def boolean_mask(tensor, mask, axis=None, name="boolean_mask"):
    """Elements (or slices along `axis`) of `tensor` where `mask` is true."""
    from .array import reshape, shape
    from .pieces import concat
    tensor = convert_to_tensor(tensor)
    mask = convert_to_tensor(mask)
    k = mask.shape.rank
    if k == 0:
        raise ValueError("mask cannot be scalar.")
    if k is None:
        raise ValueError("Number of mask dimensions must be specified, even if some dimensions "
                         "are None.")
    axis = 0 if axis is None else int(axis)
    tensor.shape[axis:axis + k].assert_is_compatible_with(mask.shape)
    sh = shape(tensor)
    leading = reshape(tensor, concat([sh[:axis], [-1], sh[axis + k:]], 0))
    idx = reshape(where(reshape(mask, [-1])), [-1])
    return gather(leading, idx, axis=axis)


def sequence_mask(lengths, maxlen=None, dtype=d.bool, name=None):
    from .math import cast, less
    from .reduce import reduce_max
    lengths = convert_to_tensor(lengths)
    if maxlen is None:
        maxlen = reduce_max(lengths)
    r = range_(0, maxlen, 1, dtype=lengths.dtype)
    from .array import expand_dims
    out = less(r, expand_dims(lengths, -1))
    return out if d.as_dtype(dtype) is d.bool else cast(out, dtype)

