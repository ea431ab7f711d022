"""Every gradient rule, one module per op family (mirroring `ops/`), each registered by
`@defgrad("TfOpType")` at import."""

from . import (  # noqa: F401
    array,
    convolution,
    functional,
    fused,
    indexing,
    join_split,
    linalg,
    logging,
    math,
    nn,
    pooling,
    rearrange,
    reduce,
    slicing,
    space_batch,
    state,
)
