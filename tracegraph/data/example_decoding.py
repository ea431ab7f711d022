"""The kernel of `ParseExampleV2`: serialized `tf.train.Example`s to NumPy arrays.

Each example is decoded once by protobuf's C parser (upb); then each requested key is
gathered over the whole batch: the value lists of the examples that hold it are joined by
one `np.fromiter` per key (no per-value Python work), and dense, sparse and ragged outputs
are cut from the joined values with NumPy (repeat/cumsum), not per example. Errors are
TensorFlow's `InvalidArgumentError`s with its words and the example's index (or its name).
"""

from __future__ import annotations

import itertools
import operator

import numpy as np

from .. import dtypes as d
from ..errors import InvalidArgumentError

__all__ = ["decode_examples", "gather_feature", "dense_from_lists", "sparse_from_lists",
           "ragged_from_lists", "FIELD", "TYPE_NAME"]

FIELD = {d.float32: "float_list", d.int64: "int64_list", d.string: "bytes_list"}
TYPE_NAME = {d.float32: "float", d.int64: "int64", d.string: "string"}
_KIND_TYPE = {"float_list": "float", "int64_list": "int64", "bytes_list": "string"}


def example_maps(serialized: list, example_class) -> list:
    """The `features.feature` map of each serialized Example."""
    from google.protobuf.message import DecodeError
    parse = example_class.FromString
    maps = []
    try:
        for s in serialized:
            maps.append(parse(s).features.feature)
    except (DecodeError, TypeError):
        bad = serialized[len(maps)]
        raise InvalidArgumentError(f"Could not parse example input, value: "
                                   f"'{_printable(bad)}'") from None
    return maps


def _printable(value) -> str:
    if not isinstance(value, bytes):
        return str(value)
    return repr(value)[2:-1]


class Where:
    """How errors name the example: TensorFlow's batch form ("Name: <unknown>, Key: a, Index:
    0.") or its single-example form ("Key: a.")."""

    def __init__(self, names, single: bool):
        self.names = names
        self.single = single

    def key(self, key: str, index: int) -> str:
        if self.single:
            return f"Key: {key}."
        return f"Name: {self._name(index)}, Key: {key}, Index: {index}."

    def feature(self, index: int) -> str:
        return "" if self.single else f"Name: {self._name(index)}, "

    def _name(self, index: int) -> str:
        if self.names is not None and index < len(self.names) and self.names[index]:
            name = self.names[index]
            return name.decode() if isinstance(name, bytes) else str(name)
        return "<unknown>"


def gather_feature(maps: list, key: str, dtype, where: Where, dense: bool) -> Column:
    """The key's Column over the examples' feature maps (protobuf's containers): one pass
    that keeps each example's container and value count."""
    field = FIELD[dtype]
    list_of = operator.attrgetter(field)
    present, counts = [], []
    add, count = present.append, counts.append
    missing = None
    for i, fmap in enumerate(maps):
        if key not in fmap:
            if missing is None:
                missing = np.zeros(len(maps), dtype=bool)
            missing[i] = True
            count(0)
            continue
        feature = fmap[key]
        values = list_of(feature)
        n = len(values.value)
        if n:
            add(values)
            count(n)
            continue
        kind = feature.WhichOneof("kind")   # empty: the right kind, no kind, or a wrong one
        if kind is None or kind == field:
            count(0)
            continue
        actual = _KIND_TYPE[kind]
        text = (f"Data types don't match. Data type: {actual} but expected type: "
                f"{TYPE_NAME[dtype]}" if dense else
                f"Data types don't match. Expected type: {TYPE_NAME[dtype]}, Actual type: "
                f"{actual}")
        raise InvalidArgumentError(f"{where.key(key, i)}  {text}")
    counts = np.array(counts, dtype=np.int64)
    if missing is None:
        missing = np.zeros(len(maps), dtype=bool)
    total = int(counts.sum())
    return Column(counts, missing, lambda: _join(present, total, dtype))


def _join(present: list, total: int, dtype) -> np.ndarray:
    """The values of the non-empty *List messages, one after another. Floats are merged in
    protobuf's C code into one FloatList whose packed bytes NumPy reads (no Python float per
    value); int64s and bytes go through one iterator."""
    if dtype is d.float32 and total:
        merged = type(present[0])()
        merge = merged.MergeFrom
        for values in present:
            merge(values)
        packed = merged.SerializeToString()    # tag 0x0a, varint length, little-endian floats
        start = 1
        while packed[start] & 0x80:
            start += 1
        return np.frombuffer(packed, "<f4", offset=start + 1).astype(np.float32)
    chained = itertools.chain.from_iterable(v.value for v in present)
    if dtype is d.string:
        out = np.empty(total, dtype=object)
        if total:
            out[:] = list(chained)
        return out
    return np.fromiter(chained, dtype=dtype.as_numpy_dtype, count=total)


def _counts(lists: list) -> np.ndarray:
    return np.fromiter((0 if v is None else len(v.value) for v in lists), dtype=np.int64,
                       count=len(lists))


class Column:
    """One key over the batch: per example its value count and whether it lacks the key,
    and `values()`, all its values joined in order (from protobuf containers or a scan)."""

    def __init__(self, counts: np.ndarray, missing: np.ndarray, values):
        self.counts, self.missing, self._values = counts, missing, values

    @classmethod
    def of_lists(cls, lists: list, dtype) -> Column:
        """From per-example *List messages (None: the example lacks the key)."""
        counts = _counts(lists)
        missing = np.fromiter((v is None for v in lists), dtype=bool, count=len(lists))
        present = [v for v in lists if v is not None and len(v.value)]
        return cls(counts, missing, lambda: _join(present, int(counts.sum()), dtype))

    def __len__(self):
        return len(self.counts)

    def values(self) -> np.ndarray:
        return self._values()


def dense_from_lists(column: Column, key, dtype, shape, default, where: Where) -> np.ndarray:
    """A FixedLenFeature (`shape` fully known) or FixedLenSequenceFeature (`shape[0]` None,
    `default` the padding scalar) over the batch: [batch] + shape."""
    np_dtype = object if dtype is d.string else dtype.as_numpy_dtype
    counts, missing, n = column.counts, column.missing, len(column)
    if shape and shape[0] is None:
        return _padded(column, key, dtype, shape, default, where, np_dtype)
    size = int(np.prod(shape, dtype=np.int64))
    if missing.any() and default is None:
        i = int(np.argmax(missing))
        raise InvalidArgumentError(f"{where.feature(i)}Feature: {key} (data type: "
                                   f"{TYPE_NAME[dtype]}) is required but could not be found.")
    wrong = (counts != size) & ~missing
    if wrong.any():
        i = int(np.argmax(wrong))
        raise InvalidArgumentError(
            f"{where.key(key, i)}  Number of {TYPE_NAME[dtype]} values != expected.  Values "
            f"size: {counts[i]} but output shape: {_shape_text(shape)}")
    values = column.values()
    if not missing.any():
        return values.reshape((n,) + tuple(shape))
    out = np.empty((n,) + tuple(shape), dtype=np_dtype)
    out[missing] = default
    out[~missing] = values.reshape((-1,) + tuple(shape))
    return out


def _padded(column, key, dtype, shape, padding, where, np_dtype) -> np.ndarray:
    counts, n = column.counts, len(column)
    stride = int(np.prod(shape[1:], dtype=np.int64))
    if stride:
        bad = counts % stride != 0
        if bad.any():
            i = int(np.argmax(bad))
            raise InvalidArgumentError(
                f"{where.key(key, i)}  Number of {TYPE_NAME[dtype]} values is not a multiple "
                f"of stride length. Saw {counts[i]} values but output shape is: "
                f"{_shape_text(shape)}")
    rows = counts // stride if stride else np.zeros_like(counts)
    longest = int(rows.max()) if len(rows) else 0
    out = np.full((n, longest) + tuple(shape[1:]), padding, dtype=np_dtype)
    values = column.values().reshape((-1,) + tuple(shape[1:]))
    if len(values):
        batch_index = np.repeat(np.arange(n), rows)
        starts = np.cumsum(rows) - rows
        row_index = np.arange(len(values)) - np.repeat(starts, rows)
        out[batch_index, row_index] = values
    return out


def _shape_text(shape) -> str:
    return "[" + ",".join("?" if s is None else str(s) for s in shape) + "]"


def sparse_from_lists(column: Column, dtype, batched: bool):
    """(indices, values, dense_shape) of a VarLenFeature over the batch."""
    counts = column.counts
    values = column.values()
    starts = np.cumsum(counts) - counts
    position = np.arange(len(values), dtype=np.int64) - np.repeat(starts, counts)
    longest = int(counts.max()) if len(counts) else 0
    if not batched:
        return position[:, None], values, np.array([longest], np.int64)
    rows = np.repeat(np.arange(len(column), dtype=np.int64), counts)
    return (np.stack([rows, position], axis=1), values,
            np.array([len(column), longest], np.int64))


def ragged_from_lists(column: Column, dtype, split_dtype):
    """(values, row_splits) of a RaggedFeature over the batch."""
    splits = np.zeros(len(column) + 1, dtype=split_dtype.as_numpy_dtype)
    np.cumsum(column.counts, out=splits[1:])
    return column.values(), splits


def decode_examples(serialized, names, sparse, dense, ragged, example_class) -> list:
    """All outputs of ParseExampleV2 in its order: sparse indices, values, shapes; dense
    values; ragged values, row splits. `sparse`: [(key, dtype)]; `dense`: [(key, dtype,
    shape, default)]; `ragged`: [(key, dtype, split dtype)]."""
    batched = np.ndim(serialized) == 1
    if np.ndim(serialized) > 1:
        raise InvalidArgumentError(f"Expected serialized to be a scalar or vector, got shape: "
                                   f"{_shape_text(np.shape(serialized))}")
    flat = list(np.asarray(serialized, dtype=object).reshape(-1))
    name_list = list(np.asarray(names, dtype=object).reshape(-1)) if np.size(names) else None
    where = Where(name_list, single=not batched)
    maps = example_maps(flat, example_class)

    def column(key, dtype, is_dense):
        return gather_feature(maps, key, dtype, where, is_dense)
    indices, sparse_values, shapes = [], [], []
    for key, dtype in sparse:
        i, v, s = sparse_from_lists(column(key, dtype, False), dtype, batched)
        indices.append(i)
        sparse_values.append(v)
        shapes.append(s)
    dense_values = []
    for key, dtype, shape, default in dense:
        out = dense_from_lists(column(key, dtype, True), key, dtype, shape, default, where)
        dense_values.append(out if batched else out[0])
    ragged_values, ragged_splits = [], []
    for key, dtype, split_dtype in ragged:
        v, s = ragged_from_lists(column(key, dtype, False), dtype, split_dtype)
        ragged_values.append(v)
        ragged_splits.append(s)
    return indices + sparse_values + shapes + dense_values + ragged_values + ragged_splits

