"""`tf.experimental`: `Optional` (tf.data's), `numpy` (tf.experimental.numpy), and `dtensor`
(importable, not supported: see api/dtensor.py)."""

from ..data import Optional
from . import dtensor, numpy

__all__ = ["Optional", "dtensor", "numpy"]
