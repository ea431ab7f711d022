"""What makes a ConcreteFunction runnable: optimize a copy of its graph with the current
options, compile it with the chosen executor, and, in the optimizer's verify mode, check the
passes on the first call's inputs. `prepare` is `wiring.prepare_function`, which the trace
layer calls (tracegraph/wiring.py)."""

from __future__ import annotations

import time

from ..framework.tensor import EagerTensor
from ..ops.registry import is_unseeded_random
from ..optimize import optimize
from ..optimize.options import current as current_options
from .compile import compile_graph
from .first_call import timed_first_run
from .jit import numba_available, warn_without_numba
from .verify_passes import verify_passes

# Elementwise clusters with at least this many elements run as fused kernels in a default
# tf.function when numba is installed (0 turns it off; jit_compile=True fuses every cluster).
# The default path fuses exact per-element forms only: its results are eager's bit for bit.
AUTO_FUSE_ELEMENTS = 1 << 16

__all__ = ["prepare"]


def _nondeterministic(graph) -> bool:
    """Whether a graph has unseeded random ops (results differ run to run)."""
    for op in graph.operations:
        if is_unseeded_random(op.op_def, op.attrs):
            return True
        if any(_nondeterministic(sub) for _, sub in op.subgraphs()):
            return True
    return False


def prepare(concrete):
    """(compiled callable, the graph that runs, the optimizer's report) for a ConcreteFunction.
    The first preparation records its times in `concrete.first_call_times` (the first-call
    report, execute/first_call.py)."""
    times = getattr(concrete, "first_call_times", None)
    first = times is not None and "optimize" not in times
    start = time.perf_counter()
    graph, report = optimize(concrete.graph, _options_for(concrete.executor))
    optimized = time.perf_counter()
    constants = [(ph, value.known_value if isinstance(value, EagerTensor) else value)
                 for value, ph in graph.captures.values()]
    generating = time.perf_counter()
    compiled = compile_graph(graph, list(graph.inputs), list(graph.outputs), constants,
                             concrete.executor, concrete.name)
    generated = time.perf_counter()
    if report.snapshots and not _nondeterministic(concrete.graph):
        compiled = _verifying(concrete, compiled, report)
    if first:
        fusion = sum(p.seconds for p in report.passes if p.name == "jit_fusion")
        times.update(optimize=optimized - start - fusion, codegen=generated - generating,
                     report=report, graph=graph, executor=concrete.executor)
        compiled = timed_first_run(concrete, compiled, times)
    return compiled, graph, report


def _options_for(executor: str) -> dict:
    """The current optimizer options, with the executor's request for jit fusion (the last
    pass): every cluster for the jit executor (jit_compile=True), only large ones for the
    others (as Grappler's remapper fuses in TensorFlow's default path: large elementwise
    clusters run on the jit executor's kernels, exact per-element forms only, so the results
    are NumPy's as TensorFlow's graph and eager kernels agree), none without numba or on the
    interpreter."""
    fusion = None
    if executor == "jit":
        if numba_available():
            fusion = 0
        else:
            warn_without_numba()
    elif executor != "interpreter" and AUTO_FUSE_ELEMENTS and numba_available():
        fusion = AUTO_FUSE_ELEMENTS
    return {**current_options(), "jit_fusion": fusion}


def _verifying(concrete, compiled, report):
    """Checks the optimizer on the first call's inputs, then runs as usual."""
    def first_call(*values):
        concrete.replace_compiled(compiled)
        verify_passes(concrete.graph, report.snapshots, report, values, concrete.name)
        return compiled(*values)
    first_call.source = getattr(compiled, "source", None)
    return first_call

