"""Property tests for the optimizer (SPEC R-6.1, R-6.4), on random graphs traced from programs
that apply ops from the op registry, control flow, nested functions, prints and Variable
updates, fed NaN, +-Inf and -0.0 among other values (programs.py, strategies.py):

- every pass alone and the whole pipeline give the traced graph's results bit for bit (same
  dtype, shape and values, NaNs in the same places, same signs of zero), print the same text
  and leave the Variables with the same values, over two calls;
- passes that document a rounding change (auto mixed precision, arithmetic's rounding-changing
  group)
  stay within a tolerance, on graphs of continuous ops;
- the verifier passes after every pass, every pass is idempotent, and the traced graph is
  never changed.

The default run keeps a small, derandomized budget; the `slow` tests (`pytest -m slow`) draw
many more and larger programs.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings

from tracegraph.execute.crosscheck import _exact
from tracegraph.execute.jit import numba_available
from tracegraph.graph.verify import verify
from tracegraph.optimize import optimize
from tracegraph.optimize.jit_fusion import jit_fusion
from tracegraph.optimize.passes import PASSES

from .checks import (
    DROPS_ERRORS,
    NO_EFFECT,
    Tolerance,
    all_on,
    compare,
    observe,
    only,
    run_pass,
    same,
    text_of,
    value_scale,
)
from .programs import trace
from .strategies import programs

FAST = settings(max_examples=50, deadline=None, derandomize=True,
                suppress_health_check=[HealthCheck.too_slow])
SMOOTH_FAST = settings(max_examples=25, deadline=None, derandomize=True,
                       suppress_health_check=[HealthCheck.too_slow])
SLOW = settings(max_examples=1000, deadline=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
SMOOTH_SLOW = settings(max_examples=500, deadline=None,
                       suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])

EXACT_PASSES = [name for name, p in PASSES.items()
                if p.exact_under(all_on()) and name not in NO_EFFECT]
ROUNDING_PASSES = [name for name, p in PASSES.items() if not p.exact]
ROUNDING_GROUPS = [name for name, p in PASSES.items() if p.rounding_option is not None]


def check_exact(program, *, each_pass_in_pipeline: bool = False) -> None:
    traced = trace(program)
    graph = traced.graph
    traced_text = text_of(graph)
    verify(graph)
    reference = observe(graph, traced, program)
    for name in EXACT_PASSES:
        out, _ = run_pass(name, graph, all_on())
        kind = dict(debug_stripped=name == "debug_stripper", drops_errors=name in DROPS_ERRORS)
        compare(reference, observe(out, traced, program), f"pass {name}", graph=out, **kind)
        if each_pass_in_pipeline:  # the pass alone, sub-graphs included
            alone, _ = optimize(graph, only(name))
            verify(alone)
            compare(reference, observe(alone, traced, program), f"pipeline of {name} only",
                    graph=alone, **kind)
    strict = all_on(debug_stripper=False, auto_mixed_precision=False)
    optimized, report = optimize(graph, strict, verify=True)
    for _, snapshot in report.snapshots:
        verify(snapshot)
    verify(optimized)
    compare(reference, observe(optimized, traced, program), "the pipeline", graph=optimized,
            drops_errors=True)
    for graph_run, what in ((graph, "the traced graph"), (optimized, "the pipeline")):
        compare(reference, observe(graph_run, traced, program, executor="codegen"),
                f"{what}, as generated code", graph=graph_run, drops_errors=True)
    stripped, _ = optimize(graph, all_on(auto_mixed_precision=False))
    verify(stripped)
    compare(reference, observe(stripped, traced, program), "the pipeline with debug_stripper",
            debug_stripped=True, drops_errors=True, graph=stripped)
    assert text_of(graph) == traced_text, "the optimizer changed the traced graph"


def check_rounding(program) -> None:
    """Passes that change rounding, on graphs of continuous float32 ops."""
    traced = trace(program)
    graph = traced.graph
    reference = observe(graph, traced, program)
    scale = value_scale(graph, program)
    # float16 overflows to inf and flushes small values to 0 (and 0 * inf is NaN)
    half = Tolerance(scale, nonfinite_may_differ=True)
    for name in ROUNDING_PASSES:
        out, _ = run_pass(name, graph, all_on())
        compare(reference, observe(out, traced, program), f"pass {name}", compare=half,
                graph=out)
    for name in ROUNDING_GROUPS:  # the pass with its rounding-changing group on
        opts = all_on(**{PASSES[name].rounding_option: True})
        out, _ = run_pass(name, graph, opts)
        compare(reference, observe(out, traced, program), f"pass {name}, rounding-changing "
                "group on", compare=Tolerance(scale, False), graph=out)
    everything, report = optimize(graph, all_on(arithmetic_rounding_changing=True),
                                  verify=True)
    for _, snapshot in report.snapshots:
        verify(snapshot)
    verify(everything)
    compare(reference, observe(everything, traced, program), "the pipeline, all passes",
            compare=half, debug_stripped=True, drops_errors=True, graph=everything)


@FAST
@given(programs())
def test_passes_keep_results_bit_for_bit(program):
    check_exact(program)


@SMOOTH_FAST
@given(programs(smooth=True))
def test_rounding_passes_stay_close(program):
    check_rounding(program)


@pytest.mark.slow
@SLOW
@given(programs(max_steps=20))
def test_passes_keep_results_bit_for_bit_slow(program):
    check_exact(program, each_pass_in_pipeline=True)


@pytest.mark.slow
@SMOOTH_SLOW
@given(programs(max_steps=12, smooth=True))
def test_rounding_passes_stay_close_slow(program):
    check_rounding(program)


def check_executors(program) -> None:
    """The optimized graph on the parallel executor (forced to split whenever there are two
    parts) and, fused, on the jit executor (numba kernels; scalar loops compiled whole) observes
    what the traced graph does on the interpreter: bit for bit where the kernels are exact,
    else within the tolerance (approximated tanh/exp; matmul sums on one BLAS thread)."""
    traced = trace(program)
    graph = traced.graph
    reference = observe(graph, traced, program)
    optimized, _ = optimize(graph, all_on(debug_stripper=False, auto_mixed_precision=False))
    close = Tolerance(value_scale(graph, program))
    compare(reference, observe(optimized, traced, program, executor="parallel"),
            "the pipeline on the parallel executor", compare=close, drops_errors=True,
            graph=optimized)
    if numba_available():
        fused = jit_fusion(optimized)
        verify(fused)
        exact = _exact(fused)
        compare(reference, observe(fused, traced, program, executor="jit"),
                "the pipeline, fused, on the jit executor", compare=same if exact else close,
                drops_errors=True, graph=fused, close_text=not exact)


@settings(max_examples=8, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(programs())
def test_the_pipeline_runs_the_same_on_the_jit_and_parallel_executors(program):
    check_executors(program)


@pytest.mark.slow
@settings(max_examples=200, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(programs(max_steps=16))
def test_the_pipeline_runs_the_same_on_the_jit_and_parallel_executors_slow(program):
    check_executors(program)
