"""The reference interpreter: walks the plan and calls each op's kernel. It is the spec every
other executor must match (DESIGN "The interpreter is the spec").

Sub-graph attrs (cond branches, loop bodies, called functions) reach kernels as callables
compiled by the same executor, so control-flow kernels stay ordinary Python functions.
"""

from __future__ import annotations

from .. import profiling
from ..graph.graph import Graph, group_values
from .graph_errors import graph_error
from .plan import Plan

__all__ = ["Interpreter"]


def _writing_into(ufunc, index: int):
    def kernel(*args):
        return ufunc(*args, out=args[index])
    return kernel


class Interpreter:
    def __init__(self, plan: Plan, compile_subgraph):
        self.plan = plan
        self.steps = []
        for index, op in enumerate(plan.schedule):
            op_def = op.op_def
            attrs = {k: compile_subgraph(v) if isinstance(v, Graph) else v
                     for k, v in op.kernel_attrs.items()}
            state = op_def.make_state(op.kernel_attrs) if op_def.make_state else None
            in_slots = [plan.slot(t) for t in op.inputs]
            dead = [s for s in set(in_slots) if plan.last_use.get(s) == index]
            out_slots = [plan.slot(t) for t in op.outputs]
            kernel = op_def.kernel
            inplace = op.inplace_input  # Operation.inplace_input: set by memory optimization
            if inplace is not None:  # the memory optimizer proved input `inplace` dead here
                kernel = _writing_into(op_def.ufunc, inplace)
            self.steps.append((op, kernel, in_slots, op.input_arity, out_slots, attrs,
                               state, op_def.num_outputs, dead))
        self.out_slots = [plan.slot(t) for t in plan.outputs]
        # While a profile is taken (tracegraph/profiling.py), each step is timed.
        self.recorder = profiling.recorder
        self.metas = [profiling.op_meta(op.name, op.type, op.source)
                      for op in plan.schedule] if self.recorder is not None else None

    def __call__(self, *values):
        plan = self.plan
        recorder, metas = self.recorder, self.metas
        env = [None] * plan.num_slots
        env[:len(values)] = values
        for slot, value in plan.constants.items():
            env[slot] = value
        for index, (op, kernel, in_slots, arity, out_slots, attrs, state, n_out, dead) in \
                enumerate(self.steps):
            args = group_values([env[s] for s in in_slots], arity)
            if recorder is not None:
                start = profiling.now()
            try:
                if state is not None:
                    out = kernel(state, *args, **attrs)
                else:
                    out = kernel(*args, **attrs)
            except Exception as e:
                raise graph_error(e, op, args) from None
            if recorder is not None:
                recorder.op(metas[index], start)
            if n_out == 1:
                env[out_slots[0]] = out
            elif out_slots:
                for s, v in zip(out_slots, out):
                    env[s] = v
            for s in dead:
                env[s] = None
        return tuple(env[s] for s in self.out_slots)
