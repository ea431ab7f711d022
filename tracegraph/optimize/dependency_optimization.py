"""Dependency optimization: remove Identity and NoOp nodes (consumers read the identity's
input; control edges on a removed node move to its own control inputs), and control edges
that are redundant (duplicates, or on an op that is already a data input)."""

from __future__ import annotations

from .builder import GraphBuilder
from .passes import graph_pass


def _removable(op, output_ids) -> bool:
    if op.type == "NoOp":
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
