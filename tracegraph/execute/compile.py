"""Turning a graph into a callable: choose an executor, compile sub-graphs the same way.

Executors: "codegen" (the default), "interpreter" (the reference) and "jit"
(`jit_compile=True`: the code generator, with each `_FusedElementwise` cluster compiled into one
numba kernel). With cross-checking on
(`set_crosscheck(True)`, used by the test suite), every compiled graph runs on both and any
difference in outputs, printed text, variable updates or raised error is an AssertionError.
"""

from __future__ import annotations

import contextlib
import io
import sys

import numpy as np

from ..graph.graph import Graph
from ..ops.registry import is_unseeded_random
from .codegen import generate
from .interpreter import Interpreter
from .parallel import ParallelFunction, split_for_threads
from .plan import make_plan

__all__ = ["compile_graph", "compile_subgraph", "forget_compiled_subgraphs", "EXECUTORS",
           "set_crosscheck", "crosscheck"]

EXECUTORS = ("codegen", "interpreter", "jit", "parallel")
_crosscheck = False


def set_crosscheck(enabled: bool) -> None:
    """Run every graph on both executors and compare (a testing aid; slow)."""
    global _crosscheck
    _crosscheck = bool(enabled)


def crosscheck() -> bool:
    return _crosscheck


def _build(graph: Graph, inputs, outputs, constants, executor: str, name: str):
    if executor in ("codegen", "jit", "parallel"):
        groups = split_for_threads(graph, inputs, outputs, constants,
                                   force=executor == "parallel")
        if groups is not None:
            return _threaded(graph, inputs, outputs, constants, executor, name, groups)
    plan = make_plan(graph, inputs, outputs, constants)

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
    if _crosscheck and executor != "interpreter":
        reference = _build(graph, inputs, outputs, constants, "interpreter", name)
        # Parts on threads use one BLAS thread each: matmul sums in another order.
        exact = _exact(graph) and not isinstance(fn, ParallelFunction)
        return _CrossChecked(fn, reference, graph, exact=exact)
    return fn


def compile_subgraph(graph: Graph, executor: str):
    """A sub-graph (branch, body, called function) as a callable of its inputs and captures."""
    cache = graph.__dict__.setdefault("_compiled", {})
    if executor not in cache:
        inputs = list(getattr(graph, "inputs", [])) + list(getattr(graph, "capture_placeholders",
                                                                   []))
        # Never cross-checked on its own: the top-level check already compares the whole call,
        # and a nested reference would draw from the reference's random ops a second time.
        fn = _build(graph, inputs, list(graph.outputs), None, executor, graph.name)
        if executor != "interpreter" and (getattr(graph, "jit_cluster", False) or
                                          getattr(graph, "jit_loop", False)):
            from .jit import compile_cluster
            fn = compile_cluster(graph, fn) or fn
        cache[executor] = fn
    return cache[executor]


def _exact(graph) -> bool:
    """Whether the jit executor's kernels for `graph`'s clusters reproduce NumPy bit for bit
    (else the cross-check compares with the tolerance of the approximated functions)."""
    from .jit import cluster_is_exact
    return all(cluster_is_exact(sub) for op in _all_ops(graph) for _, sub in op.subgraphs()
               if getattr(sub, "jit_cluster", False) or getattr(sub, "jit_loop", False))


def forget_compiled_subgraphs(graph: Graph) -> None:
    """Drops the callables `compile_subgraph` cached on `graph`'s sub-graphs (at any depth),
    and with them the state of their random ops: the next compile starts afresh. Call sites of
    one sub-graph share that state, as a function's ops share theirs in TensorFlow."""
    for op in graph.operations:
        for _, sub in op.subgraphs():
            sub.__dict__.pop("_compiled", None)
            forget_compiled_subgraphs(sub)


class _CrossChecked:
    """Runs the reference interpreter first (on a snapshot of the state), then the executor,
    and compares everything observable."""

    def __init__(self, fn, reference, graph: Graph, exact: bool = True):
        self.fn = fn
        self.exact = exact
        self.reference = reference
        self.source = getattr(fn, "source", None)
        # Unseeded random ops and Python calls (side effects) run once, on the executor only.
        self.deterministic = not any(is_unseeded_random(op.op_def, op.attrs) or
                                     "calls_python" in op.op_def.flags
                                     for op in _all_ops(graph))
        self.handles = list(_captured_handles(graph))

    def __call__(self, *values):
        if not self.deterministic:
            return self.fn(*values)
        from ..framework.variables import ResourceHandle
        handles = self.handles + [v for v in values if isinstance(v, ResourceHandle)
                                  and v not in self.handles]
        before = [h.value for h in handles]
        ref_out, ref_err, ref_text, ref_state = _observe(self.reference, values, handles)
        for h, v in zip(handles, before):
            h.value = v
        out, err, text, state = _observe(self.fn, values, handles)
        _compare(ref_out, out, ref_err, err, ref_text, text, ref_state, state, self.exact)
        sys.stdout.write(text[0])
        sys.stderr.write(text[1])
        if err is not None:
            raise err
        return out


def _all_ops(graph):
    for op in graph.operations:
        yield op
        for _, sub in op.subgraphs():
            yield from _all_ops(sub)


def _captured_handles(graph):
    from ..framework.variables import ResourceHandle
    seen = []
    for value, _ in getattr(graph, "captures", {}).values():
        if isinstance(value, ResourceHandle) and value not in seen:
            seen.append(value)
    return seen


def _observe(fn, values, handles):
    out_buf, err_buf = io.StringIO(), io.StringIO()
    error = None
    out = None
    with contextlib.redirect_stdout(out_buf), contextlib.redirect_stderr(err_buf):
        try:
            out = fn(*values)
        except Exception as e:  # compared below, then re-raised
            error = e
    return out, error, (out_buf.getvalue(), err_buf.getvalue()), [h.value for h in handles]


def _same(a, b, exact: bool = True) -> bool:
    a, b = np.asarray(a), np.asarray(b)
    if a.dtype != b.dtype or a.shape != b.shape:
        return False
    if a.dtype.kind in "fc" and not exact:   # approximations, sums in another order
        finite = np.abs(a[np.isfinite(a)])
        scale = float(finite.max()) if finite.size else 0.0
        return bool(np.allclose(a, b, rtol=1e-5, atol=1e-6 + 1e-5 * scale, equal_nan=True))
    if a.dtype.kind in "fc":
        return bool(np.array_equal(a, b, equal_nan=True))
    return bool(np.array_equal(a, b))


def _compare(ref_out, out, ref_err, err, ref_text, text, ref_state, state,
             exact: bool = True) -> None:
    if (ref_err is None) != (err is None) or (err is not None and type(err) is not
                                              type(ref_err)):
        raise AssertionError(f"executors disagree on errors: interpreter {ref_err!r}, "
                             f"executor {err!r}")
    if ref_text != text:
        raise AssertionError(f"executors printed different text: {ref_text!r} vs {text!r}")
    if err is None:
        for i, (a, b) in enumerate(zip(ref_out, out)):
            if not _same(a, b, exact):
                raise AssertionError(f"executors disagree on output {i}: {a!r} vs {b!r}")
    for i, (a, b) in enumerate(zip(ref_state, state)):
        if not _same(a, b, exact):
            raise AssertionError(f"executors disagree on variable {i}: {a!r} vs {b!r}")
