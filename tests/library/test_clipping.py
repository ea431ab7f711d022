"""tf.clip_by_norm and tf.clip_by_global_norm against NumPy (and their gradients)."""

import numpy as np

import tracegraph as tf


def test_clip_by_norm_rescales_only_when_the_norm_is_larger():
    t = np.array([[3.0, 4.0], [0.0, 0.0]], np.float32)
    np.testing.assert_allclose(tf.clip_by_norm(t, 1.0).numpy(), t / 5.0, rtol=1e-6)
    np.testing.assert_allclose(tf.clip_by_norm(t, 10.0).numpy(), t)
    by_row = tf.clip_by_norm(t, 1.0, axes=[1]).numpy()
    np.testing.assert_allclose(by_row, [[0.6, 0.8], [0.0, 0.0]], rtol=1e-6)


def test_clip_by_global_norm_scales_every_tensor_by_the_same_factor():
    a = np.array([3.0, 0.0], np.float32)
    b = np.array([[4.0]], np.float32)
    clipped, norm = tf.clip_by_global_norm([a, None, b], 2.5)
    assert norm.numpy() == np.float32(5.0)
    assert clipped[1] is None
    np.testing.assert_allclose(clipped[0].numpy(), a / 2, rtol=1e-6)
    np.testing.assert_allclose(clipped[2].numpy(), b / 2, rtol=1e-6)


def test_clipping_is_differentiable():
    x = tf.Variable([3.0, 4.0])
    with tf.GradientTape() as tape:
        y = tf.reduce_sum(tf.clip_by_norm(x, 1.0))
    theoretical, numerical = tf.test.compute_gradient(
        lambda v: tf.reduce_sum(tf.clip_by_norm(v, 1.0)), [np.array([3.0, 4.0])])
    np.testing.assert_allclose(tape.gradient(y, x).numpy(), theoretical[0][0], rtol=1e-5)
    np.testing.assert_allclose(theoretical[0], numerical[0], rtol=1e-5, atol=1e-7)
