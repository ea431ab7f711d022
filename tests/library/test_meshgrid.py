"""tf.meshgrid against NumPy's and TensorFlow 2.21's values (issue 14, item 14)."""

import numpy as np

import tracegraph as tf


def test_meshgrid():
    x, y = tf.meshgrid([1, 2, 3], [4, 5])
    assert x.numpy().tolist() == [[1, 2, 3], [1, 2, 3]]
    assert y.numpy().tolist() == [[4, 4, 4], [5, 5, 5]]
    a, b = tf.meshgrid(tf.constant([1., 2.]), tf.constant([3., 4., 5.]), indexing="ij")
    want_a, want_b = np.meshgrid([1., 2.], [3., 4., 5.], indexing="ij")
    np.testing.assert_array_equal(a.numpy(), want_a)
    np.testing.assert_array_equal(b.numpy(), want_b)
    three = tf.meshgrid([1, 2], [3, 4, 5], [6, 7, 8, 9])
    for got, want in zip(three, np.meshgrid([1, 2], [3, 4, 5], [6, 7, 8, 9])):
        np.testing.assert_array_equal(got.numpy(), want)
    assert tf.meshgrid() == [] and tf.meshgrid([1, 2])[0].numpy().tolist() == [1, 2]
    g = tf.function(lambda u, v: tf.meshgrid(u, v))
    gx, _ = g(tf.constant([1, 2, 3]), tf.constant([4, 5]))
    assert gx.numpy().tolist() == [[1, 2, 3], [1, 2, 3]]
