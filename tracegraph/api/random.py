"""`tf.random`."""

from ..library.random import (  # noqa: F401
    categorical,
    normal,
    set_seed,
    shuffle,
    truncated_normal,
    uniform,
)
from ..library.random_stateless import (  # noqa: F401
    stateless_normal,
    stateless_truncated_normal,
    stateless_uniform,
)
