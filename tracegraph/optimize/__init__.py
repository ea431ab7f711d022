"""Layer 7: the Grappler-style optimizer. Importing it registers every pass (one module each);
`meta.ORDER` is the one place that orders them."""

from . import (  # noqa: F401
    arithmetic,
    constant_folding,
    cse,
    debug_stripper,
    dependency,
    function_inlining,
    layout,
    loop,
    memory,
    mixed_precision,
    no_effect,
    pruning,
    remapper,
    shape,
)
from .meta import ORDER, optimize  # noqa: F401
