"""Symbolic tensors: the edges of a graph, named `op_name:index` like TensorFlow's."""

from __future__ import annotations

import math

from .. import config
from ..framework.tensor import Tensor
from ..shapes import (
    TensorShape,
    TensorType,
    as_shape_tuple,
    format_shape,
    shape_from_tuple,
    shapes_compatible,
)

__all__ = ["SymbolicTensor"]


class SymbolicTensor(Tensor):
    """Output `value_index` of Operation `op`: a dtype, a (partial) shape, maybe a known value."""

    __slots__ = ("op", "value_index", "_dtype", "_shape", "_value", "_partial")

    def __init__(self, op, value_index: int, tensor_type: TensorType):
        self.op = op
        self.value_index = value_index
        self._dtype = tensor_type.dtype
        self._shape = tensor_type.shape
        self._value = tensor_type.value
        self._partial = tensor_type.partial

    def copy_to(self, op) -> SymbolicTensor:
        """This tensor's type as the same output of `op` (a copy of this tensor's op)."""
        new = SymbolicTensor.__new__(SymbolicTensor)
        new.op, new.value_index = op, self.value_index
        new._dtype, new._shape, new._value = self._dtype, self._shape, self._value
        new._partial = self._partial
        return new

    # --- identity --------------------------------------------------------------------------
    @property
    def name(self) -> str:
        return f"{self.op.name}:{self.value_index}"

    @property
    def graph(self):
        return self.op.graph

    @property
    def dtype(self):
        return self._dtype

    @property
    def shape(self) -> TensorShape:
        return shape_from_tuple(self._shape)

    @property
    def ndim(self):
        return None if self._shape is None else len(self._shape)

    @property
    def tensor_type(self) -> TensorType:
        return TensorType(self._dtype, self._shape, self._value, self._partial)

    # --- what passes read (the IR's public surface; `set_shape` is the only writer) ----------
    @property
    def dims(self) -> tuple | None:
        """The static shape as a tuple (None for an unknown dim), or None for unknown rank."""
        return self._shape

    @property
    def known_shape(self) -> tuple | None:
        """The static shape when every dim is known, else None."""
        shape = self._shape
        return None if shape is None or None in shape else shape

    @property
    def static_size(self) -> int | None:
        """The number of elements when the shape is fully known, else None."""
        shape = self.known_shape
        return None if shape is None else math.prod(shape)

    @property
    def static_nbytes(self) -> int | None:
        """The size of the value in bytes when the shape is fully known, else None (a string
        or resource counts one byte per element)."""
        size = self.static_size
        return None if size is None else size * max(self._dtype.size, 1)

    @property
    def known_value(self):
        """The value inference computed at trace time (small constant results), or None."""
        return self._value

    def consumers(self) -> list:
        return [op for op in self.op.graph.get_operations() if self in op.inputs]

    def set_shape(self, shape) -> None:
        """Refines the static shape (it must be compatible with what inference found)."""
        new = as_shape_tuple(shape)
        if not shapes_compatible(self._shape, new):
            raise ValueError(f"Tensor's shape {format_shape(self._shape)} is not compatible "
                             f"with supplied shape {format_shape(new)}.")
        if new is not None:
            if self._shape is None:
                self._shape = new
            else:
                self._shape = tuple(a if a is not None else b for a, b in zip(self._shape, new))

    # --- equality: a TF1 graph's tensors compare and hash by identity, as TensorFlow's ------
    def __eq__(self, other):
        if not self.op.graph.building_function:
            return self is other
        return Tensor.__eq__(self, other)

    def __ne__(self, other):
        if not self.op.graph.building_function:
            return self is not other
        return Tensor.__ne__(self, other)

    def __hash__(self):
        if config.tensor_equality and self.op.graph.building_function:
            raise TypeError("Tensor is unhashable. Instead, use tensor.ref() as the key.")
        return id(self)

    # --- printing --------------------------------------------------------------------------
    def __repr__(self):
        return (f"<tf.Tensor '{self.name}' shape={format_shape(self._shape)} "
                f"dtype={self._dtype.name}>")

    def __str__(self):                      # TF leaves the shape out when the rank is unknown
        shape = "" if self._shape is None else f"shape={format_shape(self._shape)}, "
        return f'Tensor("{self.name}", {shape}dtype={self._dtype.name})'

    # --- what only eager tensors can do ----------------------------------------------------
    def __bool__(self):
        self._symbolic_use("Using")

    def __iter__(self):
        self._symbolic_use("Iterating over")

    def __len__(self):
        raise TypeError(f"len is not well defined for a symbolic Tensor ({self.name}). Please "
                        "call `x.shape` rather than `len(x)` for shape information.")

    def __int__(self):
        self._symbolic_use("Converting to int")

    def __float__(self):
        self._symbolic_use("Converting to float")

    def __index__(self):
        self._symbolic_use("Using as an index")

    def __array__(self, dtype=None, copy=None):
        raise NotImplementedError(
            f"Cannot convert a symbolic tf.Tensor ({self.name}) to a numpy array. This error "
            "may indicate that you're trying to pass a Tensor to a NumPy call, which is not "
            "supported inside a tf.function.")

    @property
    def numpy(self):
        # As TensorFlow (and its guide "Better performance with tf.function", which prints
        # this message): a graph tensor has no value to read, inside its function or leaked
        # out of it. Return it from the function to get its value, or tf.print it.
        raise AttributeError("'SymbolicTensor' object has no attribute 'numpy'")
