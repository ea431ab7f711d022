"""`tf.IndexedSlices`: some rows of a tensor — `values[i]` is row `indices[i]` of a dense
tensor of shape `dense_shape` — the form TensorFlow gives the gradient of a gather (an
embedding lookup) so that optimizers update only those rows (`Variable.scatter_sub`).

Converted to a tensor (`tf.convert_to_tensor`, or passed to any op) it becomes the dense tensor,
rows given several times summed, as TensorFlow's conversion does.
"""

from __future__ import annotations

import numpy as np

from ..library.indexing import scatter_nd
from ..library.math import cast
from ..ops.registry import convert_to_tensor
from ..shapes import TensorShape
from .core_types import CompositeTensor

__all__ = ["IndexedSlices"]


class IndexedSlices(CompositeTensor):
    """`tf.IndexedSlices(values, indices, dense_shape=None)` (see the module docstring)."""

    __slots__ = ("_values", "_indices", "_dense_shape", "__weakref__")

    def __init__(self, values, indices, dense_shape=None):
        self._values = values
        self._indices = indices
        self._dense_shape = dense_shape

    @property
    def values(self):
        return self._values

    @property
    def indices(self):
        return self._indices

    @property
    def dense_shape(self):
        return self._dense_shape

    @property
    def dtype(self):
        return self._values.dtype

    @property
    def shape(self) -> TensorShape:
        """The dense tensor's static shape (unknown without `dense_shape`)."""
        dense_shape = self._dense_shape
        if dense_shape is None:
            return TensorShape(None)
        if isinstance(dense_shape, (list, tuple)):
            return TensorShape(dense_shape)
        known = getattr(dense_shape, "known_value", None)  # eager, or a constant in a graph
        if known is not None:
            return TensorShape([int(n) for n in np.asarray(known)])
        rank = dense_shape.shape[0] if dense_shape.shape.rank else None
        return TensorShape(None if rank is None else [None] * rank)

    @property
    def name(self):
        return self._values.name

    @property
    def device(self):
        return self._values.device

    @property
    def op(self):
        return self._values.op

    @property
    def graph(self):
        return self._values.graph

    # ---- the nest protocol: values, indices and dense shape (what tf.function returns) -------
    def __tf_flatten__(self):
        dense_shape = self._dense_shape
        if isinstance(dense_shape, (list, tuple)):
            dense_shape = np.asarray(dense_shape, np.int64)
        return dense_shape is None, (self._values, self._indices) + (
            () if dense_shape is None else (dense_shape,))

    @classmethod
    def __tf_unflatten__(cls, metadata, components):
        return cls(components[0], components[1], None if metadata else components[2])

    def __neg__(self):
        return IndexedSlices(-self._values, self._indices, self._dense_shape)

    def __tf_tensor__(self, dtype=None, name=None):
        """The dense tensor (rows given more than once are summed)."""
        if self._dense_shape is None:
            raise ValueError(f"Tensor conversion requested for IndexedSlices without "
                             f"dense_shape: {self!s}")
        values = convert_to_tensor(self._values)
        if dtype is not None and values.dtype is not dtype:
            raise ValueError(f"Tensor conversion requested dtype {dtype.name} for Tensor with "
                             f"dtype {values.dtype.name}: {self!s}")
        indices = convert_to_tensor(self._indices)
        dense_shape = convert_to_tensor(self._dense_shape)
        if dense_shape.dtype != indices.dtype:
            dense_shape = cast(dense_shape, indices.dtype)
        rows = scatter_nd(indices[:, None], values, dense_shape)
        return rows

    def __str__(self):
        shape = "" if self._dense_shape is None else f", dense_shape={self._dense_shape!s}"
        return f"IndexedSlices(indices={self._indices!s}, values={self._values!s}{shape})"

