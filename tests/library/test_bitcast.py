"""tf.bitcast and XLA's dynamic_update_slice, with TensorFlow 2.21's results."""

import numpy as np
import pytest

import tracegraph as tf
from tracegraph.library.array import dynamic_update_slice


def test_bitcast_same_narrower_wider():
    assert tf.bitcast(tf.constant([1., -2.]), tf.int32).numpy().tolist() == \
        [1065353216, -1073741824]
    assert tf.bitcast(tf.constant([1, 2, 3, 4], tf.int8), tf.int32).numpy() == 67305985
    assert tf.bitcast(tf.constant([1], tf.int32), tf.int8).numpy().tolist() == [[1, 0, 0, 0]]
    got = tf.bitcast(tf.constant(-1., tf.float64), tf.uint32)
    assert got.shape == (2,) and got.numpy().tolist() == [0, 3220176896]
    with pytest.raises(tf.errors.InvalidArgumentError, match="Cannot bitcast from 6 to 3"):
        tf.bitcast(tf.constant([1, 2, 3], tf.int8), tf.int32)


def test_bitcast_in_a_function_has_static_shapes():
    f = tf.function(lambda x: tf.bitcast(x, tf.uint8))
    concrete = f.get_concrete_function(tf.TensorSpec([None, 3], tf.float32))
    assert concrete.structured_outputs.shape == tf.TensorShape([None, 3, 4])
    np.testing.assert_array_equal(f(tf.constant([[1., 2., 3.]])).numpy(),
                                  np.float32([[1., 2., 3.]]).view(np.uint8).reshape(1, 3, 4))


def test_dynamic_update_slice_clamps_starts():
    got = dynamic_update_slice(tf.zeros([3, 4]), tf.ones([2, 2]), [2, 3])
    np.testing.assert_array_equal(got.numpy(), [[0, 0, 0, 0], [0, 0, 1, 1], [0, 0, 1, 1]])
    got = dynamic_update_slice(tf.zeros([4]), tf.ones([2]), tf.constant([-1]))
    np.testing.assert_array_equal(got.numpy(), [1, 1, 0, 0])
