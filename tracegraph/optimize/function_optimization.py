"""Function inlining: a call of a nested tf.function (`PartitionedCall`,
`StatefulPartitionedCall`) is replaced by the callee's ops, so the other passes see across the
call. Ordering is kept: the callee's stateful ops wait for the call's control inputs, and ops
that waited for the call now wait for them."""

from __future__ import annotations

from ..ops.registry import is_placeholder_like
from .builder import GraphBuilder
from .inline import inline_graph
from .passes import graph_pass


@graph_pass("function_optimization")
def function_optimization(graph, ctx):
    """Inlines every call, level by level, until none is left (an inlined function may call
    another): the pass is idempotent."""
    result = graph
    while any("function_call" in op.op_def.flags for op in result.operations):
        result = _inline_calls(result, ctx)
    return result


def _inline_calls(graph, ctx):
    b = GraphBuilder(graph)
    for op in b.pending():
        if "function_call" not in op.op_def.flags:
            b.copy(op)
            continue
        callee = op.attrs["f"]
        inputs = [b.tensor(t) for t in op.inputs]
        outputs, stateful = inline_graph(b, callee, inputs, op.name, b.controls(op))
        b.replace(op, outputs, stand_ins=stateful + [t.op for t in outputs
                                                     if not is_placeholder_like(t.op.op_def)])
        ctx.rewrote("inline", [op], [callee.name])
    return b.finish()
