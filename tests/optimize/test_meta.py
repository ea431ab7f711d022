"""The meta-optimizer and tf.config.optimizer (R-6.1, R-6.2, R-6.5) and verify mode."""

import contextlib
import warnings

import numpy as np
import pytest

import tracegraph as tf
from tracegraph.execute.verify_passes import OptimizerVerificationError
from tracegraph.optimize import ORDER
from tracegraph.optimize.meta import OptimizerWarning, optimize
from tracegraph.optimize.passes import PASSES, GraphPass

from .helpers import op_types, spec, traced


@contextlib.contextmanager
def options(opts):
    """The Grappler seed's context manager, verbatim."""
    old_opts = tf.config.optimizer.get_experimental_options()
    tf.config.optimizer.set_experimental_options(opts)
    try:
        yield
    finally:
        tf.config.optimizer.set_experimental_options(old_opts)


def test_options_round_trip_as_the_seed_prints():
    assert tf.config.optimizer.get_experimental_options() == {
        "disable_model_pruning": False, "disable_meta_optimizer": False}
    with options({"constant_folding": False}):
        assert str(tf.config.optimizer.get_experimental_options()) == (
            "{'constant_folding': False, 'disable_model_pruning': False, "
            "'disable_meta_optimizer': False}")
    tf.config.optimizer.set_experimental_options({"debug_stripper": True, "min_graph_nodes": 3})
    assert tf.config.optimizer.get_experimental_options() == {
        "constant_folding": False, "debug_stripper": True, "disable_model_pruning": False,
        "disable_meta_optimizer": False, "min_graph_nodes": 3}  # options merge


@pytest.mark.parametrize("bad,message", [
    ({"constnt_folding": True}, "Unknown optimizer option 'constnt_folding'. Valid options: "
                                "layout_optimizer, constant_folding"),
    ({"constant_folding": "yes"}, "must be True or False"),
    ({"min_graph_nodes": -1}, "non-negative int"),
])
def test_bad_options_are_value_errors(bad, message):
    with pytest.raises(ValueError, match=message):
        tf.config.optimizer.set_experimental_options(bad)
    assert tf.config.optimizer.get_experimental_options() == {
        "disable_model_pruning": False, "disable_meta_optimizer": False}


def test_effective_options_explain_every_pass():
    rows = {r["key"]: r for r in tf.config.optimizer.effective_options()}
    assert rows["constant_folding"]["value"] is True and not rows["constant_folding"]["set"]
    assert rows["debug_stripper"]["default"] is False
    assert "CPU-only" in rows["pin_to_host_optimization"]["effect"]
    assert set(PASSES) >= set(ORDER)


def test_order_rounds_and_run_once_passes():
    g = traced(lambda x: (x * 1.0 + 0) * 2.0, spec([3], tf.float32))
    _, report = optimize(g)
    ran = [p.name for p in report.passes if not p.note]
    assert ran[:3] == ["pruning", "function_optimization", "common_subgraph_elimination"]
    first_round = ran[:ran.index("memory_optimization") + 1]
    assert [n for n in ORDER if n in first_round] == first_round
    for once in ("layout_optimizer", "loop_optimization", "memory_optimization"):
        assert ran.count(once) == 1


def test_traced_graph_stays_as_traced_and_optimized_graph_is_inspectable():
    @tf.function
    def f(x):
        return x * 1.0 + tf.constant(2.0) * 3.0

    x = tf.constant([1.0, 2.0])
    assert f(x).numpy().tolist() == [7.0, 8.0]
    cf = f.get_concrete_function(x)
    assert "Mul" in op_types(cf.graph)
    assert op_types(cf.optimized_graph) == ["Placeholder", "Const", "AddV2", "Identity"]
    assert "constant_folding:" in cf.optimizer_report.text()
    assert any(r.rule == "fold" for r in cf.optimizer_report.rewrites)
    assert cf.optimizer_report.ran("constant_folding")


def test_a_fold_says_what_became_a_constant():
    # issue 26, item 18: was "fold: MatMul -> MatMul"
    a = tf.constant([[1.0, 2.0], [3.0, 4.0]])
    f = tf.function(lambda x: tf.matmul(tf.matmul(a, a), a) + x)
    assert f(tf.constant(1.0)).numpy().tolist() == [[38.0, 55.0], [82.0, 119.0]]
    folds = [str(r) for r in f.get_concrete_function(tf.constant(1.0)).optimizer_report.rewrites
             if r.rule == "fold"]
    assert folds == ["fold: MatMul = MatMul(MatMul/a, MatMul/a) -> constant float32[2,2]",
                     "fold: MatMul_1 = MatMul(MatMul, MatMul/a) -> constant float32[2,2]"]


def test_options_change_reoptimizes():
    @tf.function
    def f(x):
        tf.debugging.check_numerics(x, "bad")
        return x * 2.0

    with pytest.raises(tf.errors.InvalidArgumentError):
        f(tf.constant(np.inf))
    tf.config.optimizer.set_experimental_options({"debug_stripper": True})
    assert f(tf.constant(np.inf)).numpy() == np.inf


def test_small_graphs_skip_default_passes():
    g = traced(lambda x: -x, spec([3]))
    new, report = optimize(g)
    assert new is g and "min_graph_nodes" in report.passes[0].line()


def test_disable_meta_optimizer():
    tf.config.optimizer.set_experimental_options({"disable_meta_optimizer": True})

    # (the jit executor's fusion is not Grappler: as XLA, it still runs)
    @tf.function(executor="interpreter")
    def f(x):
        return x * 1.0 + tf.constant(2.0) * 3.0

    x = tf.constant([1.0])
    f(x)
    assert f.get_concrete_function(x).optimized_graph is f.get_concrete_function(x).graph


def test_subgraphs_are_optimized():
    def f(x):
        return tf.cond(x[0] > 0, lambda: x * 1.0 * tf.constant(2.0) * 2.0,
                       lambda: x - 0.0 - 1.0 + 0.0)

    g = traced(f, spec([3]))
    new, report = optimize(g)
    branch = next(op for op in new.operations if op.type.endswith("If")).attrs["then_branch"]
    assert any(p.graph.startswith("cond_true") and p.changed for p in report.passes)
    assert op_types(branch).count("Mul") == 2  # x * 1.0 is gone


def _round(report, n):
    return {p.name: p for p in report.passes if p.round == n and p.graph == report.graph}


def test_second_round_skips_passes_that_would_find_the_graph_they_left():
    # CSE merges the repeated constants in round 1; the passes after it saw the merged graph
    # and changed nothing, and memory optimization only marks in-place buffers: in round 2
    # they are skipped, the passes before CSE run again, and CSE (idempotent) is skipped.
    def f(x):
        for _ in range(8):
            x = tf.tanh(x * 0.5 + x) * 0.5
        return x

    g = traced(f, spec([4]))
    new, report = optimize(g)
    first, second = _round(report, 1), _round(report, 2)
    assert first["common_subgraph_elimination"].changed
    assert first["memory_optimization"].changed          # annotations only
    assert not second["pruning"].note                    # ran before CSE in round 1: runs
    for name in ("common_subgraph_elimination", "constant_folding",
                 "arithmetic_optimization", "remapping", "dependency_optimization"):
        assert second[name].note.startswith("skipped"), name
    assert "skipped" in report.text()
    x = np.linspace(-2, 2, 4).astype(np.float32)
    # (bit for bit with the default executors; the jit's tanh is within 1 ulp)
    np.testing.assert_allclose(tf.function(f)(tf.constant(x)).numpy(),
                               tf.function(f, executor="interpreter")(tf.constant(x)).numpy(),
                               rtol=1e-6)


def test_an_annotation_only_round_needs_no_second_round():
    g = traced(lambda x: tf.tanh(x * 3.0) * 2.0 + 1.0, spec([64]))
    new, report = optimize(g)
    first = _round(report, 1)
    assert first["memory_optimization"].changed
    assert not any(p.changed for n, p in first.items() if n != "memory_optimization")
    assert not _round(report, 2)


def test_a_later_change_makes_earlier_passes_run_again():
    # arithmetic optimization (after constant folding) removes x * 1.0, so round 2 runs the
    # passes before it again on the new graph
    g = traced(lambda x: (x * 1.0) * 1.0 - x * 2.0, spec([3]))
    new, report = optimize(g)
    assert _round(report, 1)["arithmetic_optimization"].changed
    second = _round(report, 2)
    for name in ("pruning", "common_subgraph_elimination", "constant_folding"):
        assert not second[name].note, name


def test_a_failing_pass_is_skipped_with_a_warning(monkeypatch):
    def broken(graph, ctx):
        raise RuntimeError("boom")

    monkeypatch.setitem(PASSES, "shape_optimization",
                        GraphPass("shape_optimization", broken, "shape_optimization"))
    g = traced(lambda x: x * 2.0 + 1.0 - x, spec([3]))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        new, report = optimize(g)
    assert any(issubclass(w.category, OptimizerWarning) and "boom" in str(w.message)
               for w in caught)
    assert new is not None


def test_verify_mode_names_the_pass_that_changed_a_result(monkeypatch):
    from tracegraph.optimize import arithmetic_optimization as arithmetic
    from tracegraph.optimize.rewrite_rules import Const, Op, Rule, X
    bad = arithmetic.Rules(Rule("broken", Op("Mul", X, Const(2.0)), X),
                           *arithmetic.ARITHMETIC.rules)
    monkeypatch.setattr(arithmetic, "ARITHMETIC", bad)
    tf.config.optimizer.set_experimental_options({"experimental_verify": True})

    @tf.function
    def f(x):
        return x * 2.0 + x * 2.0 - x

    with pytest.raises(OptimizerVerificationError, match="optimizer pass "
                                                         "'arithmetic_optimization' changed"):
        f(tf.constant([1.0, 2.0]))


def test_verify_mode_passes_on_correct_passes():
    tf.config.optimizer.set_experimental_options({"experimental_verify": True})
    v = tf.Variable(1.0)

    @tf.function
    def f(x):
        v.assign_add(tf.reduce_sum(x))
        tf.print("v", v)
        return tf.reduce_sum(x * 1.0 * x + tf.constant(2.0) * 3.0)

    assert f(tf.constant([1.0, 2.0])).numpy() == 17.0
    assert v.numpy() == 4.0  # the side effect happened once


def test_verify_mode_restarts_seeded_random_ops_in_branches():
    # Each verification run compiles its sub-graphs afresh: a seeded random op in a branch
    # draws the same numbers in the reference run and in each pass's run.
    tf.config.optimizer.set_experimental_options({"experimental_verify": True})

    @tf.function
    def f(x, p):
        return tf.cond(p, lambda: x + tf.random.uniform([2], seed=3) * 1.0, lambda: x)

    first = f(tf.constant([1.0, 2.0]), tf.constant(True)).numpy()
    assert first.shape == (2,)


def test_grappler_seed_constant_folding(capsys):
    """The Grappler guide's example: folding turns the 20 matmuls into one constant (its
    speedup, well over 10x, is measured in bench/grappler.py: tests never assert timings)."""
    def test_function_1():
        @tf.function
        def simple_function(input_arg):
            print("Tracing!")
            a = tf.constant(np.random.randn(500, 500) / 25, dtype=tf.float32)
            c = a
            for _ in range(20):
                c = c @ a
            return tf.reduce_mean(c + input_arg)
        return simple_function

    x = tf.constant(2.2)
    with options({"constant_folding": False}):
        vanilla = test_function_1()
        vanilla(x)
        unfolded = vanilla.get_concrete_function(x).optimized_graph
    with options({"constant_folding": True}):
        folded = test_function_1()
        folded(x)
        optimized = folded.get_concrete_function(x).optimized_graph
    assert capsys.readouterr().out == "Tracing!\nTracing!\n"
    assert sum(op.type == "MatMul" for op in unfolded.operations) == 20
    assert not any(op.type == "MatMul" for op in optimized.operations)
    assert any(r.rule == "fold" for r in folded.get_concrete_function(x).optimizer_report.rewrites)


def test_grappler_seed_debug_stripper():
    def test_function_2():
        @tf.function
        def simple_func(input_arg):
            output = input_arg
            tf.debugging.check_numerics(output, "Bad!")
            return output
        return simple_func

    test_func = test_function_2()
    p1 = tf.constant(float("inf"))
    with pytest.raises(tf.errors.InvalidArgumentError, match="Bad! : Tensor had Inf values"):
        test_func(p1)
    with options({"debug_stripper": True}):
        test_func2 = test_function_2()
        assert test_func2(p1).numpy() == np.inf


def test_toggling_an_option_back_and_forth_reuses_each_optimized_graph():
    @tf.function
    def f(x):
        return x * 1.0 + tf.constant(2.0) * 3.0

    x = tf.constant([1.0])
    f(x)
    cf = f.get_concrete_function(x)
    default_graph = cf.optimized_graph
    tf.config.optimizer.set_experimental_options({"constant_folding": False})
    f(x)
    unfolded = cf.optimized_graph
    assert unfolded is not default_graph
    for _ in range(3):
        tf.config.optimizer.set_experimental_options({"constant_folding": True})
        tf.config.optimizer.reset()
        f(x)
        assert cf.optimized_graph is default_graph
        tf.config.optimizer.set_experimental_options({"constant_folding": False})
        f(x)
        assert cf.optimized_graph is unfolded
    cf.reset_compiled()
    f(x)
    assert cf.optimized_graph is not unfolded
