"""Gradient rules of the sparse records: SparseToDense (the values get the gradient at their
indices, the default value the rest) and SparseTensorDenseMatMul (TensorFlow's rule: the
sparse values get the dot products of the matching rows, the dense matrix the product with
the adjoint)."""

from __future__ import annotations

from ...framework.sparse import SparseTensor, sparse_dense_matmul
from ...library.indexing import gather, gather_nd
from ...library.linalg import matrix_transpose
from ...library.math import conj, multiply, subtract
from ...library.reduce import reduce_sum
from ..registry import defgrad


@defgrad("SparseToDense")
def _sparse_to_dense_grad(op, g):
    indices, _, values, default = op.inputs
    values_grad = gather_nd(g, indices)
    default_grad = subtract(reduce_sum(g), reduce_sum(values_grad)) \
        if default.shape.rank == 0 else None
    return [None, None, values_grad, default_grad]


@defgrad("SparseTensorDenseMatMul")
def _sparse_dense_matmul_grad(op, g):
    a_indices, a_values, a_shape, b = op.inputs
    adjoint_a, adjoint_b = op.attrs.get("adjoint_a", False), op.attrs.get("adjoint_b", False)
    a = SparseTensor(a_indices, a_values, a_shape)
    b_grad = sparse_dense_matmul(a, g, adjoint_a=not adjoint_a)
    if adjoint_b:
        b_grad = conj(matrix_transpose(b_grad))
    rows, cols = a_indices[:, 0], a_indices[:, 1]
    dense = conj(matrix_transpose(b)) if adjoint_b else b
    parts_a = gather(g, cols if adjoint_a else rows)
    parts_b = gather(dense, rows if adjoint_a else cols)
    values_grad = reduce_sum(multiply(parts_a, parts_b), axis=1)
    if adjoint_a:
        values_grad = conj(values_grad)
    return [None, values_grad, None, b_grad]
