"""TensorFlow's array functions on ragged values: conversion from dense and to sparse,
`tf.concat`, `tf.stack`, `tf.gather`, `tf.tile`, `tf.reverse`, `tf.expand_dims`.

Every function is built from ops over the flat values and row partitions, so it runs eagerly
and in a tf.function, and gradients reach the flat values (through Gather and ConcatV2). The
one shared step is `row_positions`: from row starts and lengths, the position of every element
of the rows in the flat values.
"""

from __future__ import annotations

from .. import dtypes as d
from ..errors import InvalidArgumentError
from ..library import math as m
from ..library.array import expand_dims as dense_expand_dims
from ..library.array import fill, reshape, shape
from ..library.indexing import gather, scatter_nd, where
from ..library.join_split import concat, stack
from ..library.rearrange import reverse, tile
from ..library.reduce import cumsum, reduce_max, reduce_prod
from ..ops.registry import convert_to_tensor
from .ragged import RaggedTensor, row_positions
from .sparse import SparseTensor
from .tensor import EagerTensor

__all__ = ["to_sparse", "gather_rows", "ragged_concat", "ragged_stack",
           "ragged_gather", "ragged_tile", "ragged_reverse", "ragged_expand_dims",
           "as_ragged_like", "static_rank"]

_I64 = d.int64


def static_rank(x) -> int:
    rank = x.shape.rank
    if rank is None:
        raise ValueError("ragged operations need tensors of known rank")
    return rank


def _zero_one():
    return convert_to_tensor([0], dtype=_I64)


# ---- dense <-> ragged <-> sparse ------------------------------------------------------------

def _levels(rt) -> list:
    out = []
    while isinstance(rt, RaggedTensor):
        out.append(rt)
        rt = rt.values
    return out


def to_sparse(rt):
    """`RaggedTensor.to_sparse` (see there)."""
    levels = _levels(rt)
    positions = [row_positions(level.row_starts(), level.row_lengths())[:2] for level in levels]
    flat = rt.flat_values
    n = shape(flat, out_type=_I64)[0]
    r = m.range_(0, n, 1, dtype=_I64)
    columns = []
    for rows, cols in reversed(positions):
        columns.insert(0, gather(cols, r))
        r = gather(rows, r)
    columns.insert(0, r)
    indices = stack(columns, axis=1)
    values = flat
    inner_rank = static_rank(flat) - 1
    if inner_rank:
        inner_shape = shape(flat, out_type=_I64)[1:]
        inner = where(fill(m.cast(inner_shape, d.int32), True))
        per = reduce_max(concat([_zero_one(), dense_expand_dims(shape(inner, out_type=_I64)[0],
                                                                0)], 0))
        k = m.range_(0, m.multiply(n, per), 1, dtype=_I64)
        indices = concat([gather(indices, m.floordiv(k, per)),
                          gather(inner, m.floormod(k, per))], 1)
        values = reshape(flat, [-1])
    return SparseTensor(indices, values, rt.bounding_shape(out_type=_I64))


# ---- rows -----------------------------------------------------------------------------------

def gather_rows(rt, indices):
    """The rows of `rt` at the 1-D `indices`, in order (a RaggedTensor of the same rank)."""
    indices = m.cast(convert_to_tensor(indices), _I64)
    starts = gather(m.cast(rt.row_starts(), _I64), indices)
    lengths = gather(m.cast(rt.row_lengths(), _I64), indices)
    _, _, pos = row_positions(starts, lengths)
    values = rt.values
    values = gather_rows(values, pos) if isinstance(values, RaggedTensor) else \
        gather(values, pos)
    return RaggedTensor.from_row_lengths(values, m.cast(lengths, rt.row_splits.dtype),
                                         validate=False)


def _gather_values(values, pos):
    return gather_rows(values, pos) if isinstance(values, RaggedTensor) else gather(values, pos)


def as_ragged_like(x, ragged_rank: int, splits_dtype=_I64):
    """`x` as a RaggedTensor of `ragged_rank` (a dense tensor's rows kept whole)."""
    if isinstance(x, RaggedTensor):
        if x.ragged_rank != ragged_rank:
            raise ValueError(f"all inputs must have the same ragged_rank; got {x.ragged_rank} "
                             f"and {ragged_rank}")
        return x
    t = convert_to_tensor(x)
    if static_rank(t) <= ragged_rank:
        raise ValueError(f"a tensor of rank {t.shape.rank} cannot join ragged values of "
                         f"ragged_rank {ragged_rank}")
    out = RaggedTensor.from_tensor(t, ragged_rank=ragged_rank, row_splits_dtype=splits_dtype)
    return _without_uniform(out)


def _without_uniform(rt):
    if not isinstance(rt, RaggedTensor):
        return rt
    return RaggedTensor(_without_uniform(rt.values), rt.row_splits, internal=True)


def _concat_rows(rts: list):
    """Rows of every input, one after another (axis 0)."""
    values = [rt.values for rt in rts]
    joined = _concat_rows(values) if isinstance(values[0], RaggedTensor) else \
        concat(values, 0)
    dtype = rts[0].row_splits.dtype
    pieces, offset = [rts[0].row_splits], rts[0].row_splits[-1:]
    for rt in rts[1:]:
        splits = m.cast(rt.row_splits, dtype)
        pieces.append(m.add(splits[1:], offset))
        offset = m.add(offset, splits[-1:])
    return RaggedTensor.from_row_splits(joined, concat(pieces, 0), validate=False)


def _check_same_nrows(rts) -> None:
    n = [rt.row_splits for rt in rts]
    if all(isinstance(s, EagerTensor) for s in n) and len({int(s.shape[0]) for s in n}) > 1:
        raise InvalidArgumentError("Input tensors at index 0 (=x) and 1 (=y) have "
                                   "incompatible shapes.")


def _concat_within_rows(rts: list):
    """Row `i` of the result is row `i` of every input, joined (axis 1)."""
    _check_same_nrows(rts)
    lengths = [m.cast(rt.row_lengths(), _I64) for rt in rts]
    total = lengths[0]
    for length in lengths[1:]:
        total = m.add(total, length)
    out_starts = concat([_zero_one(), cumsum(total)], 0)[:-1]
    prefix = None
    pos_parts = []
    for rt, length in zip(rts, lengths):
        rows, cols, _ = row_positions(m.cast(rt.row_starts(), _I64), length)
        base = out_starts if prefix is None else m.add(out_starts, prefix)
        pos_parts.append(m.add(gather(base, rows), cols))
        prefix = length if prefix is None else m.add(prefix, length)
    pos = concat(pos_parts, 0)
    n = shape(pos, out_type=_I64)
    inverse = reshape(scatter_nd(dense_expand_dims(pos, 1), m.range_(0, n[0], 1, dtype=_I64),
                                 n), [-1])   # (a vector, whatever ScatterNd infers)
    values = [rt.values for rt in rts]
    joined = _concat_rows(values) if isinstance(values[0], RaggedTensor) else concat(values, 0)
    return RaggedTensor.from_row_lengths(_gather_values(joined, inverse),
                                         m.cast(total, rts[0].row_splits.dtype),
                                         validate=False)


def ragged_concat(values, axis, name=None):
    """`tf.concat` with ragged inputs: axis 0 appends rows, axis 1 joins each row's values,
    deeper axes join within the rows' values (the inputs share their row partitions)."""
    values = list(values)
    ragged = [v for v in values if isinstance(v, RaggedTensor)]
    rank = max(r.shape.rank for r in ragged)
    ragged_rank = max(r.ragged_rank for r in ragged)
    axis = int(axis)
    if axis < 0:
        axis += rank
    if not 0 <= axis < rank:
        raise ValueError(f"axis={axis} out of bounds: expected {-rank}<=axis<{rank}")
    if len(values) == 1:
        return values[0]
    rts = [as_ragged_like(v, ragged_rank, ragged[0].row_splits.dtype) for v in values]
    if axis == 0:
        return _concat_rows(rts)
    if axis == 1:
        return _concat_within_rows(rts)
    _check_same_partitions(rts)
    inner = [rt.values for rt in rts]
    if isinstance(inner[0], RaggedTensor):
        joined = ragged_concat(inner, axis - 1)
    else:
        joined = concat(inner, axis - 1)
    return rts[0].with_values(joined)


def _check_same_partitions(rts) -> None:
    first = rts[0].row_splits
    for rt in rts[1:]:
        s = rt.row_splits
        if isinstance(first, EagerTensor) and isinstance(s, EagerTensor) and (
                first.shape != s.shape or (first.numpy() != s.numpy()).any()):
            raise InvalidArgumentError("Inputs must have identical ragged splits")


def ragged_stack(values, axis=0, name=None):
    """`tf.stack` with ragged inputs: a new dimension of the inputs at `axis` (0 or 1)."""
    values = list(values)
    ragged = [v for v in values if isinstance(v, RaggedTensor)]
    ragged_rank = max(r.ragged_rank for r in ragged)
    rank = max(r.shape.rank for r in ragged) + 1
    axis = int(axis)
    if axis < 0:
        axis += rank
    rts = [as_ragged_like(v, ragged_rank, ragged[0].row_splits.dtype) for v in values]
    dtype = rts[0].row_splits.dtype
    if axis == 0:
        counts = [m.cast(rt.nrows(), dtype) for rt in rts]
        splits = concat([convert_to_tensor([0], dtype=dtype), cumsum(stack(counts))], 0)
        return RaggedTensor.from_row_splits(_concat_rows(rts), splits, validate=False)
    if axis == 1:
        _check_same_nrows(rts)
        k = len(rts)
        n = m.cast(rts[0].nrows(), _I64)
        joined = _concat_rows(rts)
        j = m.range_(0, m.multiply(n, k), 1, dtype=_I64)
        order = m.add(m.multiply(m.floormod(j, k), n), m.floordiv(j, k))
        return RaggedTensor.from_uniform_row_length(gather_rows(joined, order),
                                                    convert_to_tensor(k, dtype=dtype),
                                                    nrows=m.cast(n, dtype), validate=False)
    _check_same_partitions(rts)
    inner = [rt.values for rt in rts]
    joined = ragged_stack(inner, axis - 1) if isinstance(inner[0], RaggedTensor) else \
        stack(inner, axis - 1)
    return rts[0].with_values(joined)


def ragged_gather(params, indices, validate_indices=None, axis=None, batch_dims=0, name=None):
    """`tf.gather` with ragged params (rows at the indices) or ragged indices (the result
    keeps the indices' rows)."""
    if (axis not in (None, 0)) or batch_dims != 0:
        raise NotImplementedError("tf.gather on ragged values supports axis=0 and batch_dims=0 "
                                  "in tracegraph")
    if isinstance(indices, RaggedTensor):
        return indices.with_flat_values(ragged_gather(params, indices.flat_values))
    if not isinstance(params, RaggedTensor):
        return gather(params, indices)
    idx = convert_to_tensor(indices)
    rank = static_rank(idx)
    if rank == 0:
        return params[idx]
    flat = gather_rows(params, reshape(idx, [-1]))
    dims = shape(idx, out_type=params.row_splits.dtype)
    for axis_ in range(rank - 1, 0, -1):
        outer = m.cast(reduce_prod_dims(dims[:axis_]), params.row_splits.dtype)
        splits = m.range_(0, m.add(m.multiply(outer, dims[axis_]), 1), dims[axis_],
                          dtype=params.row_splits.dtype)
        flat = RaggedTensor.from_row_splits(flat, splits, validate=False)
    return flat


def reduce_prod_dims(dims):
    return reduce_prod(dims)


def ragged_tile(input, multiples, name=None):  # noqa: A002
    """`tf.tile` of a ragged value of ragged_rank 1: each row repeated within itself
    (`multiples[1]`), then the rows repeated (`multiples[0]`)."""
    rt = input
    if rt.ragged_rank != 1:
        raise NotImplementedError("tf.tile of a RaggedTensor supports ragged_rank 1 in "
                                  "tracegraph")
    multiples = m.cast(convert_to_tensor(multiples), _I64)
    starts = m.cast(rt.row_starts(), _I64)
    lengths = m.cast(rt.row_lengths(), _I64)
    rows, cols, _ = row_positions(starts, m.multiply(lengths, multiples[1]))
    src = m.add(gather(starts, rows), m.floormod(cols, m.maximum(gather(lengths, rows), 1)))
    values = gather(rt.values, src)
    if static_rank(rt.values) > 1:
        values = tile(values, concat([convert_to_tensor([1], dtype=_I64), multiples[2:]], 0))
    dtype = rt.row_splits.dtype
    out = RaggedTensor.from_row_lengths(values, m.cast(m.multiply(lengths, multiples[1]),
                                                       dtype), validate=False)
    n = m.cast(rt.nrows(), _I64)
    order = m.floormod(m.range_(0, m.multiply(n, multiples[0]), 1, dtype=_I64),
                       m.maximum(n, 1))
    return gather_rows(out, order)


def ragged_reverse(tensor, axis, name=None):
    """`tf.reverse` of a ragged value: axis 0 reverses the rows, axis 1 each row's values,
    deeper axes within the values."""
    rt = tensor
    axes = axis if isinstance(axis, (list, tuple)) else \
        [int(a) for a in convert_to_tensor(axis).numpy().reshape(-1)]
    rank = rt.shape.rank
    for a in sorted({int(a) % rank for a in axes}, reverse=True):
        if a == 0:
            n = m.cast(rt.nrows(), _I64)
            rt = gather_rows(rt, m.range_(n - 1, -1, -1, dtype=_I64))
        elif a == 1:
            starts = m.cast(rt.row_starts(), _I64)
            lengths = m.cast(rt.row_lengths(), _I64)
            rows, cols, _ = row_positions(starts, lengths)
            src = m.subtract(m.add(gather(starts, rows), gather(lengths, rows)),
                             m.add(cols, 1))
            rt = rt.with_values(_gather_values(rt.values, src))
        else:
            values = rt.values
            if isinstance(values, RaggedTensor):
                rt = rt.with_values(ragged_reverse(values, [a - 1]))
            else:
                rt = rt.with_values(reverse(values, [a - 1]))
    return rt


def ragged_expand_dims(input, axis, name=None):  # noqa: A002
    """`tf.expand_dims` of a ragged value: a new uniform dimension of size 1 at `axis`."""
    rt = input
    rank = rt.shape.rank
    axis = int(axis)
    if axis < 0:
        axis += rank + 1
    dtype = rt.row_splits.dtype
    if axis == 0:
        return RaggedTensor.from_uniform_row_length(rt, m.cast(rt.nrows(), dtype),
                                                    nrows=convert_to_tensor(1, dtype=dtype),
                                                    validate=False)
    if axis == 1:
        return RaggedTensor.from_uniform_row_length(rt, convert_to_tensor(1, dtype=dtype),
                                                    validate=False)
    values = rt.values
    inner = ragged_expand_dims(values, axis - 1) if isinstance(values, RaggedTensor) else \
        dense_expand_dims(values, axis - 1)
    return rt.with_values(inner)
