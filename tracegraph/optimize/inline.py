"""Inlining a sub-graph's ops into the graph being built: used by function inlining (calls of
nested tf.functions) and by loop optimization (a cond whose predicate is a constant)."""

from __future__ import annotations

from ..ops.registry import is_placeholder_like
from .builder import GraphBuilder


def inline_graph(b: GraphBuilder, sub, inputs: list, prefix: str, controls: list):
    """Copies `sub`'s ops into `b.dst`, its placeholders bound to `inputs` (tensors of the new
    graph, in `sub.inputs + capture placeholders` order). Ops get `prefix/` names; ops with no
    data inputs, stateful ops and Variable reads also wait for `controls` (a read must still
    see the writes the call waited for). Returns (outputs, stateful ops)."""
    dst = b.dst
    formal = list(getattr(sub, "inputs", [])) + list(getattr(sub, "capture_placeholders", []))
    tensors = {id(p): t for p, t in zip(formal, inputs)}
    ops = {}
    stateful = []
    for op in sub.operations:
        if is_placeholder_like(op.op_def) and id(op.outputs[0]) in tensors:
            continue  # a formal input: already bound
        new_inputs = [tensors[id(t)] for t in op.inputs]
        new_controls = [ops[id(c)] for c in op.control_inputs if id(c) in ops]
        if not op.inputs or op.op_def.stateful or "resource_read" in op.op_def.flags:
            new_controls += [c for c in controls if c not in new_controls]
        new = dst.copy_operation(op, dst.unique_name(f"{prefix}/{op.name}"), new_inputs,
                                 new_controls)
        ops[id(op)] = new
        for old_t, new_t in zip(op.outputs, new.outputs):
            tensors[id(old_t)] = new_t
        if op.op_def.stateful:
            stateful.append(new)
    return [tensors[id(t)] for t in sub.outputs], stateful
