"""`tf.io`."""

from ..framework.ragged_ops import decode_raw  # noqa: F401
