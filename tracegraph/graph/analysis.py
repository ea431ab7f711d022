"""Analyses of a graph that several layers use: which ops must run (non-strict execution, SPEC
R-4.1), who reads each tensor, and when each value is last used."""

from __future__ import annotations

from .graph import Graph

__all__ = ["needed_ops", "consumers", "last_uses"]


def needed_ops(graph: Graph, outputs) -> set[int]:
    """ids of the ops that must run: the outputs' fan-in and every stateful op's fan-in."""
    stack = [t.op for t in outputs]
    stack += [op for op in graph.operations if op.op_def.stateful]
    needed: set[int] = set()
    while stack:
        op = stack.pop()
        if id(op) in needed:
            continue
        needed.add(id(op))
        stack.extend(t.op for t in op.inputs)
        stack.extend(op.control_inputs)
    return needed


def consumers(graph: Graph) -> dict[int, list]:
    """id(tensor) -> the ops that read it (a graph output counts as a `None` reader)."""
    out: dict[int, list] = {}
    for op in graph.operations:
        for t in op.inputs:
            out.setdefault(id(t), []).append(op)
    for t in getattr(graph, "outputs", []):
        out.setdefault(id(t), []).append(None)
    return out


def last_uses(schedule, outputs) -> dict[int, int]:
    """id(tensor) -> index in `schedule` of the last op reading it (outputs: never)."""
    last: dict[int, int] = {}
    for index, op in enumerate(schedule):
        for t in op.inputs:
            last[id(t)] = index
    for t in outputs:
        last[id(t)] = len(schedule)
    return last
