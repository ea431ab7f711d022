"""`op_scope(name)`: the name scope a composite function builds its ops under, as TensorFlow's
`with ops.name_scope(name, default) as scope:` does. In a graph, ops made inside get `scope/`
prefixed and the op that stands for the whole result takes the scope's own name (pass the
yielded `scope`, which ends in "/", as its name: `truediv_1/Cast`, then `truediv_1`). Eagerly
names mean nothing and the scope is only a string."""

from __future__ import annotations

import contextlib

from .registry import current_context

__all__ = ["op_scope"]


def op_scope(name: str):
    graph = getattr(current_context(), "graph", None)
    if graph is None:
        return contextlib.nullcontext(f"{name}/")
    return graph.name_scope(name)
