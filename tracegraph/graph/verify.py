"""The graph verifier: structural invariants every graph (traced or optimized) must keep.

- names are unique, and every op is reachable by its name;
- operations are in topological order: inputs and control inputs come before their consumers;
- every input and control input belongs to the same graph;
- each input's dtype is what the op's record expects (a type attr binds one dtype);
- input arity matches the flat inputs; outputs point back at their op;
- sub-graphs verify too.
"""

from __future__ import annotations

from .graph import Graph

__all__ = ["verify", "GraphVerificationError"]


class GraphVerificationError(AssertionError):
    """A graph broke an invariant (a bug in a pass or in graph building, never user error)."""


def verify(graph: Graph) -> None:
    seen: set[int] = set()
    names: set[str] = set()
    for op in graph.operations:
        where = f"graph {graph.name!r}, op {op.name!r} ({op.type})"
        if op.name in names:
            raise GraphVerificationError(f"{where}: duplicate name")
        names.add(op.name)
        if graph._by_name.get(op.name) is not op:
            raise GraphVerificationError(f"{where}: not registered under its name")
        for t in op.inputs:
            if t.op.graph is not graph:
                raise GraphVerificationError(f"{where}: input {t.name} is from another graph")
            if id(t.op) not in seen:
                raise GraphVerificationError(f"{where}: input {t.name} is not defined before")
        for c in op.control_inputs:
            if c.graph is not graph or id(c) not in seen:
                raise GraphVerificationError(f"{where}: control input {c.name} out of order")
        expected = sum(1 if n is None else n for n in op.input_arity)
        if expected != len(op.inputs):
            raise GraphVerificationError(f"{where}: arity {op.input_arity} vs "
                                         f"{len(op.inputs)} inputs")
        _check_types(op, where)
        for i, out in enumerate(op.outputs):
            if out.op is not op or out.value_index != i:
                raise GraphVerificationError(f"{where}: output {i} does not point back")
        for _, sub in op.subgraphs():
            verify(sub)
        seen.add(id(op))
    for t in list(getattr(graph, "outputs", [])) + list(getattr(graph, "inputs", [])):
        if t.op.graph is not graph or id(t.op) not in seen:
            raise GraphVerificationError(f"graph {graph.name!r}: boundary tensor {t.name} "
                                         "is not in the graph")


def _check_types(op, where: str) -> None:
    specs = op.op_def.inputs
    bound: dict = {}
    i = 0
    for spec, n in zip(specs, op.input_arity):
        tensors = [op.inputs[i]] if n is None else list(op.inputs[i:i + n])
        i += 1 if n is None else n
        for t in tensors:
            if spec.list_kind == "typelist":
                continue
            if spec.fixed_dtype is not None:
                if t.dtype is not spec.fixed_dtype:
                    raise GraphVerificationError(f"{where}: input {t.name} is {t.dtype.name}, "
                                                 f"expected {spec.fixed_dtype.name}")
                continue
            want = bound.setdefault(spec.type_attr, t.dtype)
            if t.dtype is not want:
                raise GraphVerificationError(f"{where}: input {t.name} is {t.dtype.name} but "
                                             f"{spec.type_attr} is {want.name}")
