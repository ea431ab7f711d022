"""`tf.RaggedTensor`: rows of different lengths, as TensorFlow stores them.

A RaggedTensor is its `values` (a Tensor, or another RaggedTensor for more ragged dimensions)
and `row_splits`, an int64 (or int32) vector where row `i` is `values[row_splits[i]:
row_splits[i + 1]]`. A dimension whose rows all have one length keeps that length
(`uniform_row_length`, shown in `shape`). Everything is built from ops, so the same code runs
eagerly and while tracing; printing shows the rows (`<tf.RaggedTensor [[1, 2], [3]]>`) when
the values are eager, the component tensors otherwise.

The factories (`from_row_splits`, `from_value_rowids`, `from_tensor`, `from_sparse`, ...) are
here; TensorFlow's functions on ragged values (elementwise math, reductions, concat, gather,
indexing) are in `ragged_math.py`, `ragged_array.py` and `ragged_getitem.py`.
"""

from __future__ import annotations

import numpy as np

from .. import dtypes as d
from ..errors import InvalidArgumentError
from ..library import math as m
from ..library.array import expand_dims, shape
from ..library.indexing import gather, scatter_nd, where
from ..library.join_split import concat, stack
from ..library.reduce import cumsum, reduce_max
from ..ops.ragged import ragged_to_tensor_op
from ..ops.registry import NO_ATTRS, bind, convert_to_tensor
from ..shapes import TensorShape
from .composite_specs import RaggedTensorSpec
from .core_types import TF_MODULES, CompositeTensor
from .tensor import EagerTensor

__all__ = ["RaggedTensor", "constant", "is_ragged", "row_positions"]


def row_positions(starts, lengths):
    """For rows that start at `starts` with `lengths`: each element's (row, column) and its
    position `starts[row] + column`, in row-major order (int64)."""
    lengths = m.cast(lengths, d.int64)
    longest = reduce_max(concat([convert_to_tensor([0], dtype=d.int64), lengths], 0))
    columns = m.range_(0, longest, 1, dtype=d.int64)
    coords = where(m.less(columns, expand_dims(lengths, -1)))
    rows, cols = coords[:, 0], coords[:, 1]
    return rows, cols, m.add(gather(m.cast(starts, d.int64), rows), cols)


class RaggedTensor(CompositeTensor):
    """Rows of varying length: `values` split by `row_splits` (see the module docstring)."""

    __slots__ = ("_values", "_row_splits", "_uniform_row_length", "__weakref__")

    def __init__(self, values, row_splits, internal=False, uniform_row_length=None):
        if not internal:
            raise ValueError("RaggedTensor constructor is private; please use one of the "
                             "factory methods instead (e.g., RaggedTensor.from_row_lengths())")
        self._values = values
        self._row_splits = row_splits
        self._uniform_row_length = uniform_row_length

    def __reduce__(self):
        return _rebuild_ragged, (self._values, self._row_splits, self._uniform_row_length)

    # --- factories ---------------------------------------------------------------------------
    @classmethod
    def from_row_splits(cls, values, row_splits, name=None, validate=True):
        values = _as_values(values)
        splits = _as_splits(row_splits)
        if validate:
            _validate_splits(splits, values)
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
        values = _as_values(values)
        starts = _as_splits(row_starts)
        n = m.cast(_nvals(values), starts.dtype)
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
        values = _as_values(values)
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
        values = _as_values(values)
        length = convert_to_tensor(uniform_row_length, dtype_hint=d.int64)
        if length.dtype not in (d.int32, d.int64):
            raise ValueError("uniform_row_length must be an int32 or int64 scalar")
        nvals = m.cast(_nvals(values), length.dtype)
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
        from .ragged_array import from_dense
        return from_dense(cls, tensor, lengths, padding, ragged_rank, row_splits_dtype)

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

    @classmethod
    def _from_components(cls, flat_values, nested_splits, uniform=None):
        """A ragged value of the given components; `uniform` holds a static row length (or
        None) for each ragged dimension, as a RaggedTensorSpec's shape gives them."""
        out = flat_values
        uniform = list(uniform) if uniform else [None] * len(nested_splits)
        for splits, length in reversed(list(zip(nested_splits, uniform))):
            out = cls(out, splits, internal=True, uniform_row_length=length)
        return out

    # --- structure ---------------------------------------------------------------------------
    @property
    def values(self):
        return self._values

    @property
    def row_splits(self):
        return self._row_splits

    @property
    def uniform_row_length(self):
        """The length of every row when this dimension is uniform (else None)."""
        length = self._uniform_row_length
        if length is None or not isinstance(length, int):
            return length
        return convert_to_tensor(length, dtype=self._row_splits.dtype)

    @property
    def flat_values(self):
        v = self._values
        while isinstance(v, RaggedTensor):
            v = v._values
        return v

    @property
    def nested_row_splits(self) -> tuple:
        out, rt = [], self
        while isinstance(rt, RaggedTensor):
            out.append(rt._row_splits)
            rt = rt._values
        return tuple(out)

    @property
    def ragged_rank(self) -> int:
        return len(self.nested_row_splits)

    @property
    def dtype(self) -> d.DType:
        return self.flat_values.dtype

    @property
    def row_splits_dtype(self) -> d.DType:
        return self._row_splits.dtype

    @property
    def shape(self) -> TensorShape:
        """`(nrows, None, ...)`: the ragged dims are None, uniform and inner dims known."""
        n = self._row_splits.shape[0]
        inner = self._values.shape
        inner_dims = inner.as_list()[1:] if inner.rank is not None else None
        if inner_dims is None:
            return TensorShape(None)
        width = self._uniform_row_length if isinstance(self._uniform_row_length, int) else None
        return TensorShape([None if n is None else n - 1, width] + inner_dims)

    def get_shape(self) -> TensorShape:
        return self.shape

    @property
    def ndim(self):
        return self.shape.rank

    @property
    def _type_spec(self) -> RaggedTensorSpec:
        return RaggedTensorSpec.from_value(self)

    def __tf_tracing_type__(self, context):
        """A ragged argument keys a tf.function by its spec and is fed as its components."""
        return self._type_spec

    def nrows(self, out_type=None, name=None):
        n = m.subtract(shape(self._row_splits, out_type=self._row_splits.dtype)[0], 1)
        out_type = self._row_splits.dtype if out_type is None else d.as_dtype(out_type)
        return n if n.dtype == out_type else m.cast(n, out_type)

    def row_starts(self, name=None):
        return self._row_splits[:-1]

    def row_limits(self, name=None):
        return self._row_splits[1:]

    def row_lengths(self, axis=1, name=None):
        if axis == 0:
            return self.nrows()
        if axis != 1:
            if not isinstance(self._values, RaggedTensor):
                raise ValueError(f"axis={axis} is out of bounds: the ragged rank is 1")
            return self.with_values(self._values.row_lengths(axis - 1))
        return m.subtract(self._row_splits[1:], self._row_splits[:-1])

    def nested_row_lengths(self, name=None) -> tuple:
        out, rt = [], self
        while isinstance(rt, RaggedTensor):
            out.append(rt.row_lengths())
            rt = rt._values
        return tuple(out)

    def value_rowids(self, name=None):
        """The row number of every value (the inverse of `from_value_rowids`)."""
        rows, _, _ = row_positions(self.row_starts(), self.row_lengths())
        return m.cast(rows, self._row_splits.dtype)

    def nested_value_rowids(self, name=None) -> tuple:
        out, rt = [], self
        while isinstance(rt, RaggedTensor):
            out.append(rt.value_rowids())
            rt = rt._values
        return tuple(out)

    def bounding_shape(self, axis=None, name=None, out_type=None):
        """The smallest dense shape that holds every row: nrows, the longest row of each
        ragged dim, the inner dims."""
        out_type = self._row_splits.dtype if out_type is None else d.as_dtype(out_type)
        dims = [m.cast(self.nrows(), out_type)]
        rt = self
        while isinstance(rt, RaggedTensor):
            lengths = m.cast(rt.row_lengths(), out_type)
            dims.append(reduce_max(concat([convert_to_tensor([0], dtype=out_type), lengths],
                                          0)))
            rt = rt._values
        inner = shape(rt, out_type=out_type)[1:]
        out = concat([stack(dims), inner], 0)
        return out if axis is None else out[axis]

    def with_values(self, new_values):
        return RaggedTensor(_as_values(new_values), self._row_splits, internal=True,
                            uniform_row_length=self._uniform_row_length)

    def with_flat_values(self, new_values):
        if isinstance(self._values, RaggedTensor):
            return self.with_values(self._values.with_flat_values(new_values))
        return self.with_values(convert_to_tensor(new_values))

    def with_row_splits_dtype(self, dtype):
        dtype = d.as_dtype(dtype)
        values = self._values.with_row_splits_dtype(dtype) if \
            isinstance(self._values, RaggedTensor) else self._values
        return RaggedTensor(values, m.cast(self._row_splits, dtype), internal=True,
                            uniform_row_length=self._uniform_row_length)

    def merge_dims(self, outer_axis, inner_axis):
        """Dims `outer_axis..inner_axis` merged into one (only `0, 1` here, and `0, -1`)."""
        if (outer_axis, inner_axis) == (0, 1) or (outer_axis == 0 and inner_axis in (-1, 1)
                                                  and self.ragged_rank == 1):
            return self._values
        raise NotImplementedError("RaggedTensor.merge_dims supports (0, 1) in tracegraph")

    # --- conversion --------------------------------------------------------------------------
    def to_tensor(self, default_value=None, name=None, shape=None):
        """A dense tensor, rows padded with `default_value` (the dtype's zero by default)."""
        flat = self.flat_values
        if default_value is None:
            default_value = b"" if flat.dtype is d.string else np.zeros(
                (), flat.dtype.as_numpy_dtype)
        default = convert_to_tensor(default_value, dtype=flat.dtype)
        splits = list(self.nested_row_splits)
        attrs = NO_ATTRS
        if shape is not None:
            attrs = {"shape": TensorShape(shape).dims}
        return bind(ragged_to_tensor_op, (flat, default, splits), attrs, name)

    def to_sparse(self, name=None):
        """The SparseTensor of the same values: each value's index is its row and column
        numbers (and inner positions), `dense_shape` the bounding shape."""
        from .ragged_array import to_sparse
        return to_sparse(self)

    def to_list(self) -> list:
        """The rows as nested Python lists (eager only), like `Tensor.numpy().tolist()`."""
        values = self._values.to_list() if isinstance(self._values, RaggedTensor) else \
            _eager(self._values, "to_list").tolist()
        splits = _eager(self._row_splits, "to_list").tolist()
        return [values[a:b] for a, b in zip(splits[:-1], splits[1:])]

    def numpy(self):
        """The rows as NumPy values, as TensorFlow gives them: rows of equal length stack into
        one array, rows of different lengths make an object array of arrays."""
        values = self._values.numpy() if isinstance(self._values, RaggedTensor) else \
            _eager(self._values, "numpy")
        splits = _eager(self._row_splits, "numpy").tolist()
        rows = [values[a:b] for a, b in zip(splits[:-1], splits[1:])]
        if not rows:
            return np.zeros((0, 0) + values.shape[1:], dtype=values.dtype)
        if any(len(row) != len(rows[0]) for row in rows):
            out = np.empty(len(rows), dtype=object)
            out[:] = rows
            return out
        return np.array(rows)

    # --- Python protocol ---------------------------------------------------------------------
    def __getitem__(self, key):
        from .ragged_getitem import getitem
        return getitem(self, key)

    def _static_nrows(self) -> int:
        n = self._row_splits.shape[0]
        if n is None:
            raise TypeError("the number of rows of this RaggedTensor is not known statically")
        return n - 1

    def __iter__(self):  # rows, eagerly (TensorFlow gives RaggedTensor no len())
        return (self[i] for i in range(self._static_nrows()))

    def __bool__(self):
        raise TypeError("RaggedTensor may not be used as a boolean.")

    def __repr__(self):
        if _is_eager(self):
            with np.printoptions(formatter={"all": _format_rows}):
                return f"<tf.RaggedTensor {_format_rows(self.numpy())}>"
        return f"tf.RaggedTensor(values={self._values!r}, row_splits={self._row_splits!r})"

    __str__ = __repr__
    __hash__ = object.__hash__   # TensorFlow's are unhashable; here they key by identity


def _format_rows(x) -> str:
    """Rows printed with commas, nested arrays without their `array(...)` wrappers."""
    if isinstance(x, np.ndarray):
        return np.array2string(x, separator=", ") if x.size else repr(x.tolist())
    return str(x)


def is_ragged(x) -> bool:
    return isinstance(x, RaggedTensor)


def _is_eager(rt) -> bool:
    while isinstance(rt, RaggedTensor):
        if not isinstance(rt._row_splits, EagerTensor):
            return False
        rt = rt._values
    return isinstance(rt, EagerTensor)


def _eager(t, what):
    if not isinstance(t, EagerTensor):
        raise ValueError(f"RaggedTensor.{what}() is only available eagerly; inside a "
                         "tf.function use to_tensor() or the row_splits and values tensors")
    return t.numpy()


def _as_values(values):
    return values if isinstance(values, RaggedTensor) else convert_to_tensor(values)


def _nvals(values):
    if isinstance(values, RaggedTensor):
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


def _validate_splits(splits, values) -> None:
    if splits.shape.rank not in (None, 1):
        raise ValueError(f"Shape {splits.shape} must have rank 1")
    if isinstance(splits, EagerTensor):
        s = splits.numpy()
        n = values._static_nrows() if isinstance(values, RaggedTensor) else (
            values.shape[0] if values.shape.rank else None)
        if s.size == 0 or s[0] != 0 or (np.diff(s) < 0).any() or (n is not None and s[-1] != n):
            raise InvalidArgumentError("Arguments to from_row_splits do not form a valid "
                                       "RaggedTensor: row_splits must start at 0, be sorted and "
                                       "end at the number of values")


RaggedTensor.__module__ = TF_MODULES["RaggedTensor"]   # as Keras recognises it


def _rebuild_ragged(values, row_splits, uniform_row_length=None) -> RaggedTensor:
    return RaggedTensor(values, row_splits, internal=True, uniform_row_length=uniform_row_length)


from .ragged_constant import constant  # noqa: E402  (tf.ragged.constant builds RaggedTensors)
