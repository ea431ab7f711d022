"""Deferred restoration (formats/checkpoint/deferred_restore.py): values whose objects do not
exist when `restore` runs are restored when they are assigned along the saved path, as the
checkpoint guide's "delayed restoration" shows (the values printed here are TensorFlow 2.21's).
"""

import numpy as np
import pytest

import tracegraph as tf


def saved(tmp_path):
    net = tf.Module()
    net.l1 = tf.Module()
    net.l1.kernel = tf.Variable([[1.0, 2.0, 3.0, 4.0, 5.0]])
    net.l1.bias = tf.Variable([0.5] * 5)
    return tf.train.Checkpoint(step=tf.Variable(1), net=net).save(str(tmp_path / "ckpt"))


def test_the_guides_delayed_restoration(tmp_path):
    path = saved(tmp_path)
    to_restore = tf.Variable(tf.zeros([5]))
    fake_layer = tf.train.Checkpoint(bias=to_restore)
    new_root = tf.train.Checkpoint(net=tf.train.Checkpoint(l1=fake_layer))
    new_root.restore(path)
    np.testing.assert_array_equal(to_restore.numpy(), [0.5] * 5)
    delayed = tf.Variable(tf.zeros([1, 5]))
    np.testing.assert_array_equal(delayed.numpy(), np.zeros([1, 5]))   # not yet
    fake_layer.kernel = delayed
    np.testing.assert_array_equal(delayed.numpy(), [[1, 2, 3, 4, 5]])  # restored


def test_a_sub_object_assigned_later_restores_now_and_waits_for_the_rest(tmp_path):
    path = saved(tmp_path)
    later = tf.train.Checkpoint(net=tf.Module())
    later.restore(path)
    layer = tf.Module()
    layer.kernel = tf.Variable(tf.zeros([1, 5]))
    later.net.l1 = layer                       # a Module attribute: its kernel now
    np.testing.assert_array_equal(layer.kernel.numpy(), [[1, 2, 3, 4, 5]])
    layer.bias = tf.Variable(tf.zeros([5]))    # its bias when it appears
    np.testing.assert_array_equal(layer.bias.numpy(), [0.5] * 5)
    other = tf.Variable(tf.zeros([5]))
    layer.bias = other                         # restored once: a second assignment keeps its value
    np.testing.assert_array_equal(other.numpy(), np.zeros(5))


def test_a_delayed_value_of_the_wrong_shape_is_a_value_error(tmp_path):
    path = saved(tmp_path)
    layer = tf.train.Checkpoint()
    tf.train.Checkpoint(net=tf.train.Checkpoint(l1=layer)).restore(path)
    with pytest.raises(ValueError, match="incompatible tensor with shape"):
        layer.kernel = tf.Variable(tf.zeros([2, 2]))
