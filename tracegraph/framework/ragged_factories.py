"""The factories of `tf.RaggedTensor` (`from_row_splits`, `from_row_lengths`, `from_row_starts`,
`from_row_limits`, `from_value_rowids`, `from_uniform_row_length`, the `from_nested_*` forms,
`from_tensor`, `from_sparse`), as a base class of RaggedTensor: each builds the row splits
from its row partition with ops and checks eager partitions as TensorFlow's `validate=True`
does.
"""

from __future__ import annotations

import numpy as np

from .. import dtypes as d
from ..errors import InvalidArgumentError
from ..library import math as m
from ..library.array import expand_dims, fill, reshape, shape
from ..library.indexing import boolean_mask, scatter_nd
from ..library.join_split import concat
from ..library.reduce import cumsum, reduce_all, reduce_max
from ..ops.registry import convert_to_tensor
from .tensor import EagerTensor

__all__ = ["RaggedFactories"]


class RaggedFactories:
    """The factory classmethods of RaggedTensor (`cls` is RaggedTensor)."""

    __slots__ = ()

    @classmethod
    def from_row_splits(cls, values, row_splits, name=None, validate=True):
        values = _as_values(values, cls)
        splits = _as_splits(row_splits)
        if validate:
            _validate_splits(splits, values, cls)
        return cls(values, splits, internal=True)

    @classmethod
    def from_row_lengths(cls, values, row_lengths, name=None, validate=True):
        lengths = _as_splits(row_lengths)
        if validate and isinstance(lengths, EagerTensor) and (lengths.numpy() < 0).any():
            raise InvalidArgumentError("Arguments to from_row_lengths do not form a valid "
                                       "RaggedTensor: row_lengths must be non-negative")
        return cls.from_row_splits(values, _splits_of_lengths(lengths), validate=validate)

    @classmethod
    def from_row_starts(cls, values, row_starts, name=None, validate=True):
        values = _as_values(values, cls)
        starts = _as_splits(row_starts)
        n = m.cast(_nvals(values, cls), starts.dtype)
        return cls.from_row_splits(values, concat([starts, expand_dims(n, 0)], 0),
                                   validate=validate)

    @classmethod
    def from_row_limits(cls, values, row_limits, name=None, validate=True):
        limits = _as_splits(row_limits)
        return cls.from_row_splits(values, concat([convert_to_tensor([0], dtype=limits.dtype),
                                                   limits], 0), validate=validate)

    @classmethod
    def from_value_rowids(cls, values, value_rowids, nrows=None, name=None, validate=True):
        """Rows from the row number of every value (sorted ascending); `nrows` adds empty rows
        at the end (default: the last row id + 1)."""
        values = _as_values(values, cls)
        rowids = _as_splits(value_rowids)
        if validate and isinstance(rowids, EagerTensor):
            ids = rowids.numpy()
            if (np.diff(ids) < 0).any() or (ids < 0).any():
                raise InvalidArgumentError("Arguments to from_value_rowids do not form a valid "
                                           "RaggedTensor: value_rowids must be sorted and "
                                           "non-negative")
        if nrows is None:
            last = rowids[-1:] + 1
            nrows = reduce_max(concat([convert_to_tensor([0], dtype=rowids.dtype), last], 0))
        nrows = m.cast(convert_to_tensor(nrows), rowids.dtype)
        ones = m.cast(m.not_equal(rowids, -1), rowids.dtype)
        lengths = scatter_nd(expand_dims(rowids, -1), ones, expand_dims(nrows, 0))
        return cls.from_row_splits(values, _splits_of_lengths(lengths), validate=validate)

    @classmethod
    def from_uniform_row_length(cls, values, uniform_row_length, nrows=None, validate=True,
                                name=None):
        """Rows of `uniform_row_length` values each (a uniform dimension of the result)."""
        values = _as_values(values, cls)
        length = convert_to_tensor(uniform_row_length, dtype_hint=d.int64)
        if length.dtype not in (d.int32, d.int64):
            raise ValueError("uniform_row_length must be an int32 or int64 scalar")
        nvals = m.cast(_nvals(values, cls), length.dtype)
        if nrows is None:
            nrows = m.floordiv(nvals, m.maximum(length, m.cast(1, length.dtype)))
        nrows = m.cast(convert_to_tensor(nrows), length.dtype)
        splits = m.range_(0, m.add(m.multiply(nrows, length), 1), m.maximum(length, 1),
                          dtype=length.dtype)
        if validate and isinstance(length, EagerTensor) and isinstance(nvals, EagerTensor) and \
                int(length.numpy()) * int(splits.shape[0] - 1) != int(nvals.numpy()):
            raise InvalidArgumentError("Arguments to from_uniform_row_length do not form a "
                                       "valid RaggedTensor: the number of values must be "
                                       "nrows * uniform_row_length")
        static = int(length.numpy()) if isinstance(length, EagerTensor) else \
            _static_int(length)
        return cls(values, splits, internal=True,
                   uniform_row_length=static if static is not None else length)

    @classmethod
    def from_nested_row_splits(cls, flat_values, nested_row_splits, name=None, validate=True):
        out = flat_values
        for splits in reversed(list(nested_row_splits)):
            out = cls.from_row_splits(out, splits, validate=validate)
        return out

    @classmethod
    def from_nested_row_lengths(cls, flat_values, nested_row_lengths, name=None,
                                validate=True):
        out = flat_values
        for lengths in reversed(list(nested_row_lengths)):
            out = cls.from_row_lengths(out, lengths, validate=validate)
        return out

    @classmethod
    def from_nested_value_rowids(cls, flat_values, nested_value_rowids, nested_nrows=None,
                                 name=None, validate=True):
        rowids = list(nested_value_rowids)
        nrows = [None] * len(rowids) if nested_nrows is None else list(nested_nrows)
        if len(nrows) != len(rowids):
            raise ValueError("`nested_nrows` must have the same length as "
                             "`nested_value_rowids`")
        out = flat_values
        for ids, n in reversed(list(zip(rowids, nrows))):
            out = cls.from_value_rowids(out, ids, n, validate=validate)
        return out

    @classmethod
    def from_tensor(cls, tensor, lengths=None, padding=None, ragged_rank=1, name=None,
                    row_splits_dtype=d.int64):
        """Rows of a dense tensor: whole (the default), cut to `lengths`, or without their
        trailing `padding` values; `ragged_rank` > 1 makes the leading dims ragged too."""
        return _from_dense(cls, tensor, lengths, padding, ragged_rank, row_splits_dtype)

    @classmethod
    def from_sparse(cls, st_input, name=None, row_splits_dtype=d.int64):
        """The rows of a 2-D SparseTensor whose indices are in row-major order: each row keeps
        its values in order (column numbers are not kept)."""
        if st_input.shape.rank not in (None, 2):
            raise ValueError(f"rank(st_input) must be 2, got {st_input.shape.rank}")
        indices = st_input.indices
        if isinstance(indices, EagerTensor):
            ids = indices.numpy()
            if len(ids) and (np.lexsort(ids.T[::-1]) != np.arange(len(ids))).any():
                raise InvalidArgumentError("Expected indices of the SparseTensor to be sorted "
                                           "in row-major order")
        rowids = m.cast(indices[:, 0], row_splits_dtype)
        nrows = m.cast(st_input.dense_shape[0], row_splits_dtype)
        return cls.from_value_rowids(st_input.values, rowids, nrows, validate=False)



def _as_values(values, cls):
    return values if isinstance(values, cls) else convert_to_tensor(values)


def _nvals(values, cls):
    if isinstance(values, cls):
        return values.nrows()
    return shape(values, out_type=d.int64)[0]


def _static_int(t):
    value = getattr(getattr(t, "tensor_type", None), "value", None)
    return None if value is None else int(np.asarray(value))


def _splits_of_lengths(lengths):
    return concat([convert_to_tensor([0], dtype=lengths.dtype), cumsum(lengths)], 0)


def _as_splits(splits):
    t = convert_to_tensor(splits, dtype_hint=d.int64)
    if t.dtype not in (d.int32, d.int64):
        raise ValueError(f"Row partitioning tensors must have dtype int32 or int64, got "
                         f"{t.dtype.name}")
    return t


def _validate_splits(splits, values, cls) -> None:
    if splits.shape.rank not in (None, 1):
        raise ValueError(f"Shape {splits.shape} must have rank 1")
    if isinstance(splits, EagerTensor):
        s = splits.numpy()
        n = values._static_nrows() if isinstance(values, cls) else (
            values.shape[0] if values.shape.rank else None)
        if s.size == 0 or s[0] != 0 or (np.diff(s) < 0).any() or (n is not None and s[-1] != n):
            raise InvalidArgumentError("Arguments to from_row_splits do not form a valid "
                                       "RaggedTensor: row_splits must start at 0, be sorted and "
                                       "end at the number of values")


def _from_dense(cls, tensor, lengths, padding, ragged_rank, row_splits_dtype):
    """`RaggedTensor.from_tensor` (see there)."""
    t = convert_to_tensor(tensor)
    rank = _static_rank(t)
    if lengths is not None and padding is not None:
        raise ValueError("Specify argument `lengths` or `padding`, but not both.")
    if not 0 < ragged_rank < rank:
        raise ValueError(f"ragged_rank must be greater than 0 and less than rank(tensor) "
                         f"({rank}); got {ragged_rank}")
    dims = shape(t, out_type=d.int64)
    if ragged_rank > 1:
        inner = reshape(t, concat([convert_to_tensor([-1], dtype=d.int64), dims[2:]], 0))
        inner = _from_dense(cls, inner, lengths, padding, ragged_rank - 1, row_splits_dtype)
        return cls.from_uniform_row_length(inner, m.cast(dims[1], row_splits_dtype),
                                           nrows=m.cast(dims[0], row_splits_dtype))
    width = dims[1]
    if padding is not None:
        pad = convert_to_tensor(padding, dtype=t.dtype)
        keep = m.logical_not(m.equal(t, pad))
        if rank > 2:
            keep = m.logical_not(reduce_all(m.logical_not(keep), axis=list(range(2, rank))))
        place = m.multiply(m.cast(keep, d.int64), m.range_(1, width + 1, 1, dtype=d.int64))
        zeros = fill(m.cast(expand_dims(dims[0], 0), d.int32), convert_to_tensor(
            0, dtype=d.int64))
        lengths = reduce_max(concat([expand_dims(zeros, 1), place], 1), axis=1)
    elif lengths is not None:
        lengths = m.cast(convert_to_tensor(lengths), d.int64)
    else:   # whole rows: a uniform dimension, as TensorFlow keeps it
        values = reshape(t, concat([convert_to_tensor([-1], dtype=d.int64), dims[2:]], 0))
        return cls.from_uniform_row_length(values, m.cast(width, row_splits_dtype),
                                           nrows=m.cast(dims[0], row_splits_dtype))
    mask = m.less(expand_dims(m.range_(0, width, 1, dtype=d.int64), 0),
                  expand_dims(lengths, 1))
    values = boolean_mask(t, mask)
    return cls.from_row_lengths(values, m.cast(lengths, row_splits_dtype), validate=False)


def _static_rank(t) -> int:
    if t.shape.rank is None:
        raise ValueError("RaggedTensor.from_tensor needs a tensor of known rank")
    return t.shape.rank
