"""`tf.linalg`."""

from ..library.linalg import (  # noqa: F401
    band_part,
    cholesky,
    cross,
    det,
    diag,
    diag_part,
    einsum,
    eye,
    inv,
    matmul,
    matrix_transpose,
    matvec,
    norm,
    qr,
    solve,
    svd,
    tensordot,
    trace,
)
from ..library.nn import l2_normalize  # noqa: F401


def adjoint(matrix, name=None):
    """The conjugate transpose of the last two dimensions."""
    return matrix_transpose(matrix, name=name, conjugate=True)
