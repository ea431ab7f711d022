"""`tf.RaggedTensor`: rows of different lengths, as TensorFlow stores them.

A RaggedTensor is its flat `values` (a Tensor, or another RaggedTensor for more ragged
dimensions) and `row_splits`, an int64 vector where row `i` is `values[row_splits[i]:
row_splits[i + 1]]`. Everything is built from ops, so the same code runs eagerly and while
tracing; printing shows the rows (`<tf.RaggedTensor [[1, 2], [3]]>`) when the values are eager.
Passing RaggedTensors into or out of a `tf.function` is not supported yet (they are not
composite values of the tracing layer).
"""

from __future__ import annotations

import numpy as np

from .. import dtypes as d
from ..errors import InvalidArgumentError
from ..library.array import constant as dense
from ..library.array import reshape, shape
from ..library.join_split import concat
from ..library.math import cast, range_, subtract
from ..library.reduce import cumsum
from ..ops.ragged import ragged_to_tensor_op
from ..ops.registry import NO_ATTRS, bind, convert_to_tensor
from ..shapes import TensorShape
from .core_types import TF_MODULES, CompositeTensor
from .tensor import EagerTensor

__all__ = ["RaggedTensor", "constant", "is_ragged"]


class RaggedTensor(CompositeTensor):
    """Rows of varying length: `values` split by `row_splits` (see the module docstring)."""

    __slots__ = ("_values", "_row_splits")

    def __init__(self, values, row_splits, internal=False):
        if not internal:
            raise ValueError("RaggedTensor constructor is private; please use one of the "
                             "factory methods instead (e.g., RaggedTensor.from_row_lengths())")
        self._values = values
        self._row_splits = row_splits

    def __reduce__(self):
        return _rebuild_ragged, (self._values, self._row_splits)

    # --- factories ---------------------------------------------------------------------------
    @classmethod
    def from_row_splits(cls, values, row_splits, name=None, validate=True):
        values = values if isinstance(values, RaggedTensor) else convert_to_tensor(values)
        splits = _as_splits(row_splits)
        if validate:
            _validate_splits(splits, values)
        return cls(values, splits, internal=True)

    @classmethod
    def from_row_lengths(cls, values, row_lengths, name=None, validate=True):
        lengths = _as_splits(row_lengths)
        splits = concat([convert_to_tensor([0], dtype=lengths.dtype), cumsum(lengths)], 0)
        return cls.from_row_splits(values, splits, validate=validate)

    @classmethod
    def from_nested_row_splits(cls, flat_values, nested_row_splits, name=None, validate=True):
        out = flat_values
        for splits in reversed(list(nested_row_splits)):
            out = cls.from_row_splits(out, splits, validate=validate)
        return out

    # --- structure ---------------------------------------------------------------------------
    @property
    def values(self):
        return self._values

    @property
    def row_splits(self):
        return self._row_splits

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
    def shape(self) -> TensorShape:
        """`(nrows, None, ...)`: the ragged dims are None, the inner dims are the values'."""
        n = self._row_splits.shape[0]
        inner = self._values.shape
        inner_dims = inner.as_list()[1:] if inner.rank is not None else None
        if inner_dims is None:
            return TensorShape(None)
        return TensorShape([None if n is None else n - 1, None] + inner_dims)

    @property
    def ndim(self):
        return self.shape.rank

    def nrows(self, out_type=d.int64, name=None):
        n = subtract(shape(self._row_splits, out_type=self._row_splits.dtype)[0], 1)
        return n if n.dtype == d.as_dtype(out_type) else cast(n, out_type)

    def row_lengths(self, axis=1, name=None):
        if axis != 1:
            if not isinstance(self._values, RaggedTensor):
                raise ValueError(f"axis={axis} is out of bounds: the ragged rank is 1")
            return self.with_values(self._values.row_lengths(axis - 1))
        return subtract(self._row_splits[1:], self._row_splits[:-1])

    def with_values(self, new_values):
        return RaggedTensor(new_values, self._row_splits, internal=True)

    def with_flat_values(self, new_values):
        if isinstance(self._values, RaggedTensor):
            return self.with_values(self._values.with_flat_values(new_values))
        return self.with_values(convert_to_tensor(new_values))

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

    @staticmethod
    def from_tensor(tensor, lengths=None, padding=None, ragged_rank=1, name=None):
        t = convert_to_tensor(tensor)
        if lengths is not None or padding is not None or ragged_rank != 1:
            raise NotImplementedError("RaggedTensor.from_tensor supports only the default "
                                      "arguments (every row kept whole) in tracegraph")
        dims = shape(t, out_type=d.int64)
        flat = reshape(t, [-1] + t.shape.as_list()[2:])
        return RaggedTensor.from_row_splits(flat, range_(0, dims[0] * dims[1] + 1, dims[1]),
                                            validate=False)

    # --- Python protocol ---------------------------------------------------------------------
    def __getitem__(self, key):
        if isinstance(key, int):
            n = self._static_nrows()
            if not -n <= key < n:
                raise IndexError(f"row {key} is out of range for {n} rows")
            key %= n
            return self._values[self._row_splits[key]:self._row_splits[key + 1]]
        raise NotImplementedError("RaggedTensor indexing supports a single row number only in "
                                  "tracegraph; use to_tensor() or to_list() for more")

    def _static_nrows(self) -> int:
        n = self._row_splits.shape[0]
        if n is None:
            raise TypeError("the number of rows of this RaggedTensor is not known statically")
        return n - 1

    def __iter__(self):  # rows, eagerly (TensorFlow gives RaggedTensor no len())
        return (self[i] for i in range(self._static_nrows()))

    def __repr__(self):
        if _is_eager(self):
            with np.printoptions(formatter={"all": _format_rows}):
                return f"<tf.RaggedTensor {_format_rows(self.numpy())}>"
        return f"tf.RaggedTensor(values={self._values!r}, row_splits={self._row_splits!r})"

    __str__ = __repr__


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


# ---- tf.ragged.constant ---------------------------------------------------------------------

def constant(pylist, dtype=None, ragged_rank=None, inner_shape=None, name=None,
             row_splits_dtype=d.int64):
    """`tf.ragged.constant`: a RaggedTensor from nested Python lists of varying lengths."""
    if not isinstance(pylist, (list, tuple)):
        return convert_to_tensor(pylist, dtype=dtype)
    depth = _depth(pylist)
    if ragged_rank is None:
        ragged_rank = max(depth - 1, 0) if inner_shape is None else depth - 1 - len(inner_shape)
    if depth == 1 or ragged_rank == 0:
        return dense(pylist, dtype=dtype)
    nested_splits, level = [], list(pylist)
    for _ in range(ragged_rank):
        splits = [0]
        flat = []
        for row in level:
            if not isinstance(row, (list, tuple)):
                raise ValueError("all scalar values must have the same nesting depth")
            flat.extend(row)
            splits.append(len(flat))
        nested_splits.append(np.array(splits, d.as_dtype(row_splits_dtype).as_numpy_dtype))
        level = flat
    if not level and dtype is None:
        dtype = d.float32
    values = dense(level, dtype=dtype)
    out = values
    for splits in reversed(nested_splits):
        out = RaggedTensor(out, convert_to_tensor(splits), internal=True)
    return out


def _depth(x) -> int:
    """The deepest nesting of lists (a flat list is 1)."""
    if not isinstance(x, (list, tuple)):
        return 0
    return 1 + max((_depth(v) for v in x), default=0)


RaggedTensor.__module__ = TF_MODULES["RaggedTensor"]   # as Keras recognises it


def _rebuild_ragged(values, row_splits) -> RaggedTensor:
    return RaggedTensor(values, row_splits, internal=True)
