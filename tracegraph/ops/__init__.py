"""Layer 2: the op registry and the op library, one module per family.

Importing this package registers every op (the registry is filled at import, STYLE rule 10).
"""

from . import (  # noqa: F401
    array,
    conv_grad,
    indexing,
    linalg,
    logging,
    math,
    nn,
    random,
    reduce,
    slicing,
    state,
    strings,
)
from .registry import all_ops, bind, defop, get_op  # noqa: F401
