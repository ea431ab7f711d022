"""`tf.experimental`: `Optional` (tf.data's), and `dtensor` (importable, not supported: see
api/dtensor.py)."""

from ..data import Optional
from . import dtensor

__all__ = ["Optional", "dtensor"]
