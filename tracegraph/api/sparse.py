"""`tf.sparse`."""

from ..framework.sparse import (  # noqa: F401
    SparseTensor,
    add,
    from_dense,
    maximum,
    minimum,
    reorder,
    sparse_dense_matmul,
    to_dense,
)
