"""Every gradient rule, one module per op family (mirroring `ops/`), each registered by
`@defgrad("TfOpType")` at import."""

from . import (  # noqa: F401
    array,
    functional,
    fused,
    indexing,
    join_split,
    linalg,
    logging,
    math,
    nn,
    rearrange,
    reduce,
    slicing,
    special,
    state,
    tensor_list,
)
