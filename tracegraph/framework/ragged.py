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
from ..library.indexing import gather, where
from ..library.join_split import concat, stack
from ..library.reduce import reduce_max
from ..ops.ragged import ragged_to_tensor_op
from ..ops.registry import NO_ATTRS, bind, convert_to_tensor
from ..shapes import TensorShape, as_shape_tuple
from .composite_specs import RaggedTensorSpec
from .core_types import TF_MODULES, CompositeTensor
from .ragged_factories import RaggedFactories, _as_values
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


class RaggedTensor(RaggedFactories, CompositeTensor):
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

    @classmethod
    def from_components(cls, flat_values, nested_splits, uniform=None):
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

    def __tf_composite_spec__(self):
        """The spec that splits this value into component tensors (nest, tf.function)."""
        return self._type_spec

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
        return RaggedTensor(_as_values(new_values, RaggedTensor), self._row_splits, internal=True,
                            uniform_row_length=self._uniform_row_length)

    def with_flat_values(self, new_values):
        if isinstance(self._values, RaggedTensor):
            return self.with_values(self._values.with_flat_values(new_values))
        return self.with_values(new_values if isinstance(new_values, RaggedTensor)
                                else convert_to_tensor(new_values))

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
            dims = as_shape_tuple(shape)
            attrs = {"shape": None if dims is None else list(dims)}
        return bind(ragged_to_tensor_op, (flat, default, splits), attrs, name)

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
        return f"tf.RaggedTensor(values={self._values!s}, row_splits={self._row_splits!s})"

    __str__ = __repr__
    __hash__ = object.__hash__   # TensorFlow's are unhashable; here they key by identity

    def __eq__(self, other):
        """Elementwise, as TensorFlow's `tensor_equals`: False for None or values that do not
        broadcast."""
        return _compare(m.equal, self, other, False)

    def __ne__(self, other):
        return _compare(m.not_equal, self, other, True)


def _compare(fn, rt, other, default):
    if other is None:
        return default
    try:
        return fn(rt, other)
    except (ValueError, TypeError, InvalidArgumentError):
        return default


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


RaggedTensor.__module__ = TF_MODULES["RaggedTensor"]   # as Keras recognises it
RaggedTensorSpec.value_class = RaggedTensor


def _rebuild_ragged(values, row_splits, uniform_row_length=None) -> RaggedTensor:
    return RaggedTensor(values, row_splits, internal=True, uniform_row_length=uniform_row_length)


from .ragged_constant import constant  # noqa: E402  (tf.ragged.constant builds RaggedTensors)
