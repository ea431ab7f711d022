"""Gathering, scattering, selecting and generating: gather (axis, batch_dims), gather_nd,
scatter_nd, where/select, one_hot, top_k, sort, unique, boolean_mask, clip, range, linspace.
"""

from __future__ import annotations

import numpy as np

from .. import dtypes as d
from ..errors import InvalidArgumentError
from ..shapes import TensorType, broadcast_shapes, format_dims
from . import infer as I
from .allocation import check_allocation
from .infer import runtime as _runtime
from .registry import (
    ALL_TYPES,
    BOOL,
    INDEX,
    NUMBER,
    PURE,
    REAL,
    TypeAttr,
    defop,
)
from .top_k_order import top_k_order

_T = {"T": TypeAttr(ALL_TYPES)}


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
                  infer=infer_gather, kernel=kernel_gather, flags=PURE)


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
                     infer=infer_gather_nd, kernel=kernel_gather_nd, flags=PURE)


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
                      infer=infer_scatter_nd, kernel=kernel_scatter_nd, flags=PURE)

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
                  infer=infer_select, kernel=kernel_select, flags=PURE | {"elementwise"},
                  jit="({1} if {0} else {2})")


def infer_where_indices(input):  # noqa: A002
    rank = None if input.shape is None else len(input.shape)
    return TensorType(d.int64, (None, rank))


def kernel_where_indices(input):  # noqa: A002
    return np.argwhere(np.asarray(input)).astype(np.int64)


where_indices_op = defop("where_indices", "Where", inputs=("input: T",),
                         attrs={"T": TypeAttr(NUMBER | BOOL)}, infer=infer_where_indices,
                         kernel=kernel_where_indices, flags=PURE | {"data_dependent_shape"})

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
    check_allocation(indices.shape + (n,), np.asarray(on_value).dtype)
    hot = indices[..., None] == np.arange(n)
    out = np.where(hot, on_value, off_value)
    return out if ax == indices.ndim else np.moveaxis(out, -1, ax)


one_hot_op = defop("one_hot", "OneHot",
                   inputs=("indices: TI", "depth: int32", "on_value: T", "off_value: T"),
                   attrs={**_T, "TI": TypeAttr({d.uint8, d.int8, d.int32, d.int64}),
                          "axis": -1},
                   infer=infer_one_hot, kernel=kernel_one_hot, flags=PURE)


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
                flags=PURE | {"elementwise"},
                jit="np.maximum(np.minimum({0}, {2}), {1})")

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
    order = top_k_order(x, k)   # largest first, ties lower index first, NaN last
    return [np.take_along_axis(x, order, axis=-1), order.astype(np.int32)]


top_k_op = defop("top_k", "TopKV2", inputs=("input: T", "k: int32"),
                 attrs={"T": TypeAttr(REAL), "sorted": True}, infer=infer_top_k,
                 kernel=kernel_top_k, num_outputs=2, flags=PURE)


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
                  flags=PURE | {"data_dependent_shape"})
