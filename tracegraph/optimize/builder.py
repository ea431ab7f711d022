"""Rebuilding a graph op by op: what every pass uses to return a new graph (passes are pure;
the graph they get is never mutated, DESIGN "The traced graph is never mutated").

A pass walks the source graph in order and, for each op, either copies it (its inputs mapped
to the new graph), replaces its outputs with tensors of the new graph, or drops it. New ops are
made through `apply`, which runs the op record's type inference like tracing does.
"""

from __future__ import annotations

import numpy as np

from .. import dtypes as d
from ..graph.analysis import consumers  # noqa: F401  (re-exported for the passes)
from ..graph.building import GraphContext
from ..graph.graph import FuncGraph, Graph, Operation
from ..ops.array import const_op
from ..ops.registry import bind, context_scope, is_placeholder_like

__all__ = ["GraphBuilder", "consumers", "count_edges", "is_constant", "constant_value",
           "may_write_into"]


class GraphBuilder:
    def __init__(self, src: Graph):
        self.src = src
        dst = FuncGraph(src.name, getattr(src, "outer_graph", None))
        dst.auto_control_deps = False
        dst.structured_outputs = getattr(src, "structured_outputs", None)
        dst.structured_input_signature = getattr(src, "structured_input_signature", None)
        self.dst = dst
        self.tensors: dict[int, object] = {}   # id(src tensor) -> dst tensor
        self.ops: dict[int, list] = {}         # id(src op) -> dst ops standing for it
        self._ctx = GraphContext(dst)
        self._discarded: list = []
        for t in getattr(src, "inputs", []):
            self.copy(t.op)
        for key, (external, ph) in getattr(src, "captures", {}).items():
            new = self.copy(ph.op) if id(ph) not in self.tensors else self.tensors[id(ph)].op
            dst.captures[key] = (external, new.outputs[0])
        dst.inputs = [self.tensor(t) for t in getattr(src, "inputs", [])]

    # --- mapping ---------------------------------------------------------------------------
    def tensor(self, t):
        return self.tensors[id(t)]

    def has(self, op) -> bool:
        return id(op) in self.ops

    def pending(self):
        """The source graph's ops in order, skipping those already built (the inputs, the
        captures, and any op a rewrite built ahead of its turn)."""
        for op in self.src.operations:
            if id(op) not in self.ops:
                yield op

    def controls(self, op) -> list[Operation]:
        out, seen = [], set()
        for c in op.control_inputs:
            for new in self.ops.get(id(c), []):
                if id(new) not in seen:
                    seen.add(id(new))
                    out.append(new)
        return out

    # --- building --------------------------------------------------------------------------
    def copy(self, op, inputs=None, attrs=None, control_inputs=None, name=None) -> Operation:
        """`op` in the new graph, with its inputs mapped (or given), same attrs and types, and
        its in-place mark (`Operation.inplace_input`, re-checked by `finish`)."""
        dst, tensors = self.dst, self.tensors
        inputs = [tensors[id(t)] for t in op.inputs] if inputs is None else list(inputs)
        if control_inputs is None:
            controls = self.controls(op) if op.control_inputs else []
        else:
            controls = list(control_inputs)
        new = dst.copy_operation(op, dst.unique_name(name or op.name), inputs, controls, attrs)
        for old_t, new_t in zip(op.outputs, new.outputs):
            tensors[id(old_t)] = new_t
        self.ops[id(op)] = [new]
        return new

    def replace(self, op, outputs: list, stand_ins=None) -> None:
        """`op`'s outputs are `outputs` (tensors of the new graph); control edges on `op`
        become edges on `stand_ins` (default: the producers of `outputs`)."""
        for old_t, new_t in zip(op.outputs, outputs):
            self.tensors[id(old_t)] = new_t
        if stand_ins is None:
            stand_ins = [t.op for t in outputs if not is_placeholder_like(t.op.op_def)]
            stand_ins += self.controls(op)
        self.ops[id(op)] = list(stand_ins)

    def discard(self, new_op) -> None:
        """Takes an op made in the new graph back out (it must have no consumers); its name is
        free again, so a replacement can take it."""
        self._discarded.append(new_op)
        self.dst.release_name(new_op.name)

    def drop(self, op) -> None:
        """`op` disappears; control edges on it move to its own control inputs."""
        self.ops[id(op)] = self.controls(op)

    def apply(self, op_def, inputs, attrs=None, name=None, source=None, controls=()):
        """A new op made by its record (type inference, constants for Python values)."""
        with self.dst.control_dependencies(list(controls)), context_scope(self._ctx):
            out = bind(op_def, tuple(inputs), attrs or {}, name)
        created = out.op if hasattr(out, "op") else (out[0].op if isinstance(out, list) and out
                                                      else out)
        if source is not None and isinstance(created, Operation):
            created.source = source
        return out

    def constant(self, value, name: str, source=None, controls=()):
        arr = np.asarray(value) if not isinstance(value, np.generic) else value
        return self.apply(const_op, (), {"value": arr, "dtype": d.NUMPY_TO_DTYPE[arr.dtype]},
                          name, source, controls)

    def finish(self, inplace_checked: bool = False) -> FuncGraph:
        """The new graph. In-place marks that no longer hold are dropped, unless the caller
        knows they hold (`inplace_checked`: memory optimization's one-to-one copy)."""
        self.dst.remove_operations(self._discarded)
        self.dst.outputs = [self.tensor(t) for t in getattr(self.src, "outputs", [])]
        self.dst.auto_control_deps = getattr(self.src, "auto_control_deps", True)
        if not inplace_checked:
            _drop_stale_inplace(self.dst)
        return self.dst


def may_write_into(op, index: int, uses: dict, outputs: set) -> bool:
    """Whether `op` (an elementwise op with a ufunc) may write its result into the buffer of
    input `index`: the input is a fresh array made by its producer (not a view, a constant, an
    argument or a Variable's value), `op` is its only reader, it is no output of the graph,
    and it has the result's static shape and dtype (nothing is broadcast into it)."""
    t, out = op.inputs[index], op.outputs[0]
    producer = t.op.op_def
    return ("fresh_output" in producer.flags and not producer.stateful
            and uses.get(id(t)) == [op] and id(t) not in outputs
            and t.dims == out.dims and t.dtype is out.dtype)


def _drop_stale_inplace(graph) -> None:
    """An op copied with memory optimization's in-place mark (`Operation.inplace_input`) keeps
    it only while the rule still holds in the new graph: a pass may have given it another input
    (a loop invariant hoisted into a placeholder, a value merged with a duplicate that has
    other readers)."""
    marked = [op for op in graph.operations if op.inplace_input is not None]
    if not marked:
        return
    uses = consumers(graph)
    outputs = {id(t) for t in getattr(graph, "outputs", [])}
    for op in marked:
        if not may_write_into(op, op.inplace_input, uses, outputs):
            op.inplace_input = None


def count_edges(graph: Graph) -> int:
    return sum(len(op.inputs) + len(op.control_inputs) for op in graph.operations)


def is_constant(t) -> bool:
    return "constant" in t.op.op_def.flags


def constant_value(t):
    """The value of a tensor made by a Const op, else None."""
    return t.op.attrs["value"] if is_constant(t) else None
