"""Higher derivatives (issue 26 item 5): nested tapes and a persistent tape differentiating a
gradient it recorded, eagerly, inside tf.function, through loops, conds and eager calls of
traced functions. Expected values are TensorFlow 2.21's for the same programs."""

from __future__ import annotations

import numpy as np
import pytest

import tracegraph as tf


def test_nested_tapes_give_the_second_derivative():
    x = tf.constant(2.0)
    with tf.GradientTape() as t2:
        t2.watch(x)
        with tf.GradientTape() as t1:
            t1.watch(x)
            y = x * x * x
        g = t1.gradient(y, x)
    assert float(g) == 12.0 and float(t2.gradient(g, x)) == 12.0
    v = tf.Variable(2.0)
    with tf.GradientTape() as t2:
        with tf.GradientTape() as t1:
            y = v * v * v
        g = t1.gradient(y, v)
    assert float(g) == 12.0 and float(t2.gradient(g, v)) == 12.0


def test_a_persistent_tape_differentiates_a_gradient_it_recorded(capsys):
    x = tf.constant(2.0)
    with tf.GradientTape(persistent=True) as t:
        t.watch(x)
        y = x * x * x
        g = t.gradient(y, x)
        gg = t.gradient(g, x)
    assert [float(g), float(gg), float(t.gradient(gg, x))] == [12.0, 12.0, 6.0]
    assert "persistent tape inside its context is significantly less efficient" in \
        capsys.readouterr().err


def test_a_non_persistent_tape_stops_recording_at_its_gradient():
    x = tf.constant(2.0)
    with tf.GradientTape() as t:
        t.watch(x)
        y = x * x
        g = t.gradient(y, x)
        z = g * x   # not recorded: the tape was used
    assert float(z) == 8.0
    with pytest.raises(RuntimeError, match="non-persistent"):
        t.gradient(z, x)


def test_second_derivatives_inside_a_function():
    @tf.function
    def nested(x):
        with tf.GradientTape() as t2:
            t2.watch(x)
            with tf.GradientTape() as t1:
                t1.watch(x)
                y = tf.sin(x) * x
            g = t1.gradient(y, x)
        return g, t2.gradient(g, x)

    @tf.function
    def persistent(x):
        with tf.GradientTape(persistent=True) as t:
            t.watch(x)
            y = tf.exp(x) * x
            g = t.gradient(y, x)
            gg = t.gradient(g, x)
        return g, gg

    @tf.function
    def through_control_flow(x):
        with tf.GradientTape() as t2:
            t2.watch(x)
            with tf.GradientTape() as t1:
                t1.watch(x)
                _, y = tf.while_loop(lambda i, y: i < 3, lambda i, y: (i + 1, tf.sin(y) * x),
                                     (0, x))
                y = tf.cond(y > 0, lambda: y * y, lambda: -y)
            g = t1.gradient(y, x)
        return g, t2.gradient(g, x)

    x = tf.constant(2.0)
    np.testing.assert_allclose([float(v) for v in nested(x)], [0.07700372, -2.6508884],
                               rtol=1e-5)
    np.testing.assert_allclose([float(v) for v in persistent(x)], [22.167168, 29.556225],
                               rtol=1e-6)
    np.testing.assert_allclose([float(v) for v in through_control_flow(x)],
                               [0.9795327, -11.770125], rtol=1e-5)


def test_second_derivative_of_an_eager_call_and_a_hessian():
    x = tf.constant(2.0)
    with tf.GradientTape() as t2:
        t2.watch(x)
        with tf.GradientTape() as t1:
            t1.watch(x)
            y = tf.function(lambda a: tf.tanh(a) * a * a)(x)
        g = t1.gradient(y, x)
    np.testing.assert_allclose([float(g), float(t2.gradient(g, x))], [4.138714, 1.948387],
                               rtol=1e-6)
    x2 = tf.constant([1.0, 2.0])
    with tf.GradientTape() as t2:
        t2.watch(x2)
        with tf.GradientTape() as t1:
            t1.watch(x2)
            y = tf.reduce_sum(x2 ** 3)
        g = t1.gradient(y, x2)
    np.testing.assert_array_equal(t2.jacobian(g, x2).numpy(), [[6.0, 0.0], [0.0, 12.0]])


@pytest.mark.parametrize("python_loop", [False, True])
def test_second_derivative_of_a_function_with_a_loop_reading_variables_under_eager_tapes(
        python_loop):
    # nested eager tapes around a tf.function whose loop reads Variables: the backward loop
    # stacks each iteration's state, and differentiating it again stacks those stacks (a state
    # whose shape grows: kept in a TensorList; was a ConcatOp shape error)
    v = tf.Variable([0.5, -0.3])
    w = tf.Variable(2.0)
    x = tf.constant([1.0, 2.0])

    def loop(x):
        if python_loop:
            s = x
            for i in tf.range(3):
                s = tf.tanh(s * v) + w * tf.cast(i, tf.float32)
            return tf.reduce_sum(s)
        _, s = tf.while_loop(lambda i, s: i < 3, lambda i, s: (i + 1, tf.tanh(s * v + w)),
                             (0, x))
        return tf.reduce_sum(s)

    def second(fn):
        with tf.GradientTape() as t2:
            with tf.GradientTape() as t:
                y = fn(x)
            g = t.gradient(y, w)
        return [r.numpy() for r in t2.gradient(g, [v, w])]
    # TensorFlow 2.21's numbers
    want = ([[-0.3936980, 0.1110680], -0.0722610] if python_loop else
            [[-0.0538800, -0.1830940], -0.2608270])
    for got in (second(loop), second(tf.function(loop))):
        np.testing.assert_allclose(got[0], want[0], rtol=1e-4, atol=1e-6)
        np.testing.assert_allclose(got[1], want[1], rtol=1e-4, atol=1e-6)
