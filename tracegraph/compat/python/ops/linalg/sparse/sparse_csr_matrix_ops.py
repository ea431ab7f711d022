"""`tensorflow.python.ops.linalg.sparse.sparse_csr_matrix_ops`, the three functions Keras uses
for sparse x sparse `matmul`. TensorFlow keeps a CSR matrix in a variant tensor; here the
"CSR matrix" is the SparseTensor itself, and the product goes through dense tensors (right,
not fast: fine for the small sparse operands Keras meets)."""

from __future__ import annotations

import collections

from ......framework.sparse import SparseTensor, from_dense, to_dense
from ......library.linalg import matmul

__all__ = ["sparse_tensor_to_csr_sparse_matrix", "sparse_matrix_sparse_mat_mul",
           "csr_sparse_matrix_to_sparse_tensor"]

SparseTensorComponents = collections.namedtuple("SparseTensorComponents",
                                                ["indices", "values", "dense_shape"])


def sparse_tensor_to_csr_sparse_matrix(indices, values, dense_shape, name=None):
    return SparseTensor(indices, values, dense_shape)


def sparse_matrix_sparse_mat_mul(a, b, type, transpose_a=False, transpose_b=False,  # noqa: A002
                                 adjoint_a=False, adjoint_b=False, name=None):
    product = matmul(to_dense(a), to_dense(b), transpose_a=transpose_a, transpose_b=transpose_b,
                     adjoint_a=adjoint_a, adjoint_b=adjoint_b)
    return from_dense(product)


def csr_sparse_matrix_to_sparse_tensor(sparse_matrix, type, name=None):  # noqa: A002
    return SparseTensorComponents(sparse_matrix.indices, sparse_matrix.values,
                                  sparse_matrix.dense_shape)
