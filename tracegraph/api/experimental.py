"""`tf.experimental`: `Optional` (tf.data's), and `dtensor` (importable, not supported: see
api/dtensor.py)."""

from ..data import Optional
from . import dtensor

__all__ = ["Optional", "dtensor"]

# tf.experimental.RowPartition: a ragged dimension's row partition (Keras slices sparse batches)
from ..framework.row_partition import RowPartition  # noqa: E402

__all__ += ["RowPartition"]
