"""Constant folding: an op whose inputs are all constants runs now and becomes a Const
(TensorFlow's 10 MiB cap on a folded value). Statically known values (shape, size and rank
of known shapes; small values inference already computed) are materialized too. Captured eager
tensors count as constants: they are immutable. Stateful and random ops never fold, and an op
whose kernel fails is left for run time (it may never run)."""

from __future__ import annotations

import numpy as np

from ..framework.tensor import EagerTensor
from ..framework.tensor import EagerTensor as _Eager
from ..ops.registry import is_foldable
from ..shapes import format_dims
from .builder import GraphBuilder
from .passes import graph_pass

MAX_CONSTANT_BYTES = 10 * 1024 * 1024


def _foldable(op) -> bool:
    return is_foldable(op.op_def) and not op.subgraphs()


def _static_bytes(op) -> int | None:
    sizes = [t.static_nbytes for t in op.outputs]
    return None if None in sizes else sum(sizes)


def _known(b: GraphBuilder, t, captured: dict):
    """The constant value of a tensor of the new graph, or None."""
    if "constant" in t.op.op_def.flags:
        return t.op.attrs["value"]
    value = captured.get(id(t))
    if value is not None:
        return value
    return None


def _evaluate(op, values):
    with np.errstate(all="ignore"):
        out = op.op_def.kernel(*op.grouped_inputs(values), **op.kernel_attrs)
    return [out] if op.op_def.num_outputs == 1 else list(out)


def _anything_to_fold(graph) -> bool:
    """Some foldable op reads only constants (or captured eager values), or has outputs
    whose values inference already knows."""
    constant = {id(ph) for value, ph in getattr(graph, "captures", {}).values()
                if isinstance(value, _Eager)}
    for op in graph.operations:
        if "constant" in op.op_def.flags:
            constant.update(id(t) for t in op.outputs)
            continue
        if not _foldable(op) or not op.outputs:
            continue
        if all(id(t) in constant for t in op.inputs) or (
                op.inputs and all(t.known_value is not None for t in op.outputs)):
            return True
    return False


@graph_pass("constant_folding")
def constant_folding(graph, ctx):
    if not _anything_to_fold(graph):
        return graph
    b = GraphBuilder(graph)
    captured = {id(ph): np.asarray(value) for value, ph in b.dst.captures.values()
                if isinstance(value, EagerTensor)}
    changed = False
    for op in b.pending():
        if not _foldable(op) or not op.outputs:
            b.copy(op)
            continue
        inputs = [b.tensor(t) for t in op.inputs]
        values = [_known(b, t, captured) for t in inputs]
        if all(v is not None for v in values) and (op.inputs or op.op_def.kernel):
            size = _static_bytes(op)
            if size is None or size <= MAX_CONSTANT_BYTES:
                try:
                    results = _evaluate(op, values)
                except Exception:  # a runtime error stays a runtime error
                    results = None
                if results is not None and sum(np.asarray(r).nbytes for r in results) \
                        <= MAX_CONSTANT_BYTES:
                    _replace(b, op, results, ctx)
                    changed = True
                    continue
        known = [t.known_value for t in op.outputs]
        if op.inputs and all(v is not None for v in known):  # e.g. shape of a known shape
            _replace(b, op, known, ctx)
            changed = True
            continue
        b.copy(op, inputs=inputs)
    if not changed:
        return graph
    return _without_dead_constants(b.finish())


def _without_dead_constants(graph):
    """Folded ops leave their constant inputs unread: drop those (not the graph's outputs)."""
    read = {id(t) for op in graph.operations for t in op.inputs}
    read |= {id(t) for t in graph.outputs}
    controlled = {id(c) for op in graph.operations for c in op.control_inputs}
    dead = [op for op in graph.operations if "constant" in op.op_def.flags
            and id(op.outputs[0]) not in read and id(op) not in controlled]
    if not dead:
        return graph
    graph.remove_operations(dead)
    return graph


def _replace(b: GraphBuilder, op, results, ctx) -> None:
    controls = b.controls(op)
    outs = []
    for i, (t, value) in enumerate(zip(op.outputs, results)):
        arr = np.asarray(value, dtype=object if t.dtype.name == "string" else None)
        if arr.dtype != t.dtype.numpy_dtype and t.dtype.name != "string":
            arr = arr.astype(t.dtype.numpy_dtype)
        name = op.name if i == 0 else f"{op.name}_{i}"
        outs.append(b.constant(arr, name, op.source, controls))
    b.replace(op, outs)
    # what became a constant: `MatMul_1 = MatMul(MatMul, Const) -> constant float32[2,2]`
    computed = f"{op.name} = {op.type}({', '.join(t.op.name for t in op.inputs)})"
    made = ", ".join(f"constant {t.dtype.name}{format_dims(t.shape)}" for t in op.outputs)
    ctx.rewrote("fold", [computed], [made])
