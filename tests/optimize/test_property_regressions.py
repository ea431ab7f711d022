"""Regression tests for the bugs the optimizer's property tests found (test_properties.py),
each on a small explicit graph."""

from __future__ import annotations

import numpy as np
import pytest

import tracegraph as tf
from tracegraph.graph.verify import verify
from tracegraph.ops.registry import all_ops
from tracegraph.optimize import optimize

from .checks import all_on, run_pass, same
from .helpers import run, spec, traced


def _same_results(a, b):
    assert len(a) == len(b)
    for x, y in zip(a, b):
        assert same(x, y) is None, (x, y)


def test_loop_invariant_code_motion_hoists_two_values():
    # loop_optimization.py compared tensors with `in` (tf.equal on tensors): a body reading
    # two hoisted values made the pass raise.
    def f(x, y):
        def body(i, acc):
            return i + 1, acc * tf.sin(x) + tf.cos(y)
        return tf.while_loop(lambda i, acc: i < 3, body, (0, x))[1]

    graph = traced(f, spec([2]), spec([2]))
    out, ctx = run_pass("loop_optimization", graph, all_on())
    assert [r.rule for r in ctx.rewrites] == ["loop_invariant_code_motion"]
    top = [op.type for op in out.operations]
    assert "Sin" in top and "Cos" in top
    x = np.array([0.5, -0.0], np.float32)
    y = np.array([np.inf, 2.0], np.float32)
    _same_results(run(graph, x, y), run(out, x, y))


def test_in_place_mark_dropped_when_its_input_is_hoisted_out_of_a_loop():
    # The body's add wrote into neg(x) in place (memory optimization of the body); hoisting
    # neg(x) made the add's input a loop-invariant placeholder, and the copied in-place
    # mark made every iteration overwrite it.
    def f(x):
        def body(i, acc):
            return i + 1, acc + tf.negative(x)
        return tf.while_loop(lambda i, acc: i < 2, body, (0, x))[1]

    graph = traced(f, spec([2]))
    out, _ = optimize(graph, all_on(debug_stripper=False, auto_mixed_precision=False))
    verify(out)
    x = np.array([np.nan, 1.0], np.float32)
    expected = np.array([np.nan, -1.0], np.float32)
    assert same(run(graph, x)[0], expected) is None
    assert same(run(out, x)[0], expected) is None


def test_in_place_mark_dropped_when_its_input_gains_a_reader():
    # memory_optimization marks exp(x) + 1 in place; later, common subexpression elimination
    # merges the other exp(x) into the first, which now has two readers.
    def f(x):
        return tf.exp(x) + 1.0, tf.exp(x)

    graph = traced(f, spec([2]))
    marked, _ = run_pass("memory_optimization", graph, all_on())
    assert any(op.inplace_input is not None for op in marked.operations)
    merged, _ = run_pass("common_subgraph_elimination", marked, all_on())
    assert all(op.inplace_input is None for op in merged.operations)
    x = np.array([0.0, -np.inf], np.float32)
    _same_results(run(graph, x), run(merged, x))


def test_fresh_output_ops_return_fresh_writable_arrays():
    wrong = []
    for op in all_ops():
        if "fresh_output" not in op.flags or op.kernel is None:
            continue
        for dtype in (np.float32, np.int32, np.complex64):
            x = np.arange(4, dtype=dtype).reshape(2, 2)
            try:
                with np.errstate(all="ignore"):
                    out = op.kernel(*([x] * len(op.inputs)))
            except Exception:  # the op takes other inputs or dtypes
                continue
            if isinstance(out, np.ndarray) and (not out.flags.writeable or
                                                np.shares_memory(out, x)):
                wrong.append(f"{op.tf_type}({np.dtype(dtype).name})")
    assert not wrong, wrong


@pytest.mark.parametrize("fn, dtype", [
    (lambda x, y: ((x + 0) + y) + x, tf.int32),            # x + 0 -> x makes a chain of adds
    (lambda x, y: ((x + y) * 1.0) + x, tf.float32),        # x * 1 -> x leaves x + y one reader
])
def test_arithmetic_reaches_its_fixed_point_in_one_application(fn, dtype):
    # One sweep left matches behind for a second application (not idempotent).
    graph = traced(fn, spec([2], dtype), spec([2], dtype))
    once, _ = run_pass("arithmetic_optimization", graph, all_on())  # asserts idempotence
    assert [op.type for op in once.operations if op.op_def.kernel is not None and
            op.type != "Const"] == ["AddN", "Identity"]
    x = np.array([3, -7], dtype.as_numpy_dtype)
    y = np.array([2 ** 31 - 1, 0], dtype.as_numpy_dtype)
    _same_results(run(graph, x, y), run(once, x, y))


def test_function_inlining_inlines_nested_calls_in_one_application():
    # Inlining left the inner function's call in the outer graph for a second application.
    @tf.function
    def inner(y):
        return tf.sin(y) * 2.0

    @tf.function
    def middle(y):
        return inner(y) + 1.0

    graph = traced(lambda x: middle(x) - x, spec([2]))
    once, ctx = run_pass("function_optimization", graph, all_on())  # asserts idempotence
    assert not any("function_call" in op.op_def.flags for op in once.operations)
    assert [r.rule for r in ctx.rewrites] == ["inline", "inline"]
    x = np.array([-0.0, np.inf], np.float32)
    _same_results(run(graph, x), run(once, x))


def _run_from(variable, initial, graph, *args):
    variable.assign(initial)
    results = run(graph, *args)
    return [np.asarray(r) for r in results] + [variable.numpy()]


def test_loop_invariant_code_motion_keeps_variable_reads_in_the_loop():
    # A read of a Variable the body writes was hoisted: every iteration saw the first value.
    v = tf.Variable(np.float32(1.0))

    def f(x):
        def body(i, acc):
            acc = acc + v.read_value()
            v.assign_add(1.0)
            return i + 1, acc
        return tf.while_loop(lambda i, acc: i < 3, body, (0, x))[1]

    graph = traced(f, spec([]))
    out, ctx = run_pass("loop_optimization", graph, all_on())
    assert ctx.rewrites == []
    x = np.float32(-0.0)
    _same_results(_run_from(v, 1.0, graph, x), _run_from(v, 1.0, out, x))


def test_inlined_variable_reads_wait_for_the_writes_before_the_call():
    # After inlining two calls of a function that reads then writes a Variable, the second
    # read had no control edge on the first call's write, and CSE merged the two reads.
    v = tf.Variable(np.array([1.0, -np.inf], np.float32))

    @tf.function
    def step(x):
        y = x + v.read_value()
        v.assign(-y)
        return y

    graph = traced(lambda x: step(step(x)), spec([2]))
    inlined, _ = run_pass("function_optimization", graph, all_on())
    merged, _ = run_pass("common_subgraph_elimination", inlined, all_on())
    assert [op.type for op in merged.operations].count("ReadVariableOp") == 2
    x = np.array([0.5, np.nan], np.float32)
    initial = v.numpy()
    reference = _run_from(v, initial, graph, x)
    _same_results(reference, _run_from(v, initial, merged, x))
    optimized, _ = optimize(graph, all_on(debug_stripper=False, auto_mixed_precision=False))
    _same_results(reference, _run_from(v, initial, optimized, x))


def test_dead_branch_removal_reaches_its_fixed_point_in_one_application():
    # The taken branch held a cond on a constant too; it took a second application.
    def f(x):
        def outer_true():
            return tf.cond(tf.constant(False), lambda: x * 2.0, lambda: x - 1.0)
        return tf.cond(tf.constant(True), outer_true, lambda: x)

    graph = traced(f, spec([2]))
    once, ctx = run_pass("loop_optimization", graph, all_on())  # asserts idempotence
    assert [r.rule for r in ctx.rewrites] == ["dead_branch", "dead_branch"]
    assert not any(op.subgraphs() for op in once.operations)
    x = np.array([np.inf, -0.0], np.float32)
    _same_results(run(graph, x), run(once, x))


def test_loop_invariant_code_motion_moves_no_op_that_can_raise():
    # x // 0 was hoisted out of a loop that runs no iteration: the hoisted op raised.
    def f(x, y, n):
        def body(i, acc):
            return i + 1, acc + x // 0 + tf.cast(tf.reduce_sum(tf.exp(y)), tf.int32)
        return tf.while_loop(lambda i, acc: i < n, body, (0, x))[1]

    graph = traced(f, spec([2], tf.int32), spec([2]), spec([], tf.int32))
    out, ctx = run_pass("loop_optimization", graph, all_on())
    hoisted = [op.type for op in out.operations]
    assert "FloorDiv" not in hoisted and "Exp" in hoisted and "Cast" in hoisted
    x, y = np.array([1, -2], np.int32), np.array([np.nan, -np.inf], np.float32)
    _same_results(run(graph, x, y, np.int32(0)), run(out, x, y, np.int32(0)))


def test_pow_specializations_only_for_a_scalar_exponent():
    # NumPy's float32 pow with an array of 2s is one ulp off x*x for some x (3.0332537): the
    # rewrite pow(x, 2) -> square(x) changed the result; with a scalar exponent pow is x*x.
    def f(x):
        return tf.pow(x, tf.constant(np.full([2], 2.0, np.float32))), tf.pow(x, 2.0)

    graph = traced(f, spec([2]))
    out, ctx = run_pass("arithmetic_optimization", graph, all_on())
    assert [r.rule for r in ctx.rewrites] == ["pow_two"]
    x = np.array([3.0332537, -np.inf], np.float32)
    _same_results(run(graph, x), run(out, x))
