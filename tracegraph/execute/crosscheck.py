"""The executors' cross-check, a testing aid (the test suite turns it on for every test): every
graph compiled for the code generator also gets the reference interpreter, and each call runs
both and compares outputs, printed text, variable updates and raised errors; any difference is an
AssertionError. `cross_checked` is `wiring.compile_hook`, which `compile.py` calls for every
top-level graph; while the check is off it returns the compiled graph itself, so production
calls never pass through it.
"""

from __future__ import annotations

import contextlib
import io
import re
import sys

import numpy as np

from ..framework.variables import ResourceHandle
from ..ops.registry import is_unseeded_random
from ..ops.variant_value import VariantValue
from .jit import cluster_is_exact
from .parallel import ParallelFunction

__all__ = ["set_crosscheck", "crosscheck", "cross_checked"]

_enabled = False


def set_crosscheck(enabled: bool) -> None:
    """Run every graph on both executors and compare (slow)."""
    global _enabled
    _enabled = bool(enabled)


def crosscheck() -> bool:
    return _enabled


def cross_checked(fn, graph, build, executor):
    """`fn` (compiled for `executor`), or, while the check is on, a callable that runs it and
    the interpreter's `build("interpreter")` on every call and compares them."""
    if not _enabled:
        return fn
    # Parts on threads use one BLAS thread each: matmul sums in another order.
    exact = _exact(graph) and not isinstance(fn, ParallelFunction)
    return _CrossChecked(fn, build("interpreter"), graph, exact=exact)


def _exact(graph) -> bool:
    """Whether the jit executor's kernels for `graph`'s clusters reproduce NumPy bit for bit
    (else the cross-check compares with the tolerance of the approximated functions)."""
    return all(cluster_is_exact(sub) for op in _all_ops(graph) for _, sub in op.subgraphs()
               if sub.has_mark("jit_cluster") or sub.has_mark("jit_loop"))


class _CrossChecked:
    """Runs the reference interpreter first (on a snapshot of the state), then the executor,
    and compares everything observable."""

    def __init__(self, fn, reference, graph, exact: bool = True):
        self.fn = fn
        self.exact = exact
        self.reference = reference
        self.source = getattr(fn, "source", None)
        # Unseeded random ops, Python calls (side effects) and ops advancing outside state
        # (tf.data iterators) run once, on the executor only.
        self.deterministic = not any(is_unseeded_random(op.op_def, op.attrs) or
                                     op.op_def.flags & {"calls_python", "external_state"}
                                     for op in _all_ops(graph))
        self.handles = list(_captured_handles(graph))

    def __call__(self, *values):
        if not self.deterministic:
            return self.fn(*values)
        handles = self.handles + [v for v in values if isinstance(v, ResourceHandle)
                                  and v not in self.handles]
        before = [_snapshot(h) for h in handles]
        # A resource that writes outside the process (a summary writer's event file) gives
        # the reference run a sink instead, so each call writes once.
        for h, v in zip(handles, before):
            sink = getattr(v, "reference_sink", None)
            if sink is not None:
                h.value = sink()
        ref_out, ref_err, ref_text, ref_state = _observe(self.reference, values, handles)
        for h, v in zip(handles, before):
            h.value = v
        out, err, text, state = _observe(self.fn, values, handles)
        keep = [i for i, v in enumerate(before) if not hasattr(v, "reference_sink")]
        ref_state, state = [ref_state[i] for i in keep], [state[i] for i in keep]
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
    return out, error, (out_buf.getvalue(), err_buf.getvalue()), [_snapshot(h) for h in handles]


def _snapshot(handle):
    """A handle's value, or its own mark for "no value yet" (a Session's uninitialized
    Variable: reading `value` would raise)."""
    return handle.raw_value if hasattr(handle, "raw_value") else handle.value


def _same(a, b, exact: bool = True) -> bool:
    if isinstance(a, VariantValue) or isinstance(b, VariantValue):
        return type(a) is type(b)   # runtime objects (datasets) made by each run: their kind
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


_NUMBER = re.compile(r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")


def close_text(a: str, b: str) -> bool:
    """Printed text that differs only in numbers within the approximations' tolerance (a
    printed value of an approximated tanh or exp may differ in its last digits); tuples of
    texts (stdout, stderr) compare item by item."""
    if isinstance(a, tuple) or isinstance(b, tuple):
        return isinstance(a, tuple) and isinstance(b, tuple) and len(a) == len(b) and \
            all(close_text(x, y) for x, y in zip(a, b))
    if _NUMBER.sub("#", a) != _NUMBER.sub("#", b):
        return False
    x = np.array([float(v) for v in _NUMBER.findall(a)])
    y = np.array([float(v) for v in _NUMBER.findall(b)])
    return bool(np.allclose(x, y, rtol=1e-5, atol=1e-6))


def _compare(ref_out, out, ref_err, err, ref_text, text, ref_state, state,
             exact: bool = True) -> None:
    if (ref_err is None) != (err is None) or (err is not None and type(err) is not
                                              type(ref_err)):
        raise AssertionError(f"executors disagree on errors: interpreter {ref_err!r}, "
                             f"executor {err!r}")
    if ref_text != text and (exact or not close_text(ref_text, text)):
        raise AssertionError(f"executors printed different text: {ref_text!r} vs {text!r}")
    if err is None:
        for i, (a, b) in enumerate(zip(ref_out, out)):
            if not _same(a, b, exact):
                raise AssertionError(f"executors disagree on output {i}: {a!r} vs {b!r}")
    for i, (a, b) in enumerate(zip(ref_state, state)):
        if not _same(a, b, exact):
            raise AssertionError(f"executors disagree on variable {i}: {a!r} vs {b!r}")
