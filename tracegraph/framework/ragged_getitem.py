"""Indexing a RaggedTensor as TensorFlow does: `rt[i]` is row i (a Tensor, or a RaggedTensor of
one rank less), `rt[a:b]` the rows a..b, and a tuple indexes further dims, `rt[:, a:b]` slicing
inside every row (each row by its own length: `rt[:, -2:]` is every row's last two values).
Indexing one position of a ragged dimension (`rt[:, 0]`) is refused, as in TensorFlow: the
value would exist in some rows and not others.
"""

from __future__ import annotations

from .. import dtypes as d
from ..library import math as m
from ..library.indexing import gather, where
from ..ops.registry import convert_to_tensor
from .ragged import RaggedTensor, row_positions
from .ragged_array import gather_rows

__all__ = ["getitem"]

_I64 = d.int64


def getitem(rt: RaggedTensor, key):
    if not isinstance(key, tuple):
        key = (key,)
    key = _expand_ellipsis(rt, key)
    if not key:
        return rt
    first, rest = key[0], key[1:]
    if first is None:
        raise NotImplementedError("tf.newaxis in a RaggedTensor index is not supported in "
                                  "tracegraph; use tf.expand_dims")
    if isinstance(first, slice):
        rows = _slice_rows(rt, first)
        return _slice_inner(rows, rest) if rest else rows
    row = _row(rt, first)
    if not rest:
        return row
    return getitem(row, rest) if isinstance(row, RaggedTensor) else row[rest]


def _expand_ellipsis(rt, key: tuple) -> tuple:
    if not any(k is Ellipsis for k in key):
        return key
    i = next(i for i, k in enumerate(key) if k is Ellipsis)
    rank = rt.shape.rank
    fill = rank - (len(key) - 1 - sum(k is None for k in key))
    return key[:i] + (slice(None),) * max(fill, 0) + key[i + 1:]


def _row(rt: RaggedTensor, index):
    """Row `index` (a Python int or an integer scalar tensor; negative counts from the end)."""
    n = rt.row_splits.shape[0]
    if isinstance(index, int) and n is not None:
        if not -(n - 1) <= index < n - 1:
            raise IndexError(f"Index {index} out of bounds for a RaggedTensor with {n - 1} "
                             "rows")
        index %= n - 1
    else:
        index = m.cast(convert_to_tensor(index), rt.row_splits.dtype)
        nrows = rt.nrows()
        index = where(m.less(index, 0), m.add(index, nrows), index)
    start, stop = rt.row_splits[index], rt.row_splits[index + 1]
    values = rt.values
    if isinstance(values, RaggedTensor):
        return gather_rows(values, m.range_(start, stop, 1, dtype=_I64))
    return values[start:stop]


def _slice_rows(rt: RaggedTensor, key: slice):
    if key == slice(None):
        return rt
    n = m.cast(rt.nrows(), _I64)
    return gather_rows(rt, m.range_(0, n, 1, dtype=_I64)[key])


def _bound(value, lengths, default):
    """A slice bound for rows of `lengths` (negative counts from each row's end), clipped."""
    if value is None:
        return default
    v = m.cast(convert_to_tensor(value), _I64)
    v = m.add(v, lengths) if isinstance(value, int) and value < 0 else v
    if not isinstance(value, int):
        v = where(m.less(v, 0), m.add(v, lengths), v)
    return m.minimum(m.maximum(v, 0), lengths)


def _slice_inner(rt: RaggedTensor, rest: tuple):
    key = rest[0]
    if key is Ellipsis or key == slice(None):
        inner = rt.values
        more = rest[1:]
        if not more:
            return rt
        values = getitem(inner, (slice(None),) + more) if isinstance(inner, RaggedTensor) \
            else inner[(slice(None),) + more]
        return rt.with_values(values)
    if not isinstance(key, slice):
        raise ValueError("Cannot index into an inner ragged dimension.")
    if key.step not in (None, 1):
        raise NotImplementedError("slicing inside the rows of a RaggedTensor supports step 1 "
                                  "in tracegraph")
    starts = m.cast(rt.row_starts(), _I64)
    lengths = m.cast(rt.row_lengths(), _I64)
    begin = _bound(key.start, lengths, m.multiply(lengths, 0))
    end = _bound(key.stop, lengths, lengths)
    new_lengths = m.maximum(m.subtract(end, begin), 0)
    _, _, pos = row_positions(m.add(starts, begin), new_lengths)
    values = rt.values
    if isinstance(values, RaggedTensor):
        values = gather_rows(values, pos)
    else:
        values = gather(values, pos)
    more = rest[1:]
    if more:
        values = getitem(values, (slice(None),) + more) if isinstance(values, RaggedTensor) \
            else values[(slice(None),) + more]
    return RaggedTensor.from_row_lengths(values, m.cast(new_lengths, rt.row_splits.dtype),
                                         validate=False)
