"""Dependency optimization: remove NoOp and identity nodes, and control edges that are
redundant (duplicates, or on an op that is already a data input). Its rewrites, bit for bit:

    NoOp             -> nothing: what waited for it waits for its control inputs
    identity(x) = x  -> x: readers read x (records flagged `identity`: Identity, StopGradient,
                        ...), unless the identity is an output of the graph
    c -> op, c also a data input of op (or a duplicate edge) -> the data edge alone
"""

from __future__ import annotations

from .builder import GraphBuilder
from .passes import graph_pass
from .rewrite_rules import Op

NO_OP = Op("NoOp")   # the one removal matched by type; identities are matched by flag


def _removable(op, output_ids) -> bool:
    if op.type == NO_OP.type:
        return True
    return "identity" in op.op_def.flags and id(op.outputs[0]) not in output_ids


def _redundant_controls(op) -> bool:
    names = [c.name for c in op.control_inputs]
    producers = {t.op.name for t in op.inputs}
    return len(set(names)) != len(names) or any(n in producers for n in names)


@graph_pass("dependency_optimization")
def dependency_optimization(graph, ctx):
    output_ids = {id(t) for t in getattr(graph, "outputs", [])}
    if not any(_removable(op, output_ids) or _redundant_controls(op)
               for op in graph.operations):
        return graph
    b = GraphBuilder(graph)
    for op in b.pending():
        if _removable(op, output_ids):
            if op.outputs:
                b.replace(op, [b.tensor(op.inputs[0])])
            else:
                b.drop(op)
            ctx.rewrote(f"remove_{op.type.lower()}", [op],
                        [op.inputs[0]] if op.inputs else [])
            continue
        controls = b.controls(op)
        producers = {id(b.tensor(t).op) for t in op.inputs}
        kept, seen = [], set()
        for c in controls:
            if id(c) not in seen and id(c) not in producers:
                seen.add(id(c))
                kept.append(c)
        if len(kept) != len(op.control_inputs):
            ctx.rewrote("redundant_control_edges", [op], [op])
        b.copy(op, control_inputs=kept)
    return b.finish()
