"""The marks a pass may put on a graph: a small declared vocabulary, each with what it promises.

A pass marks a graph it builds (`graph.mark("jit_cluster")`) and an executor asks
(`graph.has_mark("jit_cluster")`); `Graph.mark` rejects a name outside `GRAPH_MARKS`, as `defop`
rejects a flag outside the ops' vocabulary. Marks are not attrs: they never reach a GraphDef or
a saved file, and a copy of a graph starts unmarked.
"""

from __future__ import annotations

from types import MappingProxyType

__all__ = ["GRAPH_MARKS", "check_mark"]

GRAPH_MARKS = MappingProxyType({
    "jit_cluster": "the body of a `_FusedElementwise` op made by jit fusion (a cluster of "
                   "elementwise ops): the jit executor compiles it into one numba kernel",
    "jit_loop": "the body of a `_FusedLoop` op made by jit fusion (a while loop on scalars): "
                "the jit executor compiles the whole loop into one numba kernel",
})


def check_mark(name: str) -> str:
    """`name`, if it is a declared mark; else a ValueError naming the vocabulary."""
    if name not in GRAPH_MARKS:
        raise ValueError(f"unknown graph mark {name!r}: the marks a pass may put on a graph "
                         f"are declared in tracegraph/graph/marks.py ({', '.join(GRAPH_MARKS)})")
    return name
