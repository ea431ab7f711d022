"""`tf.linalg`."""

from ..ops.linalg import (  # noqa: F401
    band_part, cholesky, cross, det, diag, diag_part, einsum, eye, inv, matmul,
    matrix_transpose, matvec, norm, qr, solve, svd, tensordot, trace,
)
from ..ops.nn import l2_normalize  # noqa: F401

adjoint = matrix_transpose
