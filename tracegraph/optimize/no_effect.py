"""Options TensorFlow has that can do nothing on a CPU-only NumPy runtime. They are accepted,
reported as having no effect, and say why (see options.OPTIONS):

- pin_to_host_optimization: every op already runs on the host;
- scoped_allocator_optimization: NumPy allocates every array, there is no device allocator;
- auto_parallel: it replicates a graph across devices; there is one CPU device.
"""

from __future__ import annotations

from .options import OPTIONS
from .passes import graph_pass

_REASONS = {o.key: o.does_nothing for o in OPTIONS if o.does_nothing}


def _no_effect(key: str):
    def run(graph, ctx):
        return graph
    run.__doc__ = f"No effect: {_REASONS[key]}."
    return run


for _key in ("pin_to_host_optimization", "scoped_allocator_optimization", "auto_parallel"):
    graph_pass(_key)(_no_effect(_key))
