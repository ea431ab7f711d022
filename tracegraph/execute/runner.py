"""What makes a ConcreteFunction runnable: optimize a copy of its graph with the current
options, compile it with the chosen executor, and, in the optimizer's verify mode, check the
passes on the first call's inputs. `tracegraph/__init__.py` installs `prepare` into the trace
layer (`trace/hooks.py`)."""

from __future__ import annotations

import time

from ..framework.tensor import EagerTensor
from ..ops.registry import is_unseeded_random
from ..optimize import optimize
from ..optimize.jit_fusion import has_large_value
from .compile import compile_graph
from .first_call import timed_first_run
from .jit import numba_available

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
    graph, report = optimize(concrete.graph)
    optimized = time.perf_counter()
    if concrete.executor == "jit":
        graph = _fuse(graph, report)
    elif concrete.executor != "interpreter" and AUTO_FUSE_ELEMENTS and \
            has_large_value(graph, AUTO_FUSE_ELEMENTS) and numba_available():
        # As Grappler's remapper fuses in TensorFlow's default path: large elementwise
        # clusters run on the jit executor's kernels, computing exactly what NumPy computes
        # (TensorFlow's graph and eager kernels agree; approximations are jit_compile's).
        graph = _fuse(graph, report, AUTO_FUSE_ELEMENTS, approximate=False)
    constants = [(ph, value._value if isinstance(value, EagerTensor) else value)
                 for value, ph in graph.captures.values()]
    generating = time.perf_counter()
    compiled = compile_graph(graph, list(graph.inputs), list(graph.outputs), constants,
                             concrete.executor, concrete.name)
    generated = time.perf_counter()
    if report.snapshots and not _nondeterministic(concrete.graph):
        compiled = _verifying(concrete, compiled, report)
    if first:
        times.update(optimize=optimized - start, codegen=generated - generating, report=report,
                     graph=graph, executor=concrete.executor)
        compiled = timed_first_run(concrete, compiled, times)
    return compiled, graph, report


def _fuse(graph, report, min_elements: int = 0, approximate: bool = True):
    """jit_compile=True: the clusters the jit executor compiles, reported as a pass (by
    default, with `min_elements`: only large clusters)."""

    from ..optimize.builder import count_edges
    from ..optimize.jit_fusion import jit_fusion
    from ..optimize.passes import PassContext, PassReport
    from .jit import warn_without_numba

    if not numba_available():
        if not min_elements:
            warn_without_numba()
        return graph
    ctx = PassContext({})
    nodes, edges = len(graph.operations), count_edges(graph)
    start = time.perf_counter()
    try:
        fused = jit_fusion(graph, ctx, min_elements, approximate)
    except Exception as e:  # as the meta-optimizer does with a failing pass: run unfused
        import warnings

        from ..optimize.meta import OptimizerWarning
        warnings.warn(f"jit fusion failed on graph {graph.name!r} and was skipped: "
                      f"{type(e).__name__}: {e}", OptimizerWarning, stacklevel=2)
        return graph
    report.passes.append(PassReport("jit_fusion", graph.name, nodes, len(fused.operations),
                                    edges, count_edges(fused), time.perf_counter() - start,
                                    fused is not graph, 1, ctx.rewrites))
    return fused


def _verifying(concrete, compiled, report):
    """Checks the optimizer on the first call's inputs, then runs as usual."""
    from .verify import verify_passes

    def first_call(*values):
        concrete.replace_compiled(compiled)
        verify_passes(concrete.graph, report.snapshots, report, values, concrete.name)
        return compiled(*values)
    first_call.source = getattr(compiled, "source", None)
    return first_call

