"""The execution plan of a graph: what runs, in which order, and when each value dies.

Non-strict by construction (SPEC R-4.1): the needed set is the fan-in of the outputs plus every
stateful op (prints, variable writes, asserts, check_numerics) and their fan-in. Everything
else, such as an unused `gather`, never runs.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..graph.analysis import needed_ops
from ..graph.graph import Graph, Operation

__all__ = ["Plan", "make_plan"]


@dataclass
class Plan:
    graph: Graph
    inputs: list          # placeholders fed at call time, in order
    outputs: list         # tensors returned, in order
    schedule: list[Operation]
    slots: dict = field(default_factory=dict)       # id(tensor) -> slot number
    last_use: dict = field(default_factory=dict)    # slot -> index in schedule of its last use
    constants: dict = field(default_factory=dict)   # slot -> value bound at compile time

    @property
    def num_slots(self) -> int:
        return len(self.slots)

    def slot(self, tensor) -> int:
        return self.slots[id(tensor)]


def make_plan(graph: Graph, inputs, outputs, constants=()) -> Plan:
    """Plans `graph` fed with `inputs` (placeholders) and `constants` [(placeholder, value)]."""
    constants = list(constants or ())
    needed = needed_ops(graph, outputs)
    fed = {id(t.op) for t in inputs} | {id(t.op) for t, _ in constants}
    schedule = [op for op in graph.operations if id(op) in needed and id(op) not in fed]
    for op in schedule:
        if op.op_def.kernel is None and not op.op_def.emit:
            raise ValueError(f"Placeholder {op.name} of graph {graph.name!r} is needed but not "
                             "fed: the graph uses an input it was not given.")
    plan = Plan(graph, list(inputs), list(outputs), schedule)
    for t in inputs:
        plan.slots.setdefault(id(t), len(plan.slots))
    for t, value in constants:
        plan.constants[plan.slots.setdefault(id(t), len(plan.slots))] = value
    for op in schedule:
        for out in op.outputs:
            plan.slots[id(out)] = len(plan.slots)
    for index, op in enumerate(schedule):
        for t in op.inputs:
            plan.last_use[plan.slots[id(t)]] = index
    for t in outputs:
        plan.last_use[plan.slots[id(t)]] = len(schedule)
    return plan
