"""Graph-mode gradients of function calls and conds reuse the forward values (outputs the
forward op gains for its gradient) instead of running the forward ops again, as TensorFlow's
do: a training step's optimized graph computes a nested function's `exp` once, and a random
draw inside a function is the one its gradient sees."""

from __future__ import annotations

import gc
import weakref

import numpy as np

import tracegraph as tf


def _count(graph, op_type: str) -> int:
    """Ops of `op_type` in `graph` and every sub-graph it holds."""
    n = 0
    for op in graph.get_operations():
        n += op.type == op_type
        n += sum(_count(sub, op_type) for _, sub in op.subgraphs())
    return n


def _numerical(f, x, eps=1e-6):
    return np.array([(f(x + eps * e) - f(x - eps * e)) / (2 * eps) for e in np.eye(len(x))])


def test_a_nested_function_computes_its_exp_once_in_a_training_step():
    w = tf.Variable([0.5, -0.3, 0.2], dtype=tf.float64)

    @tf.function
    def inner(x):
        return tf.exp(x * w)

    @tf.function
    def step(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            loss = tf.reduce_sum(inner(x))
        return loss, tape.gradient(loss, [x, w])

    x = tf.constant([1.0, 2.0, 3.0], tf.float64)
    cf = step.get_concrete_function(x)
    assert _count(cf.graph, "Exp") == 1 and _count(cf.optimized_graph, "Exp") == 1
    loss, (gx, gw) = step(x)
    wv = w.numpy()
    np.testing.assert_allclose(gx.numpy(), _numerical(lambda v: np.exp(v * wv).sum(),
                                                       x.numpy()), rtol=1e-6)
    np.testing.assert_allclose(gw.numpy(), _numerical(lambda v: np.exp(x.numpy() * v).sum(),
                                                       wv), rtol=1e-6)
    # the traced function's own graph stays as traced: the call reads a copy of its own
    assert [t.dtype for t in inner.get_concrete_function(x).graph.outputs] == [tf.float64]


def test_a_cond_branch_computes_its_exp_once_in_a_training_step():
    w = tf.Variable([0.5, -0.3, 0.2], dtype=tf.float64)

    @tf.function
    def step(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.cond(tf.reduce_sum(x) > 0, lambda: tf.exp(x * w), lambda: x * 2.0)
            loss = tf.reduce_sum(y)
        return loss, tape.gradient(loss, [x, w])

    for start in ([1.0, 2.0, 3.0], [-1.0, -2.0, 0.5]):
        x = tf.constant(start, tf.float64)
        cf = step.get_concrete_function(x)
        assert _count(cf.graph, "Exp") == 1 and _count(cf.optimized_graph, "Exp") == 1
        _, (gx, gw) = step(x)
        wv, xv = w.numpy(), x.numpy()

        def f(v, wv=wv):
            return np.exp(v * wv).sum() if v.sum() > 0 else (2 * v).sum()
        np.testing.assert_allclose(gx.numpy(), _numerical(f, xv), rtol=1e-6)
        expected_gw = xv * np.exp(xv * wv) if xv.sum() > 0 else np.zeros(3)
        np.testing.assert_allclose(gw.numpy(), expected_gw, rtol=1e-6)


def test_a_cond_with_unknown_batch_dims_reuses_its_values():
    @tf.function(input_signature=[tf.TensorSpec([None, 2], tf.float32)])
    def step(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.cond(tf.reduce_sum(x) > 0, lambda: tf.tanh(x) * x, lambda: x * x)
        return tape.gradient(y, x)

    for x in (np.array([[0.5, 1.0], [2.0, -0.1]], np.float32), -np.ones((3, 2), np.float32)):
        g = step(tf.constant(x)).numpy()
        expected = (np.tanh(x) + x * (1 - np.tanh(x) ** 2)) if x.sum() > 0 else 2 * x
        np.testing.assert_allclose(g, expected, rtol=1e-5)
    assert _count(step.get_concrete_function().graph, "Tanh") == 1


def test_the_gradient_sees_the_forward_random_draw():
    """A value computed again would be a new draw: the gradient of x * r is the r of the
    forward pass only when it is reused."""
    @tf.function
    def noisy(x):
        return x * tf.random.uniform([4], dtype=tf.float64)

    @tf.function
    def step(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = noisy(x)
        return y, tape.gradient(y, x)

    x = tf.constant([1.0, 2.0, 3.0, 4.0], tf.float64)
    for _ in range(3):
        y, g = step(x)
        np.testing.assert_allclose(g.numpy(), y.numpy() / x.numpy())


def test_second_derivatives_through_reused_values():
    @tf.function
    def inner(x):
        return tf.exp(x) * tf.sin(x)

    @tf.function
    def second(x):
        with tf.GradientTape() as outer:
            outer.watch(x)
            with tf.GradientTape() as tape:
                tape.watch(x)
                y = tf.cond(x > 0, lambda: inner(x), lambda: x * x * x)
            dy = tape.gradient(y, x)
        return dy, outer.gradient(dy, x)

    for v in (0.7, -0.4):
        dy, d2y = second(tf.constant(v, tf.float64))
        if v > 0:
            expected = (np.exp(v) * (np.sin(v) + np.cos(v)), 2 * np.exp(v) * np.cos(v))
        else:
            expected = (3 * v * v, 6 * v)
        np.testing.assert_allclose([dy.numpy(), d2y.numpy()], expected, rtol=1e-9)


def test_a_persistent_tape_reuses_the_same_forward_outputs_twice():
    @tf.function
    def inner(x):
        return tf.exp(x)

    @tf.function
    def twice(x):
        with tf.GradientTape(persistent=True) as tape:
            tape.watch(x)
            y = inner(x)
            z = inner(x) * 2.0
        return tape.gradient(y, x), tape.gradient(z, x), tape.gradient(y, x)

    x = tf.constant([0.1, 0.2], tf.float64)
    a, b, c = twice(x)
    np.testing.assert_allclose(a.numpy(), np.exp(x.numpy()))
    np.testing.assert_allclose(b.numpy(), 2 * np.exp(x.numpy()))
    np.testing.assert_allclose(c.numpy(), a.numpy())
    assert _count(twice.get_concrete_function(x).graph, "Exp") == 2  # one per call of inner


def _loop(x, n=3):
    return tf.while_loop(lambda i, y: i < n, lambda i, y: (i + 1, tf.tanh(y) * x),
                         [tf.constant(0), x])[1]


def _loop_numpy(x, n=3):
    y = x
    for _ in range(n):
        y = np.tanh(y) * x
    return y


def test_a_while_loop_accumulates_what_its_gradient_reads():
    """The body's tanh runs in the forward loop only; the backward loop reads each
    iteration's value from the list the forward loop wrote."""
    @tf.function
    def step(x, n):
        with tf.GradientTape() as tape:
            tape.watch(x)
            loss = tf.reduce_sum(_loop(x, n))
        return loss, tape.gradient(loss, x)

    for n in (0, 1, 4):
        x = tf.constant([0.3, -0.8, 1.2], tf.float64)
        _, g = step(x, tf.constant(n))
        expected = _numerical(lambda v, n=n: _loop_numpy(v, n).sum(), x.numpy())
        np.testing.assert_allclose(g.numpy(), expected, rtol=1e-6, atol=1e-10)
    graph = step.get_concrete_function(x, tf.constant(1)).graph
    assert _count(graph, "Tanh") == 1
    assert _count(graph, "StatelessWhile") == 2
    assert _count(graph, "TensorListSetItem") == 1  # only tanh(y) is kept: y itself is unread


def test_a_loop_gradient_sees_each_iteration_draw():
    @tf.function
    def step(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.while_loop(lambda i, acc: i < 5,
                              lambda i, acc: (i + 1, acc + x * tf.random.uniform([2], 1.0, 2.0,
                                                                                   tf.float64)),
                              [tf.constant(0), tf.zeros([2], tf.float64)])[1]
        return y, tape.gradient(y, x)

    x = tf.constant([1.5, -2.0], tf.float64)
    y, g = step(x)
    np.testing.assert_allclose(g.numpy(), y.numpy() / x.numpy())


def test_loops_inside_functions_and_branches_reuse_their_values():
    @tf.function
    def inner(x):
        return _loop(x)

    @tf.function
    def step(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            a = inner(x)
            b = tf.cond(tf.reduce_sum(x) > 0, lambda: _loop(x * 2.0), lambda: x)
            loss = tf.reduce_sum(a) + tf.reduce_sum(b)
        return tape.gradient(loss, x)

    for start in ([0.3, -0.8, 1.2], [-0.3, -0.8, 0.2]):
        x = tf.constant(start, tf.float64)

        def f(v):
            return _loop_numpy(v).sum() + (_loop_numpy(2 * v).sum() if v.sum() > 0 else v.sum())
        np.testing.assert_allclose(step(x).numpy(), _numerical(f, x.numpy()), rtol=1e-6)
    assert _count(step.get_concrete_function(x).graph, "Tanh") == 2  # one per loop


def test_second_derivatives_of_a_loop_run_it_again():
    """A tape around the gradient differentiates the backward loop, which then computes its
    values again (a TensorList read has no gradient)."""
    @tf.function
    def second(x):
        with tf.GradientTape() as outer:
            outer.watch(x)
            with tf.GradientTape() as tape:
                tape.watch(x)
                y = tf.while_loop(lambda i, y: i < 2, lambda i, y: (i + 1, tf.sin(y) * x),
                                  [tf.constant(0), x])[1]
                y = tf.reduce_sum(y)
            dy = tape.gradient(y, x)
        return dy, outer.gradient(dy, x)

    def first(v):
        return _numerical(lambda u: (np.sin(np.sin(u) * u) * u).sum(), v)
    v = np.array([0.6, -0.3])
    dy, d2y = second(tf.constant(v))
    np.testing.assert_allclose(dy.numpy(), first(v), rtol=1e-6)
    hessian_rows = np.array([(first(v + 1e-4 * e) - first(v - 1e-4 * e)) / 2e-4
                             for e in np.eye(2)])
    np.testing.assert_allclose(d2y.numpy(), hessian_rows.sum(axis=0), rtol=1e-4)


def test_nested_loops_equal_eager_with_and_without_the_optimizer():
    """The inner loop inside the outer body keeps its own values; its op is extended after
    the outer backward loop has bound a replay of it (which keeps the loop as it was)."""
    def grads(x):
        def outer_body(i, y):
            inner = tf.while_loop(lambda j, z: j < 2,
                                  lambda j, z: (j + 1, tf.maximum(z, z * z) * 0.5), [0, y])
            return i + 1, inner[1]
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.while_loop(lambda i, y: i < 3, outer_body, [0, x])[1]
            loss = tf.reduce_sum(tf.sin(y))
        return tape.gradient(loss, x)

    x = tf.constant([0.1, 0.5, -0.3, 1.7])
    eager = grads(x).numpy()
    np.testing.assert_allclose(tf.function(grads, autograph=False)(x).numpy(), eager, rtol=1e-6)
    tf.config.optimizer.set_experimental_options({"disable_meta_optimizer": True})
    try:
        plain = tf.function(grads, autograph=False)(x).numpy()
    finally:
        tf.config.optimizer.reset()
    np.testing.assert_allclose(plain, eager, rtol=1e-6)


def _forwarding_step():
    @tf.function
    def inner(x):
        return tf.exp(x)

    @tf.function
    def step(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = inner(x) + tf.cond(x[0] > 0, lambda: tf.sin(x), lambda: x)
            y = tf.while_loop(lambda i, y: i < 2, lambda i, y: (i + 1, tf.tanh(y)), [0, y])[1]
        return tape.gradient(y, x)

    x = tf.constant([1.0, 2.0])
    step(x)
    return weakref.ref(step.get_concrete_function(x).graph)


def test_forwarded_ops_do_not_keep_their_graphs_alive():
    graphs = [_forwarding_step() for _ in range(3)]
    gc.collect()
    assert all(ref() is None for ref in graphs)


def test_tf_gradients_reuses_cond_values_and_runs_loops_again():
    @tf.function
    def grads(x):
        y = tf.cond(tf.reduce_sum(x) > 0, lambda: tf.exp(x), lambda: x * x)
        z = tf.while_loop(lambda i, z: i < 2, lambda i, z: (i + 1, tf.sin(z)), [0, y])[1]
        return tf.gradients(tf.reduce_sum(z), x)[0]

    x = tf.constant([0.2, 0.4], tf.float64)
    xv = x.numpy()
    expected = np.cos(np.sin(np.exp(xv))) * np.cos(np.exp(xv)) * np.exp(xv)
    np.testing.assert_allclose(grads(x).numpy(), expected, rtol=1e-9)
    graph = grads.get_concrete_function(x).graph
    assert _count(graph, "Exp") == 1
    assert _count(graph, "StatelessWhile") == 3   # forward, again, backward


def _program(inputs, steps, outputs):
    from tests.optimize.programs import Program
    return Program(inputs=inputs, feeds=[np.full(s, v, np.float32) for (_, s), v in
                                         zip(inputs, (0.4, -0.2))],
                   captures=[], variables=[], steps=steps, outputs=outputs,
                   types=[inputs[0]] * (len(inputs) + len(steps)))


def test_values_first_read_inside_a_backward_branch_are_made_outside_it():
    """Found by the gradient property test: a cond inside nested loops reads (in its backward
    branch) a value of the loop body that is made once, for the whole backward loop body."""
    from tests.autodiff.test_gradient_properties import check
    check(_program([("float32", ()), ("float32", ())], [
        ("cond", ("v", 0), ("v", 0), [], [("u", "Neg")]),
        ("while", ("v", 0), None, [("while", 0, [
            ("u", "Relu"), ("call", [("bc", "Maximum", 0.0, False)]),
            ("cond", ("x",), [("outer_bc", "Maximum", "Sub", 0.0, 0),
                              ("outer_bc", "Maximum", "Minimum", 1.0, 1)], [])])], 2)],
        [3, 2]))


def test_a_loop_in_a_function_in_a_loop():
    """Found by the gradient property test: the inner loop's copy bound by a replay of the
    call is a copy all the way down (the inner loop's own body is extended later)."""
    from tests.autodiff.test_gradient_properties import check
    check(_program([("float32", (1, 1)), ("float32", (1, 1))], [
        ("while", ("v", 0), None, [("call", [("u", "Neg"), ("while", None, [
            ("bc", "AddV2", 0.0, False), ("u", "Abs")])])], None)],
        [2]))
