"""`tensorflow.python.ops.math_ops` (the names Keras imports from it)."""

from ....api.math import is_finite, is_inf, is_nan  # noqa: F401
from ....library.math import (  # noqa: F401
    add,
    cast,
    divide,
    equal,
    exp,
    multiply,
    sqrt,
    subtract,
)
