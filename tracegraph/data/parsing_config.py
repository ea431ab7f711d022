"""The feature configurations of `tf.io.parse_example` (`FixedLenFeature`, `VarLenFeature`,
`RaggedFeature`, `FixedLenSequenceFeature`, `SparseFeature`) and `ParseParams`, what a dict of
them asks of the parse op: which keys come out sparse, dense and ragged, with their dtypes,
shapes and defaults (TensorFlow's `_ParseOpParams`, same checks and messages).

Keys are taken in sorted order, as TensorFlow's, so the op's inputs and outputs line up.
"""

from __future__ import annotations

import collections

import numpy as np

from .. import dtypes as d
from ..errors import InvalidArgumentError
from ..shapes import TensorShape

__all__ = ["FixedLenFeature", "FixedLenSequenceFeature", "VarLenFeature", "RaggedFeature",
           "SparseFeature", "ParseParams", "PARSE_TYPES"]

PARSE_TYPES = (d.float32, d.int64, d.string)


class VarLenFeature(collections.namedtuple("VarLenFeature", ["dtype"])):
    """A variable-length feature, parsed into a `SparseTensor`."""


class FixedLenFeature(collections.namedtuple("FixedLenFeature",
                                             ["shape", "dtype", "default_value"])):
    """A fixed-length feature of `shape`, parsed into a dense `Tensor` (`default_value` when
    an example lacks it; without one, a missing feature is an error)."""

    def __new__(cls, shape, dtype, default_value=None):
        return super().__new__(cls, shape, dtype, default_value)


class FixedLenSequenceFeature(collections.namedtuple(
        "FixedLenSequenceFeature", ["shape", "dtype", "allow_missing", "default_value"])):
    """A variable number of `shape` blocks, parsed into a dense `Tensor` of shape
    `[None] + shape`, padded with `default_value` across a batch."""

    def __new__(cls, shape, dtype, allow_missing=False, default_value=None):
        return super().__new__(cls, shape, dtype, allow_missing, default_value)


class SparseFeature(collections.namedtuple(
        "SparseFeature", ["index_key", "value_key", "dtype", "size", "already_sorted"])):
    """A `SparseTensor` built from an index feature and a value feature."""

    def __new__(cls, index_key, value_key, dtype, size, already_sorted=False):
        return super().__new__(cls, index_key, value_key, dtype, size, already_sorted)


class RaggedFeature(collections.namedtuple(
        "RaggedFeature", ["dtype", "value_key", "partitions", "row_splits_dtype",
                          "validate"])):
    """A feature parsed into a `RaggedTensor` (its values partitioned by `partitions`)."""

    RowSplits = collections.namedtuple("RowSplits", ["key"])
    RowLengths = collections.namedtuple("RowLengths", ["key"])
    RowStarts = collections.namedtuple("RowStarts", ["key"])
    RowLimits = collections.namedtuple("RowLimits", ["key"])
    ValueRowIds = collections.namedtuple("ValueRowIds", ["key"])
    UniformRowLength = collections.namedtuple("UniformRowLength", ["length"])
    _PARTITION_TYPES = (RowSplits, RowLengths, RowStarts, RowLimits, ValueRowIds,
                        UniformRowLength)

    def __new__(cls, dtype, value_key=None, partitions=(), row_splits_dtype=d.int32,
                validate=False):
        if value_key is not None:
            if not isinstance(value_key, str):
                raise ValueError(f"Argument `value_key` must be a string; got {value_key}")
            if not value_key:
                raise ValueError("Argument `value_key` must not be empty")
        dtype = d.as_dtype(dtype)
        if dtype not in PARSE_TYPES:
            raise ValueError(f"Argument `dtype` must be int64, float32, or bytes; got "
                             f"{dtype!r}")
        row_splits_dtype = d.as_dtype(row_splits_dtype)
        if row_splits_dtype not in (d.int32, d.int64):
            raise ValueError(f"Argument `row_splits_dtype` must be int32 or int64; got"
                             f"{row_splits_dtype!r}")
        if not isinstance(partitions, (list, tuple)):
            raise TypeError(f"Argument `partitions` must be a list or tuple. Received"
                            f"partitions={partitions} of type {type(partitions).__name__}.")
        for partition in partitions:
            if not isinstance(partition, cls._PARTITION_TYPES):
                raise TypeError(f"Argument `partitions` must be a list of partition objects "
                                f"{cls._PARTITION_TYPES}; got: {partition!r}")
        if not isinstance(validate, bool):
            raise TypeError(f"Argument `validate` must be a bool; got {validate!r}")
        return super().__new__(cls, dtype, value_key, tuple(partitions), row_splits_dtype,
                               validate)


class ParseParams:
    """What a features dict asks of the parse op, keys sorted (TensorFlow's order).

    `dense_shapes` of FixedLenSequenceFeatures start with an unknown dimension (None);
    `dense_defaults[i]` is a NumPy value: the full default of a FixedLenFeature (None when
    it is required) or the scalar padding of a sequence feature.
    """

    def __init__(self):
        self.sparse_keys, self.sparse_types = [], []
        self.dense_keys, self.dense_types, self.dense_shapes = [], [], []
        self.dense_defaults = []
        self.ragged_keys, self.ragged_value_types, self.ragged_split_types = [], [], []

    @classmethod
    def from_features(cls, features, types) -> ParseParams:
        params = cls()
        if not isinstance(features, dict):
            raise TypeError(f"Argument `features` must be a dict, got {type(features)}.")
        for key in sorted(features):
            feature = features[key]
            if not isinstance(feature, tuple(types)):
                raise ValueError(f"Unsupported {type(feature).__name__} {feature} for key "
                                 f"'{key}'")
            params._add(key, feature)
        params._validate()
        return params

    @property
    def is_empty(self) -> bool:
        return not (self.sparse_keys or self.dense_keys or self.ragged_keys)

    def _add(self, key, feature) -> None:
        if isinstance(feature, VarLenFeature):
            if not feature.dtype:
                raise ValueError(f"Missing type for feature {key}. Received feature={feature}")
            self._add_sparse(key, feature.dtype)
        elif isinstance(feature, SparseFeature):
            index_keys = [feature.index_key] if isinstance(feature.index_key, str) \
                else feature.index_key
            for index_key in sorted(index_keys):
                self._add_sparse(index_key, d.int64)
            self._add_sparse(feature.value_key, feature.dtype)
        elif isinstance(feature, FixedLenFeature):
            self._add_fixed(key, feature)
        elif isinstance(feature, FixedLenSequenceFeature):
            self._add_sequence(key, feature)
        elif isinstance(feature, RaggedFeature):
            value_key = key if feature.value_key is None else feature.value_key
            self._add_ragged(value_key, feature.dtype, feature.row_splits_dtype)
            for partition in feature.partitions:
                if not isinstance(partition, RaggedFeature.UniformRowLength):
                    self._add_ragged(partition.key, d.int64, feature.row_splits_dtype)
        else:
            raise ValueError(f"Invalid feature {key}:{feature}.")

    def _add_sparse(self, key, dtype) -> None:
        dtype = _parse_type(dtype, "sparse_types")
        if key in self.sparse_keys:
            original = self.sparse_types[self.sparse_keys.index(key)]
            if original != dtype:
                raise ValueError(f"Conflicting type {original} vs {dtype} for feature {key}.")
            return
        self.sparse_keys.append(key)
        self.sparse_types.append(dtype)

    def _add_fixed(self, key, feature) -> None:
        if not feature.dtype:
            raise ValueError(f"Missing type for feature {key}. Received feature={feature}.")
        if feature.shape is None:
            raise ValueError(f"Missing shape for feature {key}. Received feature={feature}.")
        shape = TensorShape(feature.shape)
        if shape.rank and shape.dims[0] is None:
            raise ValueError(f"First dimension of shape for feature {key} unknown. Consider "
                             f"using FixedLenSequenceFeature. Received feature={feature}.")
        if not shape.is_fully_defined():
            raise ValueError(f"All dimensions of shape for feature {key} need to be known but "
                             f"received {feature.shape!s}.")
        dtype = _parse_type(feature.dtype, "Tdense")
        default = None
        if feature.default_value is not None:
            default = _as_array(feature.default_value, dtype)
            if default.size != shape.num_elements():
                raise _reshape_error(default.size, shape.num_elements())
            default = default.reshape(shape.as_list())
        self._add_dense(key, dtype, shape, default)

    def _add_sequence(self, key, feature) -> None:
        if not feature.dtype:
            raise ValueError(f"Missing type for feature {key}. Received feature={feature}.")
        if feature.shape is None:
            raise ValueError(f"Missing shape for feature {key}. Received feature={feature}.")
        if not feature.allow_missing:
            raise ValueError("Unsupported: FixedLenSequenceFeature requires allow_missing to "
                             "be True.")
        dtype = _parse_type(feature.dtype, "Tdense")
        pad = "" if dtype is d.string else 0
        if feature.default_value is not None:
            pad = feature.default_value
        padding = _as_array(pad, dtype)
        if padding.size != 1:
            raise _reshape_error(padding.size, 1)
        shape = TensorShape([None]).concatenate(TensorShape(feature.shape))
        self._add_dense(key, dtype, shape, padding.reshape(()))

    def _add_dense(self, key, dtype, shape, default) -> None:
        self.dense_keys.append(key)
        self.dense_types.append(dtype)
        self.dense_shapes.append(shape)
        self.dense_defaults.append(default)

    def _add_ragged(self, key, value_type, split_type) -> None:
        if key in self.ragged_keys:
            i = self.ragged_keys.index(key)
            if self.ragged_value_types[i] != value_type:
                raise ValueError(f"Conflicting type {self.ragged_value_types[i]} vs "
                                 f"{value_type} for feature {key}.")
            if self.ragged_split_types[i] != split_type:
                raise ValueError(f"Conflicting partition type {self.ragged_split_types[i]} vs "
                                 f"{split_type} for feature {key}.")
            return
        self.ragged_keys.append(key)
        self.ragged_value_types.append(value_type)
        self.ragged_split_types.append(split_type)

    def _validate(self) -> None:
        dense, sparse, ragged = set(self.dense_keys), set(self.sparse_keys), \
            set(self.ragged_keys)
        for (a, b), (name_a, name_b) in (((dense, sparse), ("Dense", "sparse")),
                                         ((dense, ragged), ("Dense", "ragged")),
                                         ((ragged, sparse), ("Ragged", "sparse"))):
            if not a.isdisjoint(b):
                raise ValueError(f"{name_a} and {name_b} keys must not intersect; "
                                 f"{name_a.lower()}_keys: {sorted(a)}, {name_b}_keys: "
                                 f"{sorted(b)}, intersection: {a & b}")


def _parse_type(dtype, attr: str):
    dtype = d.as_dtype(dtype)
    if dtype not in PARSE_TYPES:
        raise InvalidArgumentError(f"Value for attr '{attr}' of {dtype.name} is not in the "
                                   f"list of allowed values: float, int64, string")
    return dtype


def _as_array(value, dtype) -> np.ndarray:
    if hasattr(value, "numpy"):
        value = value.numpy()
    if dtype is d.string:
        flat = np.asarray(value, dtype=object)
        return np.vectorize(lambda v: v.encode() if isinstance(v, str) else v,
                            otypes=[object])(flat) if flat.size else flat
    return np.asarray(value, dtype=dtype.as_numpy_dtype)


def _reshape_error(have: int, want: int):
    return InvalidArgumentError(f"Input to reshape is a tensor with {have} values, but the "
                                f"requested shape has {want}")
