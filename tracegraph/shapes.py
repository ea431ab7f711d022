"""Shapes and specs: `TensorShape`, `TensorSpec`, and the internal `TensorType`.

Internally a shape is a plain tuple of `int | None` (a `None` entry is an unknown dimension), or
`None` for an unknown rank. `TensorShape` is the user-facing wrapper with TensorFlow's API.
`TensorType` is what type inference works on: a dtype, a shape and, when known at graph-building
time, the constant value (so `reshape(x, [2, -1])` can infer its output shape).
"""

from __future__ import annotations

from . import dtypes as _dtypes
from .dimension import Dimension

__all__ = ["TensorShape", "TensorSpec", "TensorType", "broadcast_shapes", "as_shape_tuple",
           "shape_from_tuple"]


def as_shape_tuple(shape) -> tuple | None:
    """Normalizes a user shape (`TensorShape`, list, tuple, int, None) to the internal form."""
    if shape is None:
        return None
    if isinstance(shape, TensorShape):
        return shape._dims
    if isinstance(shape, int):
        return (shape,)
    if isinstance(shape, (str, bytes)) or not hasattr(shape, "__iter__"):
        if hasattr(shape, "__index__"):
            return (shape.__index__(),)
        raise TypeError(f"Failed to convert '{shape!r}' to a shape: a shape is a single "
                        "dimension (e.g. 10) or an iterable of dimensions (e.g. [1, 10, None]).")
    out = []
    for d in shape:
        if d is None:
            out.append(None)
        elif hasattr(d, "value") and not isinstance(d, int):  # a Dimension-like object
            out.append(None if d.value is None else int(d.value))
        else:
            if not hasattr(d, "__index__"):
                raise TypeError(f"Dimension value must be integer or None or have an __index__ "
                                f"method, got value '{d!r}' with type '{type(d)}'")
            d = d.__index__()
            if d < -1:
                raise ValueError(f"Dimension {d} must be >= -1.")
            out.append(None if d == -1 else d)
    return tuple(out)


def shapes_compatible(a: tuple | None, b: tuple | None) -> bool:
    """True when a value of shape `b` fits shape `a` (unknown dims and ranks match anything)."""
    if a is None or b is None:
        return True
    if len(a) != len(b):
        return False
    return all(x is None or y is None or x == y for x, y in zip(a, b))


def most_specific_common(a: tuple | None, b: tuple | None) -> tuple | None:
    """The most specific shape both `a` and `b` fit: differing dims become None."""
    if a is None or b is None or len(a) != len(b):
        return None
    return tuple(x if x == y else None for x, y in zip(a, b))


def broadcast_shapes(a: tuple | None, b: tuple | None) -> tuple | None:
    """NumPy/TensorFlow broadcasting over shapes with unknown dims; ValueError if incompatible."""
    if a is None or b is None:
        return None
    n = max(len(a), len(b))
    a2 = (1,) * (n - len(a)) + a
    b2 = (1,) * (n - len(b)) + b
    out = []
    for x, y in zip(a2, b2):
        if x == 1:
            out.append(y)
        elif y == 1:
            out.append(x)
        elif x is None or y is None:
            out.append(x if y is None else y)
        elif x == y:
            out.append(x)
        else:
            raise ValueError(f"Incompatible shapes: {format_dims(a)} vs. {format_dims(b)}")
    return tuple(out)


def shape_from_tuple(dims: tuple | None) -> TensorShape:
    """The `TensorShape` of a shape already in the internal form (no normalizing)."""
    s = object.__new__(TensorShape)
    s._dims = dims
    return s


def format_dims(shape: tuple | None) -> str:
    """TensorFlow's bracketed form in error messages: `[3,2]`, `[?,3]`, `<unknown>`."""
    if shape is None or getattr(shape, "rank", 0) is None:   # a TensorShape of unknown rank
        return "<unknown>"
    return "[" + ",".join("?" if d is None else str(d) for d in shape) + "]"


def format_shape(shape: tuple | None) -> str:
    """TensorFlow's tuple form: `(2,)`, `(None, 3)`, `<unknown>`."""
    if shape is None:
        return "<unknown>"
    if len(shape) == 1:
        return f"({shape[0]},)"
    return "(" + ", ".join(str(d) for d in shape) + ")"


class TensorShape:
    """The (possibly partially known) shape of a tensor, like `tf.TensorShape`."""

    __slots__ = ("_dims",)

    def __init__(self, dims):
        self._dims = as_shape_tuple(dims)

    @classmethod
    def _from_tuple(cls, dims: tuple | None) -> TensorShape:
        s = cls.__new__(cls)
        s._dims = dims
        return s

    def as_tuple(self) -> tuple | None:
        """The internal form: a tuple of `int | None`, or None for an unknown rank (where
        `as_list` raises)."""
        return self._dims

    @property
    def rank(self) -> int | None:
        return None if self._dims is None else len(self._dims)

    ndims = rank

    @property
    def dims(self):
        """TF1's view of the dimensions: `tf.compat.v1.Dimension`s (None: unknown rank)."""
        return None if self._dims is None else [Dimension(n) for n in self._dims]

    def as_list(self) -> list:
        if self._dims is None:
            raise ValueError("as_list() is not defined on an unknown TensorShape.")
        return list(self._dims)

    def is_fully_defined(self) -> bool:
        return self._dims is not None and all(d is not None for d in self._dims)

    def num_elements(self) -> int | None:
        if not self.is_fully_defined():
            return None
        n = 1
        for d in self._dims:
            n *= d
        return n

    def is_compatible_with(self, other) -> bool:
        return shapes_compatible(self._dims, as_shape_tuple(other))

    def merge_with(self, other) -> TensorShape:
        o = as_shape_tuple(other)
        if not shapes_compatible(self._dims, o):
            raise ValueError(f"Shapes {self} and {TensorShape(o)} are not compatible")
        if self._dims is None:
            return TensorShape._from_tuple(o)
        if o is None:
            return self
        return TensorShape._from_tuple(tuple(x if x is not None else y
                                             for x, y in zip(self._dims, o)))

    def most_specific_compatible_shape(self, other) -> TensorShape:
        return TensorShape._from_tuple(most_specific_common(self._dims, as_shape_tuple(other)))

    def concatenate(self, other) -> TensorShape:
        o = as_shape_tuple(other)
        if self._dims is None or o is None:
            return TensorShape(None)
        return TensorShape._from_tuple(self._dims + o)

    def assert_is_compatible_with(self, other) -> None:
        if not self.is_compatible_with(other):
            raise ValueError(f"Shapes {self} and {TensorShape(other)} are incompatible")

    def with_rank(self, rank: int) -> TensorShape:
        if self._dims is not None and len(self._dims) != rank:
            raise ValueError(f"Shape {self} must have rank {rank}")
        return self if self._dims is not None else TensorShape([None] * rank)

    def with_rank_at_least(self, rank: int) -> TensorShape:
        if self._dims is not None and len(self._dims) < rank:
            raise ValueError(f"Shape {self} must have rank at least {rank}")
        return self

    def with_rank_at_most(self, rank: int) -> TensorShape:
        if self._dims is not None and len(self._dims) > rank:
            raise ValueError(f"Shape {self} must have rank at most {rank}")
        return self

    def __add__(self, other) -> TensorShape:  # TF: shape + (4,) concatenates
        return self.concatenate(other)

    def __radd__(self, other) -> TensorShape:
        return TensorShape(other).concatenate(self)

    def __len__(self):
        if self._dims is None:
            raise ValueError("Cannot take the length of shape with unknown rank.")
        return len(self._dims)

    def __iter__(self):
        if self._dims is None:
            raise ValueError("Cannot iterate over a shape with unknown rank.")
        return iter(self._dims)

    def __getitem__(self, key):
        if self._dims is None:
            if isinstance(key, slice):
                return TensorShape(None)
            return None
        if isinstance(key, slice):
            return TensorShape._from_tuple(self._dims[key])
        return self._dims[key]

    def __bool__(self):
        return self._dims is not None

    def __eq__(self, other):
        try:
            o = as_shape_tuple(other)
        except (TypeError, ValueError):
            return NotImplemented
        return self._dims == o

    def __ne__(self, other):
        eq = self.__eq__(other)
        return eq if eq is NotImplemented else not eq

    def __hash__(self):
        return hash(self._dims)

    def __repr__(self):
        if self._dims is None:
            return "TensorShape(None)"
        return f"TensorShape({list(self._dims)})"

    def __str__(self):
        return format_shape(self._dims)

    def __reduce__(self):
        return TensorShape, (self._dims,)


class TensorType:
    """What type inference sees of a tensor: dtype, shape tuple and, if known, its value; an
    integer vector whose value is known only in part (a shape built from `tf.shape(x)` with
    unknown dims, and slices, stacks and concatenations of it) has `partial`, a tuple of ints
    and None, as TensorFlow's shape inference keeps it for `reshape` and `fill`."""

    __slots__ = ("dtype", "shape", "value", "partial")

    def __init__(self, dtype, shape: tuple | None, value=None, partial=None):
        self.dtype = dtype
        self.shape = shape
        self.value = value
        self.partial = partial

    @property
    def rank(self) -> int | None:
        return None if self.shape is None else len(self.shape)

    def __eq__(self, other):
        return (isinstance(other, TensorType) and self.dtype == other.dtype
                and self.shape == other.shape)

    def __hash__(self):
        return hash((self.dtype, self.shape))

    def __repr__(self):
        return f"TensorType({self.dtype.name}, {format_shape(self.shape)})"


class TypeSpec:
    """`tf.TypeSpec`: the base of the classes that describe a kind of value (`TensorSpec`, and
    the specs of composite values) without holding one."""

    __slots__ = ()


class TensorSpec(TypeSpec):
    """Describes a tensor argument: shape (dims may be None), dtype and an optional name."""

    __slots__ = ("_shape", "_dtype", "_name")

    def __init__(self, shape, dtype=_dtypes.float32, name: str | None = None):
        self._shape = as_shape_tuple(shape)
        self._dtype = _dtypes.as_dtype(dtype)
        self._name = name

    @classmethod
    def from_tensor(cls, tensor, name: str | None = None) -> TensorSpec:
        return cls(tensor.shape, tensor.dtype, name)

    @property
    def shape(self) -> TensorShape:
        return TensorShape._from_tuple(self._shape)

    @property
    def dtype(self):
        return self._dtype

    @property
    def name(self) -> str | None:
        return self._name

    def is_compatible_with(self, spec_or_value) -> bool:
        dtype = getattr(spec_or_value, "dtype", None)
        shape = getattr(spec_or_value, "shape", None)
        if dtype is None:
            return False
        if _dtypes.as_dtype(dtype) != self._dtype:
            return False
        return shapes_compatible(self._shape, as_shape_tuple(shape))

    def most_specific_common_supertype(self, others) -> TensorSpec | None:
        shape = self._shape
        for o in others:
            if not isinstance(o, TensorSpec) or o._dtype != self._dtype:
                return None
            shape = most_specific_common(shape, o._shape)
        return TensorSpec(shape, self._dtype, self._name)

    def __eq__(self, other):
        return (type(other) is TensorSpec and self._shape == other._shape
                and self._dtype == other._dtype and self._name == other._name)

    def __hash__(self):
        return hash((self._shape, self._dtype, self._name))

    def __repr__(self):
        name = "None" if self._name is None else repr(self._name)
        return (f"TensorSpec(shape={format_shape(self._shape)}, dtype={self._dtype!r}, "
                f"name={name})")
