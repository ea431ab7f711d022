"""Layer 2: the op registry and the op records (type inference and kernel), one module per family.

The TensorFlow-style functions built from these records live one layer up, in `library/`.

Importing this package registers every op (the registry is filled at import, STYLE rule 10).
"""

from . import (  # noqa: F401
    array,
    bitcast,
    cluster,
    convolution,
    convolution_backprop,
    counting,
    ctc,
    indexing,
    join_split,
    linalg,
    logging,
    math,
    nn,
    nn_backprop,
    pooling,
    python_call,
    random,
    random_seeded,
    random_state,
    random_stateless,
    rearrange,
    reduce,
    sequences,
    slicing,
    space_batch,
    state,
    strings,
    summary,
    tensor_list,
)
from .registry import all_ops, bind, defop, get_op  # noqa: F401
