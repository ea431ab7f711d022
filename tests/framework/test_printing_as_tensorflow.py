"""Issue 24, family 9: what TensorFlow 2.21 prints for f"{tensor}", unknown-rank graph tensors,
the class of tf.Variable(...), and tf.config.list_logical_devices()."""

from __future__ import annotations

import numpy as np
import pytest

import tracegraph as tf


def test_format_of_an_eager_tensor_is_its_numpy_text():
    assert f"{tf.constant([1, 2])}" == "[1 2]"
    assert f"{tf.constant(3.5)}" == "3.5"
    assert f"{tf.constant([[1.5, 2], [3, 4]])}" == "[[1.5 2. ]\n [3.  4. ]]"
    assert f"{tf.constant('ab')}" == "b'ab'"
    assert f"{tf.constant(3.14159):.2f}" == "3.14"
    with pytest.raises(TypeError):
        f"{tf.constant([1.0, 2.0]):.2f}"  # noqa: B018 - NumPy (and TF) refuse it


def test_unknown_rank_graph_tensors_print_without_a_shape():
    seen = []

    @tf.function(input_signature=[tf.TensorSpec(None, tf.float32),
                                  tf.TensorSpec([None, 2], tf.float32)])
    def f(x, y):
        seen.extend([str(x), repr(x), f"{x}", str(y)])
        return x
    f.get_concrete_function()
    assert seen == ['Tensor("x:0", dtype=float32)', "<tf.Tensor 'x:0' shape=<unknown> "
                    "dtype=float32>", 'Tensor("x:0", dtype=float32)',
                    'Tensor("y:0", shape=(None, 2), dtype=float32)']


def test_a_variable_is_a_resource_variable():
    v = tf.Variable(1.0)
    assert type(v).__name__ == "ResourceVariable"
    assert isinstance(v, tf.Variable)
    assert np.asarray(v) == 1.0


def test_logical_devices():
    devices = tf.config.list_logical_devices()
    assert devices == [tf.config.LogicalDevice(name="/device:CPU:0", device_type="CPU")]
    assert repr(devices[0]) == "LogicalDevice(name='/device:CPU:0', device_type='CPU')"
    assert tf.config.list_logical_devices("GPU") == []
    assert tf.config.list_physical_devices("CPU")[0].name == "/physical_device:CPU:0"
