"""`tensorflow.compiler.tf2xla.python.xla` (the names Keras imports from it)."""

from .....library.array import dynamic_update_slice  # noqa: F401
