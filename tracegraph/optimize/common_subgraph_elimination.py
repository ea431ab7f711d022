"""Common subexpression elimination: two pure ops of the same type with the same inputs (in
either order for commutative ops), attrs and control inputs compute the same value; the
second reads the first's outputs. Constants with equal values merge too. Stateful and random
ops never merge."""

from __future__ import annotations

import numpy as np

from ..graph.graph import Graph
from ..ops.registry import is_pure
from .builder import GraphBuilder
from .passes import graph_pass


def _attr_key(value):
    if isinstance(value, np.ndarray) or isinstance(value, np.generic):
        arr = np.asarray(value)
        return ("array", arr.dtype.str, arr.shape, arr.tobytes())
    if isinstance(value, Graph):
        return ("graph", id(value))
    if isinstance(value, (list, tuple)):
        return tuple(_attr_key(v) for v in value)
    if isinstance(value, float) and value != value:
        return ("nan",)
    return value


def _mergeable(op) -> bool:
    return is_pure(op.op_def)


def _key(op, inputs, controls):
    ids = [id(t) for t in inputs]
    if "commutative" in op.op_def.flags and all(n is None for n in op.input_arity):
        ids = sorted(ids)
    attrs = tuple(sorted((k, _attr_key(v)) for k, v in op.attrs.items()))
    return (op.type, tuple(ids), op.input_arity, attrs, tuple(sorted(id(c) for c in controls)))


def _has_duplicates(graph) -> bool:
    """A dry run on the source graph: merging starts only where two ops are already equal."""
    seen = set()
    for op in graph.operations:
        if _mergeable(op):
            key = _key(op, op.inputs, op.control_inputs)
            if key in seen:
                return True
            seen.add(key)
    return False


@graph_pass("common_subgraph_elimination", idempotent=True)
def common_subgraph_elimination(graph, ctx):
    if not _has_duplicates(graph):
        return graph
    b = GraphBuilder(graph)
    seen: dict = {}
    changed = False
    for op in b.pending():
        if not _mergeable(op):
            b.copy(op)
            continue
        inputs = [b.tensor(t) for t in op.inputs]
        controls = b.controls(op)
        key = _key(op, inputs, controls)
        first = seen.get(key)
        if first is not None:
            b.replace(op, list(first.outputs))
            ctx.rewrote("duplicate", [op], [first])
            changed = True
            continue
        seen[key] = b.copy(op, inputs=inputs, control_inputs=controls)
    return b.finish() if changed else graph
