"""Sparse ops on the (indices, values, dense_shape) triple of a SparseTensor (records only; the
`SparseTensor` class is in the framework layer): SparseToDense, SparseTensorDenseMatMul,
SparseAdd, SparseTensorDenseAdd, SparseReorder.

`indices` is an int64 [N, rank] matrix, `values` a vector of N values and `dense_shape` an int64
vector of the rank. Kernels check indices as TensorFlow does (in bounds; sorted where the op
needs it) and raise its InvalidArgumentError.
"""

from __future__ import annotations

import numpy as np

from .. import dtypes as d
from ..errors import InvalidArgumentError
from ..shapes import TensorType
from . import infer as I
from .allocation import check_allocation
from .registry import ALL_TYPES, INDEX, NUMBER, TypeAttr, defop

__all__ = ["sparse_to_dense_op", "sparse_dense_matmul_op", "sparse_add_op",
           "sparse_dense_add_op", "sparse_reorder_op"]

_DATA_DEPENDENT = {"pure", "data_dependent_shape"}


def _rank_of(dense_shape: TensorType):
    return None if dense_shape.shape is None else dense_shape.shape[0]


def _check_indices(indices, shape, ordered: bool) -> None:
    if len(indices) == 0:
        return
    indices = np.asarray(indices, np.int64).reshape(len(indices), -1)
    fmt = ",".join
    for i, idx in enumerate(indices):
        if (idx < 0).any() or (idx >= shape).any():
            raise InvalidArgumentError(
                f"indices[{i}] = [{fmt(map(str, idx))}] is out of bounds: need 0 <= index < "
                f"[{fmt(map(str, shape))}]")
        if ordered and i and tuple(indices[i - 1]) >= tuple(idx):
            what = "is repeated" if tuple(indices[i - 1]) == tuple(idx) else "is out of order"
            raise InvalidArgumentError(
                f"indices[{i}] = [{fmt(map(str, idx))}] {what}. Many sparse ops require sorted "
                "indices.\n    Use `tf.sparse.reorder` to create a correctly ordered copy.\n\n")


# ---- SparseToDense ------------------------------------------------------------------------------

def infer_sparse_to_dense(sparse_indices, output_shape, sparse_values, default_value,
                          validate_indices=True):
    dims = I.known_ints(output_shape)
    if dims is not None:
        return TensorType(sparse_values.dtype, tuple(dims))
    n = _rank_of(output_shape)
    return TensorType(sparse_values.dtype, None if n is None else (None,) * n)


def kernel_sparse_to_dense(sparse_indices, output_shape, sparse_values, default_value,
                           validate_indices=True):
    shape = np.asarray(output_shape, np.int64).reshape(-1)
    values = np.asarray(sparse_values)
    indices = np.asarray(sparse_indices, np.int64).reshape(values.shape[0] if values.ndim else
                                                           -1, len(shape))
    _check_indices(indices, shape, ordered=validate_indices)
    check_allocation(shape, values.dtype)
    out = np.empty(tuple(shape), dtype=values.dtype)
    out[...] = np.asarray(default_value, dtype=values.dtype)
    out[tuple(indices.T)] = values
    return out


sparse_to_dense_op = defop(
    "sparse_to_dense", "SparseToDense",
    inputs=("sparse_indices: Tindices", "output_shape: Tindices", "sparse_values: T",
            "default_value: T"),
    attrs={"T": TypeAttr(ALL_TYPES), "Tindices": TypeAttr(INDEX, d.int64),
           "validate_indices": True},
    infer=infer_sparse_to_dense, kernel=kernel_sparse_to_dense, flags={"pure"})

# ---- SparseTensorDenseMatMul --------------------------------------------------------------------


def infer_sparse_dense_matmul(a_indices, a_values, a_shape, b, adjoint_a=False,
                              adjoint_b=False):
    dims = I.known_ints(a_shape)
    rows = None if dims is None else dims[1 if adjoint_a else 0]
    cols = None if b.shape is None else b.shape[0 if adjoint_b else 1]
    return TensorType(b.dtype, (rows, cols))


def kernel_sparse_dense_matmul(a_indices, a_values, a_shape, b, adjoint_a=False,
                               adjoint_b=False):
    shape = np.asarray(a_shape, np.int64).reshape(-1)
    indices = np.asarray(a_indices, np.int64).reshape(-1, 2)
    values = np.asarray(a_values)
    _check_indices(indices, shape, ordered=False)
    b = np.asarray(b)
    if adjoint_b:
        b = np.conj(b.T)
    rows, inner = (shape[1], shape[0]) if adjoint_a else (shape[0], shape[1])
    if b.shape[0] != inner:
        raise InvalidArgumentError(f"Cannot multiply A and B because inner dimension does not "
                                   f"match: {inner} vs. {b.shape[0]}.  Did you forget a "
                                   f"transpose?  Dimensions of A: [{rows}, {inner}).  "
                                   f"Dimensions of B: {list(b.shape)}")
    r, c = (indices[:, 1], indices[:, 0]) if adjoint_a else (indices[:, 0], indices[:, 1])
    v = np.conj(values) if adjoint_a else values
    out = np.zeros((int(rows), b.shape[1]), dtype=b.dtype)
    np.add.at(out, r, v[:, None].astype(b.dtype) * b[c])
    return out


sparse_dense_matmul_op = defop(
    "sparse_dense_matmul", "SparseTensorDenseMatMul",
    inputs=("a_indices: Tindices", "a_values: T", "a_shape: int64", "b: T"),
    attrs={"T": TypeAttr(NUMBER), "Tindices": TypeAttr(INDEX, d.int64), "adjoint_a": False,
           "adjoint_b": False},
    infer=infer_sparse_dense_matmul, kernel=kernel_sparse_dense_matmul, flags={"pure"})

# ---- SparseAdd, SparseTensorDenseAdd, SparseReorder ---------------------------------------------


def infer_sparse_add(a_indices, a_values, a_shape, b_indices, b_values, b_shape, thresh):
    rank = _rank_of(a_shape) if _rank_of(a_shape) is not None else _rank_of(b_shape)
    return (TensorType(d.int64, (None, rank)), TensorType(a_values.dtype, (None,)),
            TensorType(d.int64, (rank,), a_shape.value))


def kernel_sparse_add(a_indices, a_values, a_shape, b_indices, b_values, b_shape, thresh):
    a_shape = np.asarray(a_shape, np.int64)
    if not np.array_equal(a_shape, np.asarray(b_shape, np.int64)):
        raise InvalidArgumentError(f"Operands do not have the same ranks or shapes: "
                                   f"{a_shape.tolist()} vs. {np.asarray(b_shape).tolist()}")
    sums: dict = {}
    for idx, v in zip(np.asarray(a_indices).tolist() + np.asarray(b_indices).tolist(),
                      list(np.asarray(a_values)) + list(np.asarray(b_values))):
        key = tuple(idx)
        sums[key] = sums[key] + v if key in sums else v
    keys = sorted(k for k, v in sums.items() if abs(v) >= thresh)
    values = np.array([sums[k] for k in keys], dtype=np.asarray(a_values).dtype)
    indices = np.array(keys, np.int64).reshape(len(keys), len(a_shape))
    return indices, values, a_shape


sparse_add_op = defop(
    "sparse_add", "SparseAdd",
    inputs=("a_indices: int64", "a_values: T", "a_shape: int64", "b_indices: int64",
            "b_values: T", "b_shape: int64", "thresh: Treal"),
    attrs={"T": TypeAttr(NUMBER), "Treal": TypeAttr(NUMBER - {d.complex64, d.complex128})},
    infer=infer_sparse_add, kernel=kernel_sparse_add, num_outputs=3, flags=_DATA_DEPENDENT)


def infer_sparse_dense_add(a_indices, a_values, a_shape, b):
    return TensorType(b.dtype, b.shape)


def kernel_sparse_dense_add(a_indices, a_values, a_shape, b):
    shape = np.asarray(a_shape, np.int64)
    b = np.asarray(b)
    if tuple(shape) != b.shape:
        raise InvalidArgumentError(f"Dimension mismatch: the sparse operand has shape "
                                   f"{shape.tolist()} and the dense one {list(b.shape)}")
    indices = np.asarray(a_indices, np.int64).reshape(-1, len(shape))
    _check_indices(indices, shape, ordered=False)
    out = b.copy()
    np.add.at(out, tuple(indices.T), np.asarray(a_values))
    return out


sparse_dense_add_op = defop(
    "sparse_dense_add", "SparseTensorDenseAdd",
    inputs=("a_indices: Tindices", "a_values: T", "a_shape: Tindices", "b: T"),
    attrs={"T": TypeAttr(NUMBER), "Tindices": TypeAttr(INDEX, d.int64)},
    infer=infer_sparse_dense_add, kernel=kernel_sparse_dense_add, flags={"pure"})


def infer_sparse_reorder(input_indices, input_values, input_shape):
    return (TensorType(d.int64, input_indices.shape), TensorType(input_values.dtype,
                                                                 input_values.shape))


def kernel_sparse_reorder(input_indices, input_values, input_shape):
    indices = np.asarray(input_indices, np.int64)
    order = np.lexsort(indices.T[::-1]) if indices.size else np.arange(len(indices))
    return indices[order], np.asarray(input_values)[order]


sparse_reorder_op = defop(
    "sparse_reorder", "SparseReorder",
    inputs=("input_indices: int64", "input_values: T", "input_shape: int64"),
    attrs={"T": TypeAttr(ALL_TYPES)}, infer=infer_sparse_reorder, kernel=kernel_sparse_reorder,
    num_outputs=2, flags={"pure"})


# ---- SparseSparseMaximum / Minimum: elementwise over the union of the entries ----------------

def infer_sparse_extremum(a_indices, a_values, a_shape, b_indices, b_values, b_shape):
    rank = _rank_of(a_shape) if _rank_of(a_shape) is not None else _rank_of(b_shape)
    return TensorType(d.int64, (None, rank)), TensorType(a_values.dtype, (None,))


def _extremum_kernel(pick):
    def kernel(a_indices, a_values, a_shape, b_indices, b_values, b_shape):
        a_shape, b_shape = np.asarray(a_shape, np.int64), np.asarray(b_shape, np.int64)
        for dim, (m, n) in enumerate(zip(a_shape.tolist(), b_shape.tolist())):
            if m != n:
                raise InvalidArgumentError(f"Operands' shapes do not match: got {m} and {n} "
                                           f"for dimension {dim}")
        zero = np.zeros((), np.asarray(a_values).dtype)
        a = dict(zip(map(tuple, np.asarray(a_indices).tolist()), np.asarray(a_values)))
        b = dict(zip(map(tuple, np.asarray(b_indices).tolist()), np.asarray(b_values)))
        keys = sorted(set(a) | set(b))
        values = np.array([pick(a.get(k, zero), b.get(k, zero)) for k in keys], zero.dtype)
        return np.array(keys, np.int64).reshape(len(keys), len(a_shape)), values
    return kernel


_EXTREMUM = dict(inputs=("a_indices: int64", "a_values: T", "a_shape: int64",
                         "b_indices: int64", "b_values: T", "b_shape: int64"),
                 attrs={"T": TypeAttr(NUMBER - {d.complex64, d.complex128})},
                 infer=infer_sparse_extremum, num_outputs=2, flags=_DATA_DEPENDENT)
sparse_sparse_maximum_op = defop("sparse_sparse_maximum", "SparseSparseMaximum",
                                 kernel=_extremum_kernel(np.maximum), **_EXTREMUM)
sparse_sparse_minimum_op = defop("sparse_sparse_minimum", "SparseSparseMinimum",
                                 kernel=_extremum_kernel(np.minimum), **_EXTREMUM)
