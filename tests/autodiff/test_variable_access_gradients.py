"""Variables read where the tape sees only their resource handle: inside a nested tf.function
(captured or passed as an argument), a tf.cond branch or a tf.while_loop body, in a traced
training step. Each value below is what TensorFlow 2.21 prints for the same program (issue 26
items 1 and 2, the Keras notes' repro_cd/repro_wl4); eagerly the same tapes agree."""

from __future__ import annotations

import numpy as np
import pytest

import tracegraph as tf


class Dense(tf.Module):
    def __init__(self):
        super().__init__()
        self.w = tf.Variable([[1.0, -2.0], [0.5, 3.0]])
        self.b = tf.Variable([0.1, -0.2])
        self.frozen = tf.Variable(2.0, trainable=False)

    @tf.function
    def __call__(self, x):
        return tf.nn.relu(tf.matmul(x, self.w) + self.b) * self.frozen


W_GRAD = [[16.8, 30.4], [33.6, 60.8]]
B_GRAD = [16.8, 30.4]


def _loss(m, x):
    return tf.reduce_sum(m(x) ** 2)


@pytest.mark.parametrize("traced", [False, True])
def test_module_call_inside_a_training_step_gives_variable_gradients(traced):
    m = Dense()
    x = tf.constant([[1.0, 2.0]])

    def step(x):
        with tf.GradientTape() as t:
            y = _loss(m, x)
        return t.gradient(y, [m.w, m.b, m.frozen])
    gw, gb, gf = (tf.function(step) if traced else step)(x)
    np.testing.assert_allclose(gw.numpy(), W_GRAD, rtol=1e-6)
    np.testing.assert_allclose(gb.numpy(), B_GRAD, rtol=1e-6)
    assert gf is None   # not trainable: never watched, so no gradient (as TF)


def test_optimizer_step_through_a_nested_function_updates_every_variable():
    m = Dense()
    x = tf.constant([[1.0, 2.0]])
    opt = tf.keras.optimizers.SGD(0.01)
    before = [v.numpy().copy() for v in (m.w, m.b)]

    @tf.function
    def train(x):
        with tf.GradientTape() as t:
            y = _loss(m, x)
        grads = t.gradient(y, [m.w, m.b])
        opt.apply_gradients(zip(grads, [m.w, m.b]))
        return y

    train(x)
    np.testing.assert_allclose(m.w.numpy(), before[0] - 0.01 * np.array(W_GRAD), rtol=1e-6)
    np.testing.assert_allclose(m.b.numpy(), before[1] - 0.01 * np.array(B_GRAD), rtol=1e-6)


def test_watch_accessed_variables_false_watches_only_what_is_watched():
    m = Dense()
    x = tf.constant([[1.0, 2.0]])

    @tf.function
    def none_watched(x):
        with tf.GradientTape(watch_accessed_variables=False) as t:
            y = _loss(m, x)
        return t.gradient(y, [m.w, m.b])

    @tf.function
    def one_watched(x):
        with tf.GradientTape(watch_accessed_variables=False) as t:
            t.watch(m.b)
            y = _loss(m, x)
        return t.gradient(y, [m.w, m.b])

    assert none_watched(x) == [None, None]
    gw, gb = one_watched(x)
    assert gw is None
    np.testing.assert_allclose(gb.numpy(), B_GRAD, rtol=1e-6)


def test_unwatched_sources_get_none():
    x, y = tf.constant(2.0), tf.constant(3.0)
    with tf.GradientTape(persistent=True) as t:
        t.watch(x)
        z = x * y
        u = z * 2.0
    assert t.gradient(z, y) is None
    assert float(t.gradient(u, z)) == 2.0
    gx, gy = t.gradient(u, [x, y])
    assert float(gx) == 6.0 and gy is None


@pytest.mark.parametrize("traced", [False, True])
def test_variable_passed_to_a_nested_function(traced):
    v = tf.Variable(5.0)

    @tf.function
    def inner(w, x):
        return w * w * x

    def step(x):
        with tf.GradientTape() as t:
            y = inner(v, x)
        return t.gradient(y, v)
    assert float((tf.function(step) if traced else step)(tf.constant(2.0))) == 20.0


def test_cond_reading_a_variable_in_a_function():
    """Issue 26 item 2: `y = tf.cond(x[0] > 1., lambda: -x + tf.sqrt(x), lambda: -x * 2.)`."""
    @tf.function
    def grad(x):
        with tf.GradientTape() as t:
            y = tf.cond(x[0] > 1., lambda: -x + tf.sqrt(x), lambda: -x * 2.)
        return t.gradient(y, x)
    np.testing.assert_allclose(grad(tf.Variable([4.0])).numpy(), [-0.75])
    np.testing.assert_allclose(grad(tf.Variable([0.5])).numpy(), [-2.0])


def test_keras_repro_cond_and_map_fn_reading_a_variable():
    w = tf.Variable(2.0)

    @tf.function
    def g(p):
        with tf.GradientTape() as t:
            s = tf.cond(p, lambda: w * 3.0, lambda: w * w)
        return t.gradient(s, w)

    @tf.function
    def h(x):
        with tf.GradientTape() as t:
            s = tf.map_fn(lambda r: r * w, x) if hasattr(tf, "map_fn") else x * w
            s = tf.reduce_sum(s)
        return t.gradient(s, w)
    assert float(g(tf.constant(True))) == 3.0
    assert float(g(tf.constant(False))) == 4.0
    assert float(h(tf.constant([1.0, 2.0]))) == 3.0


@pytest.mark.parametrize("traced", [False, True])
def test_while_loop_body_reading_a_variable(traced):
    v = tf.Variable(5.0)

    def step():
        with tf.GradientTape() as t:
            _, s = tf.while_loop(lambda i, s: i < 3, lambda i, s: (i + 1, s * v + 1.0),
                                 (0, tf.constant(1.0)))
        return t.gradient(s, v)
    assert float((tf.function(step) if traced else step)()) == 86.0


def test_variable_read_in_a_function_called_from_a_cond_in_a_function():
    v = tf.Variable(5.0)

    @tf.function
    def deep():
        @tf.function
        def a(x):
            return tf.cond(x > 0., lambda: b(x), lambda: x)

        @tf.function
        def b(x):
            return x * v
        with tf.GradientTape() as t:
            y = a(tf.constant(3.0))
        return t.gradient(y, v)
    assert float(deep()) == 3.0


def test_nested_function_closing_over_a_tensor_of_the_enclosing_trace():
    """The Keras notes' repro_nest (Keras's grouped convolution wraps the conv in a
    tf.function closing over its inputs): TF prints [3. 5.]; was 'out of scope'."""
    w = tf.Variable(2.0)

    @tf.function
    def outer(x):
        y = x * w

        @tf.function
        def inner(z):
            return tf.cond(z[0] > 0, lambda: y * z + w, lambda: y - z)
        with tf.GradientTape(persistent=True) as t:
            t.watch(x)
            out = tf.reduce_sum(inner(x * 3.0))
        return out, t.gradient(out, [x, w])

    out, (gx, gw) = outer(tf.constant([1.0, 2.0]))
    assert float(out) == 34.0 and float(gw) == 2.0   # y was computed before the tape
    np.testing.assert_allclose(gx.numpy(), [6.0, 12.0])
    out, (gx, gw) = outer(tf.constant([-1.0, 2.0]))
    assert float(out) == -1.0 and float(gw) == 0.0
    np.testing.assert_allclose(gx.numpy(), [-3.0, -3.0])

    @tf.function
    def simple(x):
        y = x * 2.0

        @tf.function
        def inner():
            return y + 1.0
        return inner()
    np.testing.assert_allclose(simple(tf.constant([1.0, 2.0])).numpy(), [3.0, 5.0])
