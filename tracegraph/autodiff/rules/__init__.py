"""Every gradient rule, one module per op family (mirroring `ops/`), each registered by
`@defgrad("TfOpType")` at import."""

from . import (  # noqa: F401
    array,
    complex_numbers,
    convolution,
    functional,
    fused,
    graph_mode,
    image,
    indexing,
    join_split,
    linalg,
    logging,
    math,
    nn,
    pooling,
    ragged,
    rearrange,
    reduce,
    segments,
    slicing,
    space_batch,
    sparse,
    spectral,
    state,
)
