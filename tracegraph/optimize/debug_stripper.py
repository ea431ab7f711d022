"""Debug stripper (off by default): removes Assert and Print ops and turns CheckNumerics into
its input, so debugging checks cost nothing (the Grappler seed: check_numerics on inf no
longer raises)."""

from __future__ import annotations

from .builder import GraphBuilder
from .passes import graph_pass


@graph_pass("debug_stripper")
def debug_stripper(graph, ctx):
    debug = [op for op in graph.operations if "debug" in op.op_def.flags]
    if not debug:
        return graph
    b = GraphBuilder(graph)
    for op in b.pending():
        if "debug" in op.op_def.flags:
            if op.outputs:  # CheckNumerics passes its input through
                b.replace(op, [b.tensor(op.inputs[0])], stand_ins=b.controls(op))
            else:
                b.drop(op)
            ctx.rewrote(f"strip_{op.type}", [op], [])
            continue
        b.copy(op)
    return b.finish()
