"""`tf.sparse.SparseTensor` and the basic `tf.sparse` functions (to_dense, from_dense, add,
sparse_dense_matmul, reorder), over the records in `ops/sparse.py`.

A SparseTensor is three tensors: int64 `indices` [N, rank], `values` [N] and int64
`dense_shape` [rank]. Like RaggedTensor it is built from ops, so the functions run eagerly and
while tracing; a SparseTensor passes into and out of a `tf.function` as its three components
(`composite_specs.SparseTensorSpec`).
"""

from __future__ import annotations

import numpy as np

from .. import dtypes as d
from ..library.array import shape, transpose, zeros_like
from ..library.indexing import gather_nd, where
from ..library.join_split import stack
from ..library.math import cast, not_equal
from ..ops.registry import NO_ATTRS, bind, convert_to_tensor
from ..ops.sparse import (
    sparse_add_op,
    sparse_dense_add_op,
    sparse_dense_matmul_op,
    sparse_reorder_op,
    sparse_sparse_maximum_op,
    sparse_sparse_minimum_op,
    sparse_to_dense_op,
)
from ..shapes import TensorShape
from .composite_specs import SparseTensorSpec
from .core_types import TF_MODULES, CompositeTensor
from .tensor import EagerTensor, Tensor

__all__ = ["SparseTensor", "to_dense", "from_dense", "add", "sparse_dense_matmul", "reorder"]


class SparseTensor(CompositeTensor):
    """`SparseTensor(indices, values, dense_shape)`: the non-default entries of a tensor."""

    __slots__ = ("_indices", "_values", "_dense_shape", "_static_shape")

    def __init__(self, indices, values, dense_shape):
        # tensors are kept as they are (a branch's outputs are rebuilt outside its graph)
        self._indices = indices if _is_tensor_of(indices, d.int64) else \
            convert_to_tensor(indices, dtype=d.int64)
        self._values = values if isinstance(values, Tensor) else convert_to_tensor(values)
        self._dense_shape = dense_shape if _is_tensor_of(dense_shape, d.int64) else \
            _as_dense_shape(dense_shape)
        self._static_shape = None   # what set_shape added to the known dims
        if self._indices.shape.rank not in (None, 2):
            raise ValueError(f"Shape {self._indices.shape} must have rank 2")
        if self._values.shape.rank not in (None, 1):
            raise ValueError(f"Shape {self._values.shape} must have rank 1")
        if self._dense_shape.shape.rank not in (None, 1):
            raise ValueError(f"Shape {self._dense_shape.shape} must have rank 1")

        n_i, n_v = self._indices.shape[0], self._values.shape[0]
        if n_i is not None and n_v is not None and n_i != n_v:
            raise ValueError(f"Dimensions {n_i} and {n_v} are not compatible")

    def __reduce__(self):
        return _rebuild_sparse, (self._indices, self._values, self._dense_shape)

    @classmethod
    def from_value(cls, value):
        if isinstance(value, SparseTensor):
            return value
        raise TypeError(f"Expected a SparseTensor, got {value!r}")

    indices = property(lambda self: self._indices)
    values = property(lambda self: self._values)
    dense_shape = property(lambda self: self._dense_shape)
    dtype = property(lambda self: self._values.dtype)

    @property
    def shape(self) -> TensorShape:
        """The dense shape, statically known when `dense_shape` is a known value (and as
        `set_shape` refined it)."""
        if self._static_shape is not None:
            return self._static_shape.merge_with(self._dense_shape_known())
        return self._dense_shape_known()

    def set_shape(self, shape) -> None:
        """Refines the static dense shape (TensorFlow's SparseTensor.set_shape)."""
        shape = TensorShape(shape)
        if not self.shape.is_compatible_with(shape):
            raise ValueError(f"Shapes {self.shape} and {shape} are incompatible")
        self._static_shape = self.shape.merge_with(shape)

    def _dense_shape_known(self) -> TensorShape:
        if isinstance(self._dense_shape, EagerTensor):
            return TensorShape([int(v) for v in self._dense_shape.numpy()])
        value = getattr(self._dense_shape, "tensor_type", None)
        known = None if value is None else value.value
        if known is not None:
            return TensorShape([int(v) for v in np.asarray(known)])
        n = self._dense_shape.shape[0]
        return TensorShape(None if n is None else [None] * n)

    def get_shape(self) -> TensorShape:
        return self.shape

    @property
    def ndim(self):
        return self.shape.rank

    @property
    def _type_spec(self) -> SparseTensorSpec:
        return SparseTensorSpec.from_value(self)

    def __tf_composite_spec__(self):
        """The spec that splits this value into component tensors (nest, tf.function)."""
        return self._type_spec

    def __tf_tracing_type__(self, context):
        """A sparse argument keys a tf.function by its spec and is fed as its components."""
        return self._type_spec

    def with_values(self, new_values):
        return SparseTensor(self._indices, new_values, self._dense_shape)

    def __repr__(self):
        return (f"SparseTensor(indices={self._indices!s}, values={self._values!s}, "
                f"dense_shape={self._dense_shape!s})")

    __str__ = __repr__


def _is_tensor_of(x, dtype) -> bool:
    return isinstance(x, Tensor) and x.dtype is dtype


def _as_dense_shape(dense_shape):
    """The int64 dense shape; a list may hold int32 scalar tensors (Keras builds
    `(tf.shape(x)[0], 4)`), cast as TensorFlow packs them."""
    if isinstance(dense_shape, (list, tuple)) and any(
            getattr(x, "dtype", None) is d.int32 for x in dense_shape):
        return stack([cast(convert_to_tensor(x, dtype_hint=d.int64), d.int64)
                      for x in dense_shape])
    return convert_to_tensor(dense_shape, dtype=d.int64)


SparseTensor.__module__ = TF_MODULES["SparseTensor"]
SparseTensorSpec.value_class = SparseTensor   # as Keras recognises it


def _rebuild_sparse(indices, values, dense_shape) -> SparseTensor:
    return SparseTensor(indices, values, dense_shape)


def _sparse(x, what) -> SparseTensor:
    if not isinstance(x, SparseTensor):
        raise TypeError(f"{what} expects a SparseTensor, got {type(x).__name__}")
    return x


def to_dense(sp_input, default_value=None, validate_indices=True, name=None):
    """`tf.sparse.to_dense`: the dense tensor, `default_value` (zero) where nothing is set."""
    sp = _sparse(sp_input, "tf.sparse.to_dense")
    if default_value is None:
        default_value = b"" if sp.dtype is d.string else np.zeros((), sp.dtype.as_numpy_dtype)
    default = convert_to_tensor(default_value, dtype=sp.dtype)
    return bind(sparse_to_dense_op, (sp.indices, sp.dense_shape, sp.values, default),
                {"validate_indices": bool(validate_indices)}, name)


def from_dense(tensor, name=None):
    """`tf.sparse.from_dense`: the non-zero entries of a dense tensor, in row-major order."""
    t = convert_to_tensor(tensor)
    indices = where(not_equal(t, zeros_like(t)))
    return SparseTensor(indices, gather_nd(t, indices), shape(t, out_type=d.int64))


def add(a, b, threshold=0, name=None):
    """`tf.sparse.add`: sparse + sparse is sparse (entries below `threshold` dropped); sparse +
    dense (either order) is dense."""
    if isinstance(a, SparseTensor) and isinstance(b, SparseTensor):
        thresh = convert_to_tensor(threshold, dtype=d.as_dtype(a.dtype.real_dtype)
                                   if a.dtype.is_complex else a.dtype)
        indices, values, shape = bind(sparse_add_op, (a.indices, a.values, a.dense_shape,
                                                      b.indices, b.values, b.dense_shape,
                                                      thresh), NO_ATTRS, name)
        return SparseTensor(indices, values, shape)
    if isinstance(b, SparseTensor):
        a, b = b, a
    sp = _sparse(a, "tf.sparse.add")
    return bind(sparse_dense_add_op, (sp.indices, sp.values, sp.dense_shape,
                                      convert_to_tensor(b, dtype=sp.dtype)), NO_ATTRS, name)


def sparse_dense_matmul(sp_a, b, adjoint_a=False, adjoint_b=False, name=None):
    """`tf.sparse.sparse_dense_matmul`: a sparse matrix times a dense one (either side)."""
    if isinstance(b, SparseTensor) and not isinstance(sp_a, SparseTensor):
        # dense @ sparse == (sparse^T @ dense^T)^T
        out = sparse_dense_matmul(b, sp_a, adjoint_a=not adjoint_b, adjoint_b=not adjoint_a)
        return transpose(out)
    sp = _sparse(sp_a, "tf.sparse.sparse_dense_matmul")
    dense = convert_to_tensor(b, dtype=sp.dtype)
    return bind(sparse_dense_matmul_op, (sp.indices, sp.values, sp.dense_shape, dense),
                {"adjoint_a": bool(adjoint_a), "adjoint_b": bool(adjoint_b)}, name)


def reorder(sp_input, name=None):
    """`tf.sparse.reorder`: the same SparseTensor with its indices in row-major order."""
    sp = _sparse(sp_input, "tf.sparse.reorder")
    indices, values = bind(sparse_reorder_op, (sp.indices, sp.values, sp.dense_shape),
                           NO_ATTRS, name)
    return SparseTensor(indices, values, sp.dense_shape)


def _extremum(op, sp_a, sp_b, name):
    a, b = _sparse(sp_a, "tf.sparse.maximum"), _sparse(sp_b, "tf.sparse.maximum")
    indices, values = bind(op, (a.indices, a.values, a.dense_shape, b.indices,
                                convert_to_tensor(b.values, dtype=a.dtype), b.dense_shape),
                           NO_ATTRS, name)
    return SparseTensor(indices, values, a.dense_shape)


def maximum(sp_a, sp_b, name=None):
    """`tf.sparse.maximum`: the larger value at each entry of either (missing entries are 0)."""
    return _extremum(sparse_sparse_maximum_op, sp_a, sp_b, name)


def minimum(sp_a, sp_b, name=None):
    """`tf.sparse.minimum`: the smaller value at each entry of either (missing entries are 0)."""
    return _extremum(sparse_sparse_minimum_op, sp_a, sp_b, name)
