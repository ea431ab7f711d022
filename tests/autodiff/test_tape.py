"""tf.GradientTape's API, eagerly and inside tf.function (oracles: NumPy derivatives written by
hand, numerical gradients, eager == traced)."""

from __future__ import annotations

import numpy as np
import pytest

import tracegraph as tf


def test_persistent_tape_is_reusable_and_a_plain_one_is_not():
    x = tf.constant([1.0, 3.0])
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = x * x
        z = y * y
    np.testing.assert_allclose(tape.gradient(z, x).numpy(), 4 * np.array([1.0, 27.0]))
    np.testing.assert_allclose(tape.gradient(y, x).numpy(), [2.0, 6.0])
    with tf.GradientTape() as once:
        once.watch(x)
        y = x * x
    once.gradient(y, x)
    with pytest.raises(RuntimeError, match="non-persistent GradientTape"):
        once.gradient(y, x)


def test_unconnected_gradients_none_or_zero_and_nested_sources():
    x = tf.Variable([2.0, 2.0])
    y = tf.Variable(3.0)
    with tf.GradientTape(persistent=True) as tape:
        z = y ** 2
    assert tape.gradient(z, x) is None
    np.testing.assert_array_equal(
        tape.gradient(z, x, unconnected_gradients=tf.UnconnectedGradients.ZERO).numpy(), [0, 0])
    grads = tape.gradient(z, {"a": [x, y], "b": (y,)},
                          unconnected_gradients="zero")
    assert grads["a"][1].numpy() == 6.0 and grads["b"][0].numpy() == 6.0
    np.testing.assert_array_equal(grads["a"][0].numpy(), [0.0, 0.0])


def test_trainable_and_watched_variables():
    a = tf.Variable(1.0, name="a")
    b = tf.Variable(1.0, name="b", trainable=False)
    with tf.GradientTape() as tape:
        y = a * b + a
    assert [v.name for v in tape.watched_variables()] == ["a:0"]
    da, db = tape.gradient(y, [a, b])
    assert da.numpy() == 2.0 and db is None
    with tf.GradientTape(watch_accessed_variables=False) as tape:
        tape.watch(b)
        y = a * b
    assert [v.name for v in tape.watched_variables()] == ["b:0"]
    assert tape.gradient(y, [a, b])[0] is None


def test_stop_recording_reset_and_output_gradients():
    x = tf.Variable(2.0)
    with tf.GradientTape() as tape:
        with tape.stop_recording():
            hidden = x * x
        y = x * 3.0 + hidden
    assert tape.gradient(y, x).numpy() == 3.0
    x = tf.constant([1.0, 2.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = x * x
    g = tape.gradient(y, x, output_gradients=tf.constant([10.0, 1.0]))
    np.testing.assert_allclose(g.numpy(), [20.0, 4.0])


def test_higher_order_through_nested_tapes():
    x = tf.Variable(1.5)
    with tf.GradientTape() as outer:
        with tf.GradientTape() as inner:
            y = tf.sin(x) * x
        dy = inner.gradient(y, x)
    d2y = outer.gradient(dy, x)
    v = 1.5
    np.testing.assert_allclose(dy.numpy(), np.cos(v) * v + np.sin(v), rtol=1e-6)
    np.testing.assert_allclose(d2y.numpy(), -np.sin(v) * v + 2 * np.cos(v), rtol=1e-6)


def test_jacobian_and_batch_jacobian_match_numpy():
    rng = np.random.default_rng(0)
    w = tf.Variable(rng.normal(size=(3, 4)).astype(np.float64))
    x = tf.constant(rng.normal(size=(5, 3)))
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = tf.tanh(x @ w)
    jw = tape.jacobian(y, w).numpy()
    s = 1 - np.tanh(x.numpy() @ w.numpy()) ** 2
    expect = np.einsum("bj,bi,jk->bjik", s, x.numpy(), np.eye(4))
    np.testing.assert_allclose(jw, expect, rtol=1e-10)
    jb = tape.batch_jacobian(y, x).numpy()
    np.testing.assert_allclose(jb, np.einsum("bj,ij->bji", s, w.numpy()), rtol=1e-10)
    assert tape.jacobian(y, tf.Variable(1.0)) is None


def test_integer_sources_get_none_and_a_warning(capsys):
    x = tf.constant(10)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = x * x
    assert tape.gradient(y, x) is None
    assert "The dtype of the watched tensor must be floating" in capsys.readouterr().err


def test_an_op_without_a_rule_raises_lookup_error_naming_it_and_the_line():
    x = tf.Variable([1.0, 2.0])
    with tf.GradientTape() as tape:
        y = tf.linalg.qr(tf.linalg.diag(x)).r  # Qr has no rule yet
    with pytest.raises(LookupError, match=r"op type: Qr.*test_tape\.py:\d+"):
        tape.gradient(y, x)


def test_custom_gradient_with_and_without_variables():
    @tf.custom_gradient
    def clip_gradients(y):
        def backward(dy):
            return tf.clip_by_norm(dy, 0.5)
        return y, backward

    v = tf.Variable(2.0)
    with tf.GradientTape() as t:
        out = clip_gradients(v * v)
    assert t.gradient(out, v).numpy() == 2.0

    w = tf.Variable(3.0)

    @tf.custom_gradient
    def scaled(x):
        def grad(dy, variables):
            return dy * 100.0, [dy * 7.0 for _ in variables]
        return x * w, grad

    x = tf.constant(2.0)
    with tf.GradientTape() as t:
        t.watch(x)
        y = scaled(x)
    gx, gw = t.gradient(y, [x, w])
    assert gx.numpy() == 100.0 and gw.numpy() == 7.0


def _mlp_step():
    rng = np.random.default_rng(1)
    w = tf.Variable(rng.normal(size=(4, 3)).astype(np.float32))
    b = tf.Variable(np.zeros(3, np.float32))

    def grads(x, labels):
        with tf.GradientTape() as tape:
            logits = tf.nn.relu(x @ w + b) * 2.0
            loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(
                labels=labels, logits=logits))
        return tape.gradient(loss, [w, b])
    x = tf.constant(rng.normal(size=(8, 4)).astype(np.float32))
    labels = tf.constant(rng.integers(0, 3, size=8))
    return grads, x, labels


def test_gradients_inside_tf_function_equal_eager_and_live_in_the_same_graph():
    grads, x, labels = _mlp_step()
    eager = grads(x, labels)
    f = tf.function(grads)
    traced = f(x, labels)
    for a, b in zip(eager, traced):
        np.testing.assert_allclose(a.numpy(), b.numpy(), rtol=1e-6)
    concrete = f.get_concrete_function(x, labels)
    types = {op.type for op in concrete.graph.get_operations()}
    assert {"MatMul", "ReluGrad", "SparseSoftmaxCrossEntropyWithLogits"} <= types
    assert "ReluGrad" in concrete.generated_code


def test_tape_outside_a_function_call_and_functions_calling_functions():
    w = tf.Variable([[1.0, 2.0], [3.0, 4.0]])

    @tf.function
    def inner(x):
        return tf.reduce_sum(tf.tanh(x @ w))

    @tf.function
    def outer(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = inner(x) * 2.0
        return tape.gradient(y, [x, w])

    x = tf.constant([[0.1, 0.2]])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.reduce_sum(tf.tanh(x @ w))
    expect = [g.numpy() for g in tape.gradient(y, [x, w])]
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = inner(x)
    got = tape.gradient(y, [x, w])
    for a, b in zip(got, expect):
        np.testing.assert_allclose(a.numpy(), b, rtol=1e-6)
    for a, b in zip(outer(x), expect):
        np.testing.assert_allclose(a.numpy(), 2 * b, rtol=1e-6)


def test_tf_gradients_in_a_function_and_not_eagerly():
    @tf.function
    def f(x):
        y = x * x * x
        return tf.gradients(y, x)[0], tf.gradients(y, [x], grad_ys=tf.constant(2.0))[0]

    g1, g2 = f(tf.constant(2.0))
    assert g1.numpy() == 12.0 and g2.numpy() == 24.0
    with pytest.raises(RuntimeError, match="GradientTape"):
        tf.gradients(tf.constant(1.0), tf.constant(1.0))


def test_gradients_of_optimized_graphs_equal_unoptimized():
    grads, x, labels = _mlp_step()
    f = tf.function(grads)
    optimized = [g.numpy() for g in f(x, labels)]
    tf.config.optimizer.set_experimental_options({"disable_meta_optimizer": True})
    try:
        g = tf.function(grads)
        plain = [v.numpy() for v in g(x, labels)]
    finally:
        tf.config.optimizer.reset()
    for a, b in zip(optimized, plain):
        np.testing.assert_allclose(a, b, rtol=1e-6)


def test_init_scope_lifts_out_of_the_trace():
    seen = []

    @tf.function
    def f(x):
        with tf.init_scope():
            seen.append(tf.executing_eagerly())
            c = tf.constant(3.0)
        return x * c

    assert f(tf.constant(2.0)).numpy() == 6.0
    assert seen == [True]


def test_the_optimizer_works_across_forward_and_backward():
    rng = np.random.default_rng(3)
    w = tf.Variable(rng.normal(size=(6, 5)).astype(np.float32))
    b = tf.Variable(np.zeros(5, np.float32))

    @tf.function
    def step(x):
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum(tf.nn.relu(x @ w + b))
        gw, gb = tape.gradient(loss, [w, b])
        w.assign_sub(0.1 * gw)
        b.assign_sub(0.1 * gb)
        return loss

    x = tf.constant(rng.normal(size=(4, 6)).astype(np.float32))
    cf = step.get_concrete_function(x)
    traced = [op.type for op in cf.graph.get_operations()]
    optimized = [op.type for op in cf.optimized_graph.get_operations()]
    assert "_FusedMatMul" in optimized and "ReluGrad" in optimized  # remapper: forward fused
    # folding and CSE simplify the backward pass (its seed and shape arithmetic are constants)
    assert len(optimized) < len(traced)
    w0, b0 = w.numpy().copy(), b.numpy().copy()
    step(x)
    h = x.numpy() @ w0 + b0
    np.testing.assert_allclose(w.numpy(), w0 - 0.1 * x.numpy().T @ (h > 0), rtol=1e-5)
    np.testing.assert_allclose(b.numpy(), b0 - 0.1 * (h > 0).sum(0), rtol=1e-5)


def test_gradient_of_a_gather_at_a_scalar_index():
    """TF 2.21: the gradient of tf.gather(x, 1) is [0, 1, 0] (it crashed in ScatterNd)."""
    x = tf.constant([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
    for axis, expected in ((0, [[0, 0], [1, 1], [0, 0]]), (1, [[0, 1], [0, 1], [0, 1]])):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.gather(x, 1, axis=axis)
        grad = tape.gradient(y, x)   # rows of axis 0: IndexedSlices, as TensorFlow's
        assert isinstance(grad, tf.IndexedSlices) == (axis == 0)
        np.testing.assert_array_equal(tf.convert_to_tensor(grad).numpy(), expected)




def test_an_eager_tensor_watched_inside_a_function():
    # the ops read the eager tensor through the trace's capture, which the tape watches
    x = tf.constant([2.0, 3.0])

    @tf.function
    def grad():
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.reduce_sum(x * x + tf.add_n([x, x]))
        return tape.gradient(y, x)
    np.testing.assert_array_equal(grad().numpy(), [6.0, 8.0])   # TensorFlow 2.21's
