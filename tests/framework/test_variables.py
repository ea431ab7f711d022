"""SPEC R-1.8: tf.Variable."""

import numpy as np
import pytest

import tracegraph as tf


def test_variable_basics():
    v = tf.Variable([1.0, 2.0], name="v")
    assert v.name == "v:0" and v.trainable and v.dtype is tf.float32 and v.shape == (2,)
    assert repr(v) == ("<tf.Variable 'v:0' shape=(2,) dtype=float32, "
                       "numpy=array([1., 2.], dtype=float32)>")
    assert tf.Variable(1.0).name == "Variable:0"
    assert not tf.Variable(1.0, trainable=False).trainable


def test_assign_family():
    v = tf.Variable(1.0)
    written = v.assign(3.0)  # TensorFlow's UnreadVariable: same storage, not the Variable
    assert written is not v and written.handle is v.handle and v.numpy() == 3.0
    v.assign_add(2.0)
    v.assign_sub(0.5)
    assert v.numpy() == 4.5 and v.read_value().numpy() == 4.5 and v.value().numpy() == 4.5


def test_reads_are_snapshots():
    v = tf.Variable([1, 2])
    before = v.read_value()
    v.assign_add([1, 1])
    assert before.numpy().tolist() == [1, 2] and v.numpy().tolist() == [2, 3]


def test_usable_wherever_a_tensor_is():
    v = tf.Variable([[1.0, 2.0]])
    assert (v + 1).numpy().tolist() == [[2.0, 3.0]]
    assert (2 * v).numpy().tolist() == [[2.0, 4.0]]
    assert tf.matmul(v, tf.constant([[1.0], [1.0]])).numpy().tolist() == [[3.0]]
    assert tf.reduce_sum(v).numpy() == 3.0 and v[0, 1].numpy() == 2.0
    assert np.asarray(v).tolist() == [[1.0, 2.0]] and (v > 1).numpy().tolist() == [[False, True]]
    assert float(tf.Variable(2.5)) == 2.5


def test_assign_wrong_shape_is_value_error():
    v = tf.Variable(1.0)
    with pytest.raises(ValueError, match=r"Shape mismatch.*shape \(\), and the assigned value "
                                         r"shape \(2,\)"):
        v.assign([1.0, 2.0])
    assert v.numpy() == 1.0


def test_assign_wrong_dtype():
    v = tf.Variable(1.0)
    with pytest.raises(ValueError, match="requested dtype float32 for Tensor with dtype int32"):
        v.assign(tf.constant(1))
    w = tf.Variable(1)
    with pytest.raises(TypeError, match="Cannot convert 1.5 to EagerTensor of dtype int32"):
        w.assign(1.5)
    assert v.numpy() == 1.0 and w.numpy() == 1


def test_initial_value_forms():
    assert tf.Variable(lambda: tf.ones([2])).numpy().tolist() == [1.0, 1.0]
    assert tf.Variable(np.zeros(3)).dtype is tf.float64
    assert tf.Variable(1, dtype=tf.float32).dtype is tf.float32
    with pytest.raises(ValueError):
        tf.Variable(None)
    with pytest.raises(ValueError, match="not compatible"):
        tf.Variable([1.0, 2.0], shape=[3])


def test_numpy_conversion_of_a_variable_is_a_copy():
    # np.array(v) and np.asarray(v) must not share the Variable's buffer (TF reads a value first):
    # writing into the array used to write the Variable.
    v = tf.Variable([1.0, 2.0])
    for convert in (np.array, np.asarray, lambda x: x.numpy()):
        a = convert(v)
        a[0] = 100.0
        np.testing.assert_array_equal(v.numpy(), [1.0, 2.0])
    assert np.array(v, dtype=np.float64).dtype == np.float64


def test_a_variable_keeps_its_constraint_as_tensorflow():
    def non_negative(v):
        return tf.maximum(v, 0.0)

    v = tf.Variable([1.0, -1.0], constraint=non_negative)
    assert v.constraint is non_negative
    assert tf.Variable(1.0).constraint is None
    with pytest.raises(ValueError, match="must be a callable"):
        tf.Variable(1.0, constraint=3)
