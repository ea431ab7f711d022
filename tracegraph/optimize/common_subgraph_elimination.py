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
        return (type(value).__name__, tuple(_attr_key(v) for v in value))
    if isinstance(value, dict):  # structures of specs (a dataset's element_spec of a dict)
        return ("dict", tuple(sorted(((repr(k), _attr_key(v)) for k, v in value.items()),
                                     key=lambda kv: kv[0])))
    if isinstance(value, float) and value != value:
        return ("nan",)
    try:
        hash(value)
    except TypeError:  # an unhashable attr value: equal only to itself
        return ("object", id(value))
    return value


def _mergeable(op) -> bool:
    return is_pure(op.op_def)


def _attrs_key(op, cache: dict):
    """The op's attrs as a hashable key (computed once per op of the source graph)."""
    key = cache.get(id(op))
    if key is None:
        key = cache[id(op)] = tuple(sorted((k, _attr_key(v)) for k, v in op.attrs.items()))
    return key


def _key(op, inputs, controls, cache: dict):
    ids = [id(t) for t in inputs]
    if "commutative" in op.op_def.flags and all(n is None for n in op.input_arity):
        ids = sorted(ids)
    controls = tuple(sorted(id(c) for c in controls)) if controls else ()
    return (op.type, tuple(ids), op.input_arity, _attrs_key(op, cache), controls)


def _has_duplicates(graph, cache: dict) -> bool:
    """A dry run on the source graph: merging starts only where two ops are already equal."""
    seen = set()
    for op in graph.operations:
        if _mergeable(op):
            key = _key(op, op.inputs, op.control_inputs, cache)
            if key in seen:
                return True
            seen.add(key)
    return False


@graph_pass("common_subgraph_elimination", idempotent=True)
def common_subgraph_elimination(graph, ctx):
    cache: dict = {}
    if not _has_duplicates(graph, cache):
        return graph
    b = GraphBuilder(graph)
    seen: dict = {}
    changed = False
    for op in b.pending():
        if not _mergeable(op):
            b.copy(op)
            continue
        inputs = [b.tensor(t) for t in op.inputs]
        controls = b.controls(op) if op.control_inputs else []
        key = _key(op, inputs, controls, cache)
        first = seen.get(key)
        if first is not None:
            b.replace(op, list(first.outputs))
            ctx.rewrote("duplicate", [op], [first])
            changed = True
            continue
        seen[key] = b.copy(op, inputs=inputs, control_inputs=controls)
    return b.finish() if changed else graph
