"""Layer 7: the Grappler-style optimizer. Importing it registers every pass (one module each,
named after the pass it registers); `meta.ORDER` is the one place that orders them."""

from . import (  # noqa: F401
    arithmetic_optimization,
    auto_mixed_precision,
    common_subgraph_elimination,
    constant_folding,
    debug_stripper,
    dependency_optimization,
    function_optimization,
    jit_fusion,
    layout_optimizer,
    loop_optimization,
    memory_optimization,
    no_effect,
    pruning,
    remapping,
    shape_optimization,
)
from .meta import ORDER, optimize  # noqa: F401
