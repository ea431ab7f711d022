"""Every gradient rule, one module per op family (mirroring `ops/`), each registered by
`@defgrad("TfOpType")` at import."""

from . import (  # noqa: F401
    array,
    complex_numbers,
    functional,
    fused,
    image,
    indexing,
    join_split,
    linalg,
    logging,
    math,
    nn,
    rearrange,
    reduce,
    segments,
    slicing,
    spectral,
    state,
)
