"""The parallel executor: independent components on the inter-op pool, results as the
interpreter's (the suite-wide cross-check also runs with TRACEGRAPH_TEST_EXECUTOR=parallel)."""

import numpy as np
import pytest

import tracegraph as tf
from tracegraph.execute import parallel
from tracegraph.execute.plan import make_plan


def chains(n_chains=8, depth=4):
    def f(x, w):
        outs = []
        for i in range(n_chains):
            y = x * float(i + 1)
            for _ in range(depth):
                y = tf.matmul(y, w)
            outs.append(y)
        return outs
    return f


def inputs(size=256):
    rng = np.random.default_rng(0)
    return (tf.constant(rng.normal(size=(size, size)).astype(np.float32) / size),
            tf.constant(rng.normal(size=(size, size)).astype(np.float32)))


def test_independent_chains_are_components():
    x, w = inputs(8)
    graph = tf.function(chains()).get_concrete_function(x, w).graph
    plan = make_plan(graph, list(graph.inputs), list(graph.outputs),
                     [(ph, v) for v, ph in graph.captures.values()])
    assert len(parallel.components(plan)) == 8


@pytest.mark.parametrize("executor", ["codegen", "parallel"])
def test_heavy_chains_run_on_threads_with_the_interpreters_results(executor):
    x, w = inputs()
    f = tf.function(chains(), executor=executor)
    reference = tf.function(chains(), executor="interpreter")
    for a, b in zip(f(x, w), reference(x, w)):   # one BLAS thread per part: another order
        np.testing.assert_allclose(a.numpy(), b.numpy(), rtol=1e-5,
                                   atol=1e-5 * np.abs(b.numpy()).max())
    source = f.get_concrete_function(x, w).generated_code
    assert source.count("runs on thread") == 8


def test_small_graphs_stay_in_one_function_unless_forced():
    if tf.config.forced_executor() == "parallel":
        pytest.skip("the suite runs every function on the parallel executor")
    x, w = inputs(8)
    assert "runs on thread" not in tf.function(chains()).get_concrete_function(
        x, w).generated_code
    forced = tf.function(chains(), executor="parallel")
    assert forced.get_concrete_function(x, w).generated_code.count("runs on thread") == 8
    for a, b in zip(forced(x, w), tf.function(chains())(x, w)):
        np.testing.assert_array_equal(a.numpy(), b.numpy())


def test_stateful_graphs_keep_one_order():
    v = tf.Variable(1.0)

    def f(x, w):
        a = tf.matmul(x, w)
        v.assign_add(1.0)
        b = tf.matmul(w, x)
        return a, b, v.read_value()

    x, w = inputs()
    g = tf.function(f, executor="parallel")
    out = g(x, w)
    assert "runs on thread" not in g.get_concrete_function(x, w).generated_code
    assert out[2].numpy() == 2.0


def test_outputs_that_are_arguments_or_constants_come_back_in_place():
    x, w = inputs(4)
    f = tf.function(lambda x, w: (tf.matmul(x, w), x, tf.constant(3.0), tf.matmul(w, w)),
                    executor="parallel")
    a, b, c, d = f(x, w)
    np.testing.assert_array_equal(b.numpy(), x.numpy())
    assert c.numpy() == 3.0
    np.testing.assert_array_equal(d.numpy(), (tf.matmul(w, w)).numpy())


def test_one_thread_runs_the_parts_in_turn():
    x, w = inputs()
    parallel.set_inter_op_threads(1)
    try:
        f = tf.function(chains(2, 2), executor="parallel")
        out = f(x, w)
    finally:
        parallel.set_inter_op_threads(0)
    expected = tf.function(chains(2, 2), executor="interpreter")(x, w)
    for a, b in zip(out, expected):
        np.testing.assert_allclose(a.numpy(), b.numpy(), rtol=1e-5,
                                   atol=1e-5 * np.abs(b.numpy()).max())


def test_errors_in_a_part_reach_the_caller():
    spec = tf.TensorSpec([None, None], tf.float32)
    f = tf.function(lambda a, b: (tf.matmul(a, b), tf.matmul(b, b)), executor="parallel",
                    input_signature=[spec, spec])
    with pytest.raises(tf.errors.InvalidArgumentError):
        f(tf.ones([2, 3]), tf.ones([2, 3]))


@pytest.mark.parametrize("threads", [2, 3, 8])
def test_parts_are_shared_by_the_caller_and_the_pool_and_the_first_error_raises(threads):
    # more parts than threads: every part runs once, results come back in place; with two
    # failing parts the one first in order raises, as in the serial executor
    spec = tf.TensorSpec([None, None], tf.float32)

    def f(a, b, c):
        return (tf.matmul(a, a), tf.matmul(c, b, name="second"), tf.matmul(b, b),
                tf.matmul(b, c, name="fourth"), tf.matmul(a, a) * 2.0)

    g = tf.function(f, executor="parallel", input_signature=[spec] * 3)
    parallel.set_inter_op_threads(threads)
    try:
        a, b, c = tf.ones([3, 3]), tf.ones([3, 3]), tf.ones([3, 3]) * 2.0
        out = g(a, b, c)
        assert [o.numpy()[0, 0] for o in out] == [3.0, 6.0, 3.0, 6.0, 6.0]
        with pytest.raises(tf.errors.InvalidArgumentError, match="second"):
            g(a, tf.ones([2, 3]), tf.ones([3, 4]))
    finally:
        parallel.set_inter_op_threads(0)


def test_the_callers_blas_threads_are_as_before_after_a_parallel_call():
    # OpenBLAS's thread count is process-wide: the executor runs its parts with one BLAS thread
    # each and must leave NumPy's own matmuls with the count they had
    from threadpoolctl import ThreadpoolController
    blas = ThreadpoolController().select(user_api="blas")
    before = [c.num_threads for c in blas.lib_controllers]
    x, w = inputs(64)
    tf.function(chains(4, 2), executor="parallel")(x, w)
    assert [c.num_threads for c in blas.lib_controllers] == before
