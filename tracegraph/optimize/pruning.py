"""Model pruning: drop ops outside the needed set (no output or side effect needs them), and
trivial identities (Identity/StopGradient without control edges) whose consumers can read
their input directly. Placeholders always stay: they are the graph's signature."""

from __future__ import annotations

from ..graph.analysis import needed_ops
from ..ops.registry import is_placeholder_like
from .builder import GraphBuilder
from .passes import graph_pass


def _trivial_identity(op) -> bool:
    return "identity" in op.op_def.flags and not op.control_inputs and len(op.inputs) == 1


@graph_pass("pruning", option="disable_model_pruning")
def pruning(graph, ctx):
    outputs = list(getattr(graph, "outputs", []))
    needed = needed_ops(graph, outputs)
    output_ids = {id(t) for t in outputs}
    removable = [op for op in graph.operations
                 if not is_placeholder_like(op.op_def) and (
                     id(op) not in needed or (_trivial_identity(op) and
                                              id(op.outputs[0]) not in output_ids))]
    if not removable:
        return graph
    drop = {id(op) for op in removable}
    b = GraphBuilder(graph)
    for op in b.pending():
        if id(op) in drop:
            if id(op) in needed:  # a trivial identity: consumers read its input
                b.replace(op, [b.tensor(op.inputs[0])])
                ctx.rewrote("trivial_identity", [op], [op.inputs[0]])
            else:
                b.drop(op)
                ctx.rewrote("not_needed", [op], [])
            continue
        b.copy(op)
    return b.finish()
