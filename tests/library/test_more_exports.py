"""Exports added after the first conformance pass, each checked against NumPy."""

import numpy as np

import tracegraph as tf


def test_top_level_aliases():
    assert tf.truncatediv(tf.constant([-7, 7]), 2).numpy().tolist() == [-3, 3]
    assert tf.truncatemod(tf.constant([-7, 7]), 3).numpy().tolist() == [-1, 1]
    assert tf.saturate_cast(tf.constant([1e10, -1e10]), tf.int16).numpy().tolist() == \
        [32767, -32768]
    assert tf.strided_slice(tf.constant([1, 2, 3, 4]), [1], [4], [2]).numpy().tolist() == [2, 4]


def test_reduce_euclidean_norm():
    x = np.array([[3.0, 4.0], [6.0, 8.0]], np.float32)
    assert tf.math.reduce_euclidean_norm(x).numpy() == np.float32(np.sqrt((x ** 2).sum()))
    np.testing.assert_allclose(tf.math.reduce_euclidean_norm(x, axis=1).numpy(), [5.0, 10.0])


def test_bitwise_and_dtypes_namespaces():
    assert tf.bitwise.bitwise_and(tf.constant(6), 3).numpy() == 2
    assert tf.bitwise.left_shift(tf.constant(1), 4).numpy() == 16
    assert tf.dtypes.cast(tf.constant(1.7), tf.int32).numpy() == 1
    assert tf.dtypes.saturate_cast(tf.constant(300), tf.uint8).numpy() == 255
