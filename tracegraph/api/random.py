"""`tf.random`."""

from ..library.random import (  # noqa: F401
    categorical,
    normal,
    set_seed,
    shuffle,
    truncated_normal,
    uniform,
)
