"""`tf.experimental`: `dtensor` (importable, not supported: see api/dtensor.py); `Optional`
comes with tf.data."""

from . import dtensor  # noqa: F401

__all__ = ["dtensor"]
