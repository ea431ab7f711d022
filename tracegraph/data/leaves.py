"""Stacking runtime leaves into a batch, and splitting a batch into rows, for every leaf kind.

Dense leaves stack with NumPy (equal shapes required, TensorFlow's error otherwise); ragged
leaves stack into a RaggedTensor with one more ragged dimension; sparse leaves stack into a
SparseTensor with a leading batch dimension (the dense shape is the largest of the rows').
`unbatch_leaf` is the inverse. Nested datasets cannot be batched (TensorFlow's message).
"""

from __future__ import annotations

import numpy as np

from .. import dtypes as d
from ..errors import InvalidArgumentError
from ..framework.eager import wrap
from ..framework.ragged import RaggedTensor
from ..framework.sparse import SparseTensor
from ..shapes import TensorSpec, format_dims
from .specs import DatasetSpec, RaggedTensorSpec, SparseTensorSpec
from .structure import stack_dense

__all__ = ["batch_leaves", "unbatch_leaf", "check_same_shapes", "ragged_from_arrays"]


def check_same_shapes(values: list, index: int) -> None:
    first = np.shape(values[0])
    for j, v in enumerate(values):
        if np.shape(v) != first:
            if np.size(v) != int(np.prod(first)):
                raise InvalidArgumentError(
                    f"Cannot add tensor to the batch: number of elements does not match. "
                    f"Shapes are: [tensor]: {format_dims(np.shape(v))}, [batch]: "
                    f"{format_dims(first)}")
            raise InvalidArgumentError(
                f"Cannot batch tensors with different shapes in component {index}. First "
                f"element had shape {format_dims(first)} and element {j} had shape "
                f"{format_dims(np.shape(v))}.")


def ragged_from_arrays(flat: np.ndarray, splits: list) -> RaggedTensor:
    """An eager RaggedTensor from NumPy flat values and row splits (outermost first)."""
    out = wrap(flat)
    for s in reversed(splits):
        out = RaggedTensor(out, wrap(np.asarray(s, np.int64)), internal=True)
    return out


def _ragged_parts(spec: RaggedTensorSpec, leaf):
    """(flat values, [row splits...]) of a runtime ragged leaf as NumPy arrays."""
    if spec.ragged_rank == 0:
        return np.asarray(leaf), []
    return leaf.flat_values.known_value, [s.known_value for s in leaf.nested_row_splits]


def batch_leaves(spec, values: list, index: int = 0):
    """The batch of `values` (runtime leaves of `spec`), one runtime leaf of the batch spec."""
    if type(spec) is TensorSpec:
        check_same_shapes(values, index)
        return stack_dense(values, spec.dtype)
    if isinstance(spec, RaggedTensorSpec):
        return _batch_ragged(spec, values)
    if isinstance(spec, SparseTensorSpec):
        return _batch_sparse(spec, values)
    raise InvalidArgumentError("Batching datasets of datasets is not supported: flatten "
                               "the inner datasets first (flat_map / interleave).")


def _batch_ragged(spec: RaggedTensorSpec, values: list) -> RaggedTensor:
    parts = [_ragged_parts(spec, v) for v in values]
    flats = [p[0] for p in parts]
    if spec.dtype is d.string:
        flat = np.concatenate([np.asarray(f, dtype=object).reshape(-1, *np.shape(f)[1:])
                               for f in flats]) if flats else np.zeros((0,), object)
    else:
        flat = np.concatenate([np.asarray(f).reshape((-1,) + np.shape(f)[1:]) for f in flats]) \
            if flats else np.zeros((0,), spec.dtype.numpy_dtype)
    # outer splits: each element contributes its number of rows
    counts = [len(p[1][0]) - 1 if p[1] else np.shape(p[0])[0] for p in parts]
    outer = np.concatenate([[0], np.cumsum(counts)]).astype(np.int64)
    inner = []
    for level in range(spec.ragged_rank):
        pieces, offset = [np.zeros(1, np.int64)], 0
        for p in parts:
            splits = p[1][level]
            pieces.append(splits[1:] + offset)
            offset += int(splits[-1])
        inner.append(np.concatenate(pieces))
    return ragged_from_arrays(flat, [outer] + inner)


def _batch_sparse(spec: SparseTensorSpec, values: list) -> SparseTensor:
    rank = len(values[0].dense_shape.known_value)
    indices, vals = [], []
    shape = np.zeros(rank, np.int64)
    for i, sp in enumerate(values):
        ind = sp.indices.known_value
        indices.append(np.concatenate([np.full((len(ind), 1), i, np.int64), ind], axis=1))
        vals.append(sp.values.known_value)
        shape = np.maximum(shape, sp.dense_shape.known_value)
    ind = np.concatenate(indices) if indices else np.zeros((0, rank + 1), np.int64)
    val = np.concatenate(vals) if vals else np.zeros((0,), spec.dtype.numpy_dtype)
    return SparseTensor(wrap(ind), wrap(val),
                        wrap(np.concatenate([[len(values)], shape]).astype(np.int64)))


def unbatch_leaf(spec, leaf) -> list:
    """The rows of a runtime leaf of the batched `spec`, as runtime leaves of the row spec."""
    if type(spec) is TensorSpec:
        arr = leaf
        if spec.dtype is d.string and np.ndim(arr) == 1:
            return [v for v in arr]
        return list(arr)
    if isinstance(spec, RaggedTensorSpec):
        return _ragged_rows(spec, leaf)
    if isinstance(spec, SparseTensorSpec):
        return _sparse_rows(leaf)
    if isinstance(spec, DatasetSpec):
        return list(leaf)
    raise TypeError(f"cannot unbatch {spec!r}")


def _ragged_rows(spec: RaggedTensorSpec, leaf) -> list:
    if spec.ragged_rank == 0:
        return list(np.asarray(leaf))
    flat, splits = _ragged_parts(spec, leaf)
    outer = splits[0]
    rows = []
    for i in range(len(outer) - 1):
        lo, hi = int(outer[i]), int(outer[i + 1])
        if spec.ragged_rank == 1:
            rows.append(flat[lo:hi])
            continue
        # the row is itself ragged: re-base the inner splits of rows lo..hi
        inner, start, end = [], lo, hi
        for level in splits[1:]:
            piece = level[start:end + 1]
            inner.append(piece - piece[0])
            start, end = int(piece[0]), int(piece[-1])
        rows.append(ragged_from_arrays(flat[start:end], inner))
    return rows


def _sparse_rows(leaf: SparseTensor) -> list:
    ind, val = leaf.indices.known_value, leaf.values.known_value
    shape = leaf.dense_shape.known_value
    rows = []
    for i in range(int(shape[0])):
        mask = ind[:, 0] == i
        rows.append(SparseTensor(wrap(ind[mask][:, 1:]), wrap(val[mask]), wrap(shape[1:])))
    return rows
