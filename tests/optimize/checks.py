"""What the optimizer's property tests observe and compare.

`observe` runs a graph twice (the second call sees the Variable updates of the first) on the
program's feeds and records, per call, the outputs, the printed text and the Variable values,
or the error raised. Variables are restored to their initial values before each run, and the
feeds and captured constants are checked to be unchanged after it (a kernel writing in place
into an argument or a constant would corrupt them).

`same` is bit for bit: same dtype, shape and values, NaNs in the same places and the same sign
of zero. `Tolerance` is the comparison for passes that document a rounding change. `run_pass`
applies one pass and checks the verifier, that its input is unchanged, and idempotence.
"""

from __future__ import annotations

import contextlib
import io
from dataclasses import dataclass

import numpy as np

from tracegraph.execute.compile import compile_graph, forget_compiled_subgraphs
from tracegraph.execute.crosscheck import close_text as printed_close
from tracegraph.framework.tensor import EagerTensor
from tracegraph.graph.verify import verify
from tracegraph.optimize.options import OPTIONS
from tracegraph.optimize.passes import PASSES, PassContext

# The passes whose option is a no-op on a CPU-only NumPy runtime (no_effect.py).
NO_EFFECT = {o.key for o in OPTIONS if o.does_nothing}


def all_on(**changes) -> dict:
    """Every option on, the off-by-default ones included; every graph optimized
    (min_graph_nodes=1); arithmetic limited to its exact group unless
    `arithmetic_rounding_changing=True`."""
    opts = {o.key: o.default for o in OPTIONS}
    for o in OPTIONS:
        if isinstance(o.default, bool):
            opts[o.key] = True
    opts.update(disable_model_pruning=False, disable_meta_optimizer=False,
                experimental_verify=False, min_graph_nodes=1,
                arithmetic_rounding_changing=False)
    opts.update(changes)
    return opts


def only(name: str, **changes) -> dict:
    """Options under which the meta-optimizer runs the pass `name` and no other."""
    opts = all_on(**changes)
    for p in PASSES.values():
        if p.option == "disable_model_pruning":
            opts[p.option] = p.name != name
        elif p.name != name:
            opts[p.option] = False
    return opts


def text_of(graph) -> str:
    return graph.to_text()


# ---- running --------------------------------------------------------------------------------

@dataclass
class Call:
    error: str | None          # "ErrorType: message" when the call raised
    outputs: list
    text: str                  # stdout + stderr
    variables: list


def observe(graph, traced, program, executor: str = "interpreter", calls: int = 2) -> list:
    forget_compiled_subgraphs(graph)
    constants = [(ph, value._value if isinstance(value, EagerTensor) else value)
                 for value, ph in graph.captures.values()]
    fn = compile_graph(graph, graph.inputs, graph.outputs, constants=constants,
                       executor=executor)
    handles = [v.handle for v in traced.variables]
    for h, initial in zip(handles, program.variables):
        h.value = initial.copy()
    feeds = [f.copy() for f in program.feeds]
    results = []
    for _ in range(calls):
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err), \
                np.errstate(all="ignore"):
            try:
                values = fn(*feeds)
            except Exception as e:  # compared with the reference's error
                results.append(Call(f"{type(e).__name__}: {e}", [], "", []))
                break
        results.append(Call(None, [np.array(v, copy=True) for v in values],
                            out.getvalue() + err.getvalue(),
                            [np.array(h.value, copy=True) for h in handles]))
    for fed, original in zip(feeds, program.feeds):
        assert same(fed, original) is None, "a kernel wrote into an argument's buffer"
    for value, _ in graph.captures.values():
        if isinstance(value, EagerTensor):
            assert any(same(value._value, c) is None for c in program.captures), \
                "a kernel wrote into a captured constant's buffer"
    for h, initial in zip(handles, program.variables):
        h.value = initial.copy()
    return results


# ---- comparing ------------------------------------------------------------------------------

def same(a, b) -> str | None:
    """None when `a` and `b` are the same bit for bit (NaN payloads aside), else why not."""
    a, b = np.asarray(a), np.asarray(b)
    if a.dtype != b.dtype:
        return f"dtype {a.dtype} vs {b.dtype}"
    if a.shape != b.shape:
        return f"shape {a.shape} vs {b.shape}"
    if a.dtype.kind in "fc":
        nan = np.isnan(a)
        if not np.array_equal(nan, np.isnan(b)):
            return "NaN in different places"
        if not np.array_equal(a[~nan], b[~nan]):
            return "different values"
        if not np.array_equal(np.signbit(a[~nan]), np.signbit(b[~nan])):
            return "different signs of zero"
        return None
    return None if np.array_equal(a, b) else "different values"


@dataclass(frozen=True)
class Tolerance:
    """How far a pass that documents a rounding change may move a result: finite values stay
    within 1e-2 relative to the scale of the values the traced graph computes (a last-bit change
    early on grows by cancellation later); non-finite values stay put unless the change is
    documented to move them (float16 overflows and underflows)."""
    scale: float = 1.0
    nonfinite_may_differ: bool = False

    def __call__(self, a, b) -> str | None:
        a, b = np.asarray(a), np.asarray(b)
        if a.dtype != b.dtype or a.shape != b.shape or a.dtype.kind not in "fc":
            return same(a, b)
        finite = np.isfinite(a) & np.isfinite(b)
        if not self.nonfinite_may_differ:
            if not np.array_equal(np.isfinite(a), np.isfinite(b)):
                return "non-finite values in different places"
            if same(a[~finite], b[~finite]) is not None:
                return "different non-finite values"
        scale = max(self.scale, 1.0 + (np.max(np.abs(a[finite])) if finite.any() else 0.0))
        if not np.allclose(a[finite], b[finite], rtol=1e-2, atol=1e-2 * scale):
            return "values differ beyond the tolerance"
        return None


def value_scale(graph, program) -> float:
    """1 + the largest finite magnitude among the float values `graph` computes on the feeds
    (its top-level intermediate values included)."""
    values = [t for op in graph.operations for t in op.outputs if t.dtype.is_floating]
    constants = [(ph, value._value if isinstance(value, EagerTensor) else value)
                 for value, ph in graph.captures.values()]
    fn = compile_graph(graph, graph.inputs, values, constants=constants, executor="interpreter")
    try:
        with contextlib.redirect_stdout(io.StringIO()), \
                contextlib.redirect_stderr(io.StringIO()), np.errstate(all="ignore"):
            results = fn(*[f.copy() for f in program.feeds])
    except Exception:  # the comparison will see the error
        return 1.0
    finite = [np.abs(r[np.isfinite(r)]) for r in map(np.asarray, results)]
    return 1.0 + max((float(f.max()) for f in finite if f.size), default=0.0)


# Passes after which a runtime error may be gone, because the op that raised is no longer
# needed (non-strict execution, R-4.1): the debug stripper removes checks and the prints that
# read a value; inlining a stateful call leaves the callee's unread outputs unneeded, as
# TensorFlow's inlining does; removing a dead branch of a stateful cond inlines the branch
# taken, whose unread outputs are then unneeded too (TensorFlow's RemoveDeadBranches); constant
# folding and shape optimization answer shape(x) from x's static shape, so x itself may go
# unneeded, as with TensorFlow's MaterializeShapes.
DROPS_ERRORS = ("debug_stripper", "function_optimization", "loop_optimization",
                "constant_folding", "shape_optimization")


def compare(reference: list, result: list, where: str, *, debug_stripped: bool = False,
            drops_errors: bool = False, compare=same, graph=None,
            close_text: bool = False) -> None:
    """Asserts that `result` (optimized) observed what `reference` (as traced) did.
    `debug_stripped`: printed text is not compared; `drops_errors`: a call that raised may
    now succeed (its results are then not compared); `close_text`: printed numbers may differ
    within the approximations' tolerance."""
    def fail(why):
        text = "" if graph is None else f"\noptimized graph:\n{text_of(graph)}"
        raise AssertionError(f"{where}: {why}{text}")

    for n, (r, g) in enumerate(zip(reference, result)):
        call = f"call {n + 1}"
        if r.error is not None or g.error is not None:
            if drops_errors and r.error is not None and g.error is None:
                return  # an error in an op the optimized graph no longer needs
            if r.error is None or g.error is None or \
                    r.error.split(":")[0] != g.error.split(":")[0]:
                fail(f"{call}: raised {g.error!r}, the traced graph {r.error!r}")
            return  # which stateful ops ran before an error is not ordered
        for i, (a, b) in enumerate(zip(r.outputs, g.outputs)):
            why = compare(a, b)
            if why is not None:
                fail(f"{call}, output {i}: {why}: {b!r}, traced {a!r}")
        if not debug_stripped and r.text != g.text and not (
                close_text and printed_close(r.text, g.text)):
            fail(f"{call}: printed {g.text!r}, the traced graph printed {r.text!r}")
        for k, (a, b) in enumerate(zip(r.variables, g.variables)):
            why = compare(a, b)
            if why is not None:
                fail(f"{call}, variable {k}: {why}: {b!r}, traced {a!r}")
    if len(reference) != len(result):
        fail(f"{len(result)} calls ran, the traced graph ran {len(reference)}")


# ---- applying passes ------------------------------------------------------------------------

def run_pass(name: str, graph, opts: dict):
    """`PASSES[name]` applied to `graph`, checked: the verifier passes, the input graph is
    not changed, and the pass is idempotent. Returns (result, context)."""
    p = PASSES[name]
    before = text_of(graph)
    ctx = PassContext(dict(opts))
    once = p.fn(graph, ctx)
    verify(once)
    assert text_of(graph) == before, f"{name} changed the graph it was given"
    once_text = text_of(once)
    twice = p.fn(once, PassContext(dict(opts)))
    verify(twice)
    assert text_of(once) == once_text, f"{name} changed the graph it was given"
    if twice is not once:
        assert text_of(twice) == once_text, (
            f"{name} is not idempotent:\nonce:\n{once_text}\ntwice:\n{text_of(twice)}")
    return once, ctx
