"""Turning a graph into a callable: choose an executor, compile sub-graphs the same way.

Executors: "codegen" (the default), "interpreter" (the reference) and "jit"
(`jit_compile=True`: the code generator, with each `_FusedElementwise` cluster compiled into one
numba kernel). Every top-level graph compiled for an executor other than the interpreter passes
through `wiring.compile_hook`, the test suite's cross-check (`execute/crosscheck.py`), which
returns the executor's callable itself unless the suite turned the check on.

Compiled sub-graphs (branches, loop bodies, called functions) are cached here, in a mapping that
holds them weakly: a sub-graph's callable lives while a compiled graph that calls it does (call
sites compiled meanwhile share it, and its random ops' state), and nothing is attached to graphs.
"""

from __future__ import annotations

import weakref

from .. import profiling, wiring
from ..graph.graph import Graph
from .codegen import generate
from .interpreter import Interpreter
from .jit import compile_cluster
from .parallel import ParallelFunction, split_for_threads
from .plan import make_plan

__all__ = ["compile_graph", "compile_subgraph", "compiled_subgraph", "forget_compiled_subgraphs",
           "EXECUTORS"]

EXECUTORS = ("codegen", "interpreter", "jit", "parallel")

# (id(sub-graph), executor) -> its callable. A callable refers to its graph (through its ops),
# so while an entry exists its graph is alive and the id cannot be reused.
_SUBGRAPHS: weakref.WeakValueDictionary = weakref.WeakValueDictionary()

def _build(graph: Graph, inputs, outputs, constants, executor: str, name: str):
    plan = make_plan(graph, inputs, outputs, constants)
    if executor in ("codegen", "jit", "parallel"):
        groups = split_for_threads(plan, force=executor == "parallel")
        if groups is not None:
            return _threaded(graph, inputs, outputs, constants, executor, name, groups)

    def sub(g):
        return compile_subgraph(g, executor)
    if executor in ("codegen", "jit", "parallel"):
        return generate(plan, sub, name)
    if executor == "interpreter":
        return Interpreter(plan, sub)
    raise ValueError(f"Unknown executor {executor!r}; choose one of {EXECUTORS}.")


def _threaded(graph, inputs, outputs, constants, executor, name, groups):
    """Independent components as separate generated functions on the inter-op pool."""
    def sub(g):
        return compile_subgraph(g, executor)
    parts = [generate(make_plan(graph, inputs, [outputs[i] for i in group], constants), sub,
                      f"{name}_part_{n}") for n, group in enumerate(groups)]
    covered = {i for group in groups for i in group}
    rest_indices = [i for i in range(len(outputs)) if i not in covered]
    rest = generate(make_plan(graph, inputs, [outputs[i] for i in rest_indices], constants), sub,
                    f"{name}_rest") if rest_indices else None
    return ParallelFunction(parts, groups, rest, rest_indices, len(outputs))


def compile_graph(graph: Graph, inputs, outputs, constants=None, executor: str = "codegen",
                  name: str | None = None):
    """A callable taking values for `inputs` and returning a tuple of the `outputs`' values."""
    name = name or graph.name
    fn = _build(graph, inputs, outputs, constants, executor, name)
    if wiring.compile_hook is not None and executor != "interpreter":
        fn = wiring.compile_hook(fn, graph, lambda other: _build(graph, inputs, outputs,
                                                                 constants, other, name),
                                 executor)
    if profiling.recorder is not None:
        fn = _TimedCall(fn, profiling.recorder, name, executor == "jit")
    return fn


class _TimedCall:
    """A compiled graph whose calls are events of the profile being taken (the function's
    name), around the events of its ops."""

    def __init__(self, fn, recorder, name: str, xla: bool):
        self.fn, self.recorder, self.name, self.xla = fn, recorder, name, xla
        self.source = getattr(fn, "source", None)

    def __call__(self, *values):
        start = profiling.now()
        try:
            return self.fn(*values)
        finally:
            mode = self.recorder.function_call_mode(self.name, self.xla)
            self.recorder.event(self.name, start, profiling.now(),
                                stats={"tf_function_call": mode})


def compile_subgraph(graph: Graph, executor: str):
    """A sub-graph (branch, body, called function) as a callable of its inputs and captures."""
    key = (id(graph), executor, profiling.recorder)   # timed for the profile being taken
    fn = _SUBGRAPHS.get(key)
    if fn is None:
        inputs = list(getattr(graph, "inputs", [])) + list(getattr(graph, "capture_placeholders",
                                                                   []))
        # Never cross-checked on its own: the top-level check already compares the whole call,
        # and a nested reference would draw from the reference's random ops a second time.
        fn = _build(graph, inputs, list(graph.outputs), None, executor, graph.name)
        if executor != "interpreter" and (graph.has_mark("jit_cluster") or
                                          graph.has_mark("jit_loop")):
            fn = compile_cluster(graph, fn) or fn
        _SUBGRAPHS[key] = fn
    return fn


def compiled_subgraph(graph: Graph, executor: str):
    """`graph`'s untimed callable if `compile_subgraph` made it (and it is alive), else None."""
    return _SUBGRAPHS.get((id(graph), executor, None))


def forget_compiled_subgraphs(graph: Graph) -> None:
    """Drops the callables `compile_subgraph` cached on `graph`'s sub-graphs (at any depth),
    and with them the state of their random ops: the next compile starts afresh. Call sites of
    one sub-graph share that state, as a function's ops share theirs in TensorFlow."""
    for op in graph.operations:
        for _, sub in op.subgraphs():
            for executor in EXECUTORS:
                for key in [k for k in _SUBGRAPHS.keys() if k[:2] == (id(sub), executor)]:
                    _SUBGRAPHS.pop(key, None)
            forget_compiled_subgraphs(sub)
