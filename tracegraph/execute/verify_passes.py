"""The optimizer's verify mode (`experimental_verify`): on the first call after a graph is
optimized, the unoptimized graph and the graph after each pass that changed something run on
the call's inputs with the reference interpreter; the first pass whose results differ is named
in an `OptimizerVerificationError`. Variable values are restored between runs and printed text
is compared, not shown. Passes documented to change rounding are compared with a tolerance.
"""

from __future__ import annotations

import contextlib
import io

import numpy as np

from ..errors import InternalError
from ..framework.tensor import EagerTensor
from ..framework.variables import ResourceHandle
from ..optimize.passes import PASSES
from .compile import compile_graph, forget_compiled_subgraphs

__all__ = ["OptimizerVerificationError", "verify_passes"]


class OptimizerVerificationError(InternalError):
    """An optimizer pass changed a result (a bug in the pass, never the user's)."""


def _run(graph, values):
    forget_compiled_subgraphs(graph)  # each run starts its sub-graphs' random ops afresh
    constants = [(ph, v.known_value if isinstance(v, EagerTensor) else v)
                 for v, ph in graph.captures.values()]
    fn = compile_graph(graph, list(graph.inputs), list(graph.outputs), constants,
                       executor="interpreter")
    out, err = io.StringIO(), io.StringIO()
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            results = fn(*values)
        return results, None, out.getvalue() + err.getvalue()
    except Exception as e:  # compared like a result
        return None, e, out.getvalue() + err.getvalue()


def _same(a, b, tolerant: bool) -> bool:
    a, b = np.asarray(a), np.asarray(b)
    if a.dtype != b.dtype or a.shape != b.shape:
        return False
    if a.dtype.kind in "fc":
        if tolerant:
            return bool(np.allclose(a, b, rtol=1e-2 if a.dtype == np.float16 else 1e-5,
                                    atol=1e-6, equal_nan=True))
        return bool(np.array_equal(a, b, equal_nan=True) and
                    np.array_equal(np.signbit(a), np.signbit(b)))
    return bool(np.array_equal(a, b))


def _tolerant(name: str, rewrites) -> bool:
    p = PASSES.get(name)
    if p is not None and not p.exact:
        return True
    return any(not r.exact for r in rewrites)  # a rounding-changing rule applied


def verify_passes(original, snapshots, report, values, function_name: str) -> None:
    """Raises OptimizerVerificationError naming the first pass that changed a result."""
    handles = [v for v, _ in original.captures.values() if isinstance(v, ResourceHandle)]
    handles += [v for v in values if isinstance(v, ResourceHandle) and v not in handles]
    saved = [h.value for h in handles]

    def restore():
        for h, v in zip(handles, saved):
            h.value = v

    reference = _run(original, values)
    ref_state = [h.value for h in handles]
    rewrites_by_pass: dict = {}
    for p in report.passes:
        rewrites_by_pass.setdefault(p.name, []).extend(p.rewrites)
    try:
        for name, graph in snapshots:
            restore()
            result = _run(graph, values)
            state = [h.value for h in handles]
            problem = _difference(reference, result, ref_state, state,
                                  _tolerant(name, rewrites_by_pass.get(name, [])))
            if problem:
                raise OptimizerVerificationError(
                    None, None, f"optimizer pass '{name}' changed the results of "
                                f"{function_name}: {problem}. Turn the pass off with "
                                f"tf.config.optimizer.set_experimental_options and report "
                                f"the graph.")
    finally:
        restore()


def _difference(ref, got, ref_state, state, tolerant) -> str:
    (ref_out, ref_err, ref_text), (out, err, text) = ref, got
    if (ref_err is None) != (err is None):
        return f"the unoptimized graph raised {ref_err!r}, the optimized one {err!r}"
    if err is not None and type(err) is not type(ref_err):
        return f"error {type(ref_err).__name__} became {type(err).__name__}"
    if ref_text != text:
        return f"printed {ref_text!r} before and {text!r} after"
    if err is None:
        for i, (a, b) in enumerate(zip(ref_out, out)):
            if not _same(a, b, tolerant):
                return f"output {i} was {a!r} and is {b!r}"
    for i, (a, b) in enumerate(zip(ref_state, state)):
        if not _same(a, b, tolerant):
            return f"variable {i} became {b!r} instead of {a!r}"
    return ""
