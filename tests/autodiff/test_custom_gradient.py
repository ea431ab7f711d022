"""`tf.custom_gradient` eagerly and in graphs (issue 26 item 4). Every expected value is what
TensorFlow 2.21 prints for the same program."""

from __future__ import annotations

import numpy as np
import pytest

import tracegraph as tf


@tf.custom_gradient
def times3grad(a):
    def grad(dy):
        return dy * 3.0
    return a * 1.0, grad


@tf.custom_gradient
def sq(a):
    def grad(dy):
        return dy * 2.0 * a
    return a * a, grad


@tf.custom_gradient
def log1pexp(x):
    e = tf.exp(x)

    def grad(upstream):
        return upstream * (1 - 1 / (1 + e))
    return tf.math.log(1 + e), grad


def test_traced_without_a_tape_keeps_its_gradient():
    """The tape outside the tf.function: TF 3.0 (was 1.0, the rule lost in the graph)."""
    x = tf.constant(2.0)
    with tf.GradientTape() as t:
        t.watch(x)
        y = tf.function(lambda a: times3grad(a))(x)
    assert float(t.gradient(y, x)) == 3.0

    @tf.function
    def with_tf_gradients(a):
        return tf.gradients(times3grad(a), a)
    assert float(with_tf_gradients(x)[0]) == 3.0


def test_called_on_a_variable_eagerly_and_in_a_function():
    v = tf.Variable(2.0)
    with tf.GradientTape() as t:
        y = times3grad(v)
    assert float(t.gradient(y, v)) == 3.0

    @tf.function
    def inside():
        with tf.GradientTape() as t:
            y = times3grad(v)
        return t.gradient(y, v)
    assert float(inside()) == 3.0


@pytest.mark.parametrize("where", ["eager", "function", "function called under the tape"])
def test_gradients_of_the_variables_it_reads(where):
    """`grad_fn(dy, variables=None)` returns (input gradients, variable gradients)."""
    w = tf.Variable(3.0)

    @tf.custom_gradient
    def scaled(x):
        def grad(dy, variables=None):
            return dy * 100.0, [dy * 7.0 for _ in variables]
        return x * w, grad

    x = tf.constant(2.0)

    def run(fn):
        with tf.GradientTape() as t:
            t.watch(x)
            y = fn(x)
        return t.gradient(y, [x, w])
    if where == "eager":
        gx, gw = run(scaled)
    elif where == "function":
        gx, gw = tf.function(lambda: run(scaled))()
    else:
        gx, gw = run(tf.function(scaled))
    assert float(gx) == 100.0 and float(gw) == 7.0


def test_variables_read_without_accepting_them_is_an_error():
    w = tf.Variable(3.0)

    @tf.custom_gradient
    def f(x):
        return x * w, lambda dy: dy

    with tf.GradientTape() as t:
        x = tf.constant(1.0)
        t.watch(x)
        with pytest.raises(TypeError, match="must accept keyword argument 'variables'"):
            f(x)


def test_several_outputs_and_a_variable_argument():
    x, v = tf.constant(2.0), tf.Variable(2.0)

    @tf.custom_gradient
    def two_out(a, b):   # b is an argument: not among `variables`
        def grad(dy1, dy2):
            return dy1 + 10.0 * dy2, dy1 * 0.0 + 100.0 * dy2
        return (a * b, a + b), grad

    with tf.GradientTape(persistent=True) as t:
        t.watch([x, v])
        p, s = two_out(x, v)
        z = p + 2.0 * s
    assert [float(g) for g in t.gradient(z, [x, v])] == [21.0, 200.0]
    assert [float(g) for g in t.gradient(p, [x, v])] == [1.0, 0.0]


def test_inside_cond_loop_and_a_function_called_under_the_tape():
    """grad_fn closing over tensors of the forward graph, with its op seen from a caller (a
    branch, a loop body, a called function's graph)."""
    x = tf.constant(3.0)
    with tf.GradientTape() as t:
        t.watch(x)
        y = tf.function(lambda a: sq(a) + log1pexp(a * 100.0))(x)
    assert float(t.gradient(y, x)) == 106.0

    @tf.function
    def in_cond(x):
        with tf.GradientTape() as t:
            t.watch(x)
            y = tf.cond(x > 0, lambda: sq(x) * log1pexp(x), lambda: x)
        return t.gradient(y, x)
    np.testing.assert_allclose(float(in_cond(x)), 26.864689, rtol=1e-6)
    assert float(in_cond(-x)) == 1.0

    @tf.function
    def in_loop(x):
        with tf.GradientTape() as t:
            t.watch(x)
            _, y = tf.while_loop(lambda i, y: i < 3, lambda i, y: (i + 1, log1pexp(y) * 0.5),
                                 (0, x))
        return t.gradient(y, x)
    np.testing.assert_allclose(float(in_loop(x)), 0.06871833, rtol=1e-6)


@pytest.mark.parametrize("traced", [False, True])
def test_second_derivative_goes_through_what_grad_fn_closed_over(traced):
    """TF's tapes record the function's own ops: the second derivative reaches `e` (17.93),
    while the first goes through grad_fn alone."""
    def run(x):
        with tf.GradientTape() as t2:
            t2.watch(x)
            with tf.GradientTape() as t1:
                t1.watch(x)
                y = sq(x) * log1pexp(x)
            g = t1.gradient(y, x)
        return g, t2.gradient(g, x)
    g, gg = (tf.function(run) if traced else run)(tf.constant(3.0))
    np.testing.assert_allclose([float(g), float(gg)], [26.864689, 17.934654], rtol=1e-6)
    x = tf.constant(2.0)
    with tf.GradientTape() as t2:
        t2.watch(x)
        with tf.GradientTape() as t1:
            t1.watch(x)
            y = sq(x)
        g = t1.gradient(y, x)
    assert float(g) == 4.0 and float(t2.gradient(g, x)) == 2.0


def test_variables_of_a_custom_gradient_defined_in_a_function():
    v = tf.Variable(2.0)

    @tf.function
    def nested_vars():
        @tf.custom_gradient
        def f(z):
            def grad(dy, variables):
                return dy * v, [dy * z * 10.0]
            return z * v, grad
        with tf.GradientTape() as t:
            y = f(tf.constant(3.0))
        return t.gradient(y, v)
    assert float(nested_vars()) == 30.0
