"""Gradients through broadcasting when the batch dimension is unknown at trace time (a
tf.function traced with `None` batch dims, as a data-parallel step is): `unbroadcast` keeps the
rank of the input it sums back to."""

import numpy as np

import tracegraph as tf


def test_gradient_of_a_broadcast_subtraction_with_a_none_batch_dim():
    w = tf.Variable(np.arange(8, dtype=np.float32).reshape(8, 1) / 8)

    @tf.function(input_signature=[tf.TensorSpec([None, 8], tf.float32),
                                  tf.TensorSpec([None, 1], tf.float32)])
    def grads(x, y):
        with tf.GradientTape() as tape:
            tape.watch(y)
            loss = tf.reduce_sum((tf.matmul(x, w) - y) ** 2 + tf.reduce_mean(y, axis=0))
        return tape.gradient(loss, [w, y])

    rng = np.random.default_rng(0)
    x, y = rng.normal(size=(5, 8)).astype(np.float32), rng.normal(size=(5, 1)).astype(np.float32)
    gw, gy = grads(tf.constant(x), tf.constant(y))
    r = x @ w.numpy() - y
    np.testing.assert_allclose(gw.numpy(), 2 * x.T @ r, rtol=1e-5)
    np.testing.assert_allclose(gy.numpy(), -2 * r + 1, rtol=1e-5)  # 5 rows x mean: 1 each
    assert gy.shape == (5, 1)
