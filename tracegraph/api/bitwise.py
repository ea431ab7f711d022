"""`tf.bitwise`."""

from ..library.math import (  # noqa: F401
    bitwise_and,
    bitwise_or,
    bitwise_xor,
    invert,
    left_shift,
    right_shift,
)
