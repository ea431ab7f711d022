"""`tensorflow.python.util.deprecation`: `silence()`, which TensorBoard's event reader enters
around TF's record iterator (see tracegraph/compat)."""

from ....tf_logging import silence

__all__ = ["silence"]
