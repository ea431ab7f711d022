"""TensorFlow's tensor protocol and tensor types (values recorded from TF 2.21): `__tf_tensor__`
in every context, auto-packed lists with gradients, TensorShape conversion, tf.is_tensor,
attributes on tensors, resource-variable-like tape sources."""

import numpy as np
import pytest

import tracegraph as tf


class Pair:
    """A user class TF converts through its protocol."""

    def __tf_tensor__(self, dtype=None, name=None):
        return tf.constant([1.0, 2.0], dtype=dtype)


class VariableLike(tf.__internal__.types.Tensor):
    """What Keras's variables are: not a tf.Variable, converted through __tf_tensor__, watched
    by tapes through the resource-variable protocol."""

    _should_act_as_resource_variable = True

    def __init__(self, value):
        self.value = tf.Variable(value)

    @property
    def handle(self):
        return self.value.handle

    def __tf_tensor__(self, dtype=None, name=None):
        return tf.convert_to_tensor(self.value, dtype=dtype, name=name)


def test_protocol_objects_convert_and_feed_ops():
    assert tf.convert_to_tensor(Pair()).numpy().tolist() == [1.0, 2.0]
    assert tf.add(Pair(), 1.0).numpy().tolist() == [2.0, 3.0]
    assert (tf.constant(1.0) + Pair()).numpy().tolist() == [2.0, 3.0]
    assert tf.reduce_sum(Pair()).numpy() == 3.0
    f = tf.function(lambda x: x * 2 + tf.reduce_sum(Pair()))
    assert f(tf.constant(1.0)).numpy() == 5.0


def test_auto_packing_is_differentiable():
    a = tf.constant(2.0)
    with tf.GradientTape() as tape:
        tape.watch(a)
        y = tf.reduce_sum(tf.convert_to_tensor([a * 1.0, a * 3.0, 5.0]))
    assert tape.gradient(y, a).numpy() == 4.0
    assert tf.convert_to_tensor([a, 3.0]).numpy().tolist() == [2.0, 3.0]
    assert tf.convert_to_tensor([[a, a]]).shape == (1, 2)

    @tf.function
    def g(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.reduce_sum(tf.convert_to_tensor([x, x * x]))
        return tape.gradient(y, x)

    assert g(tf.constant(3.0)).numpy() == 7.0


def test_variable_like_objects_are_tensors_and_tape_sources():
    v = VariableLike([1.0, 2.0])
    assert tf.is_tensor(v)
    with tf.GradientTape() as tape:
        y = tf.reduce_sum(tf.multiply(v, v))
    assert tape.gradient(y, v).numpy().tolist() == [2.0, 4.0]
    with tf.GradientTape(watch_accessed_variables=False) as tape:
        tape.watch(v)
        y = tf.reduce_sum(tf.multiply(v, 3.0))
    assert tape.gradient(y, [v])[0].numpy().tolist() == [3.0, 3.0]

    @tf.function
    def step():
        with tf.GradientTape() as tape:
            y = tf.reduce_sum(tf.matmul(tf.reshape(v.value, (1, 2)), tf.ones((2, 1))) * v)
        return tape.gradient(y, v)

    np.testing.assert_allclose(step().numpy(), [6.0, 6.0])


def test_tensor_shape_conversion():
    assert tf.convert_to_tensor(tf.TensorShape([2, 3])).numpy().tolist() == [2, 3]
    assert tf.convert_to_tensor(tf.TensorShape([2, 3])).dtype == tf.int32
    assert tf.convert_to_tensor(tf.TensorShape([2, 3]), tf.int64).dtype == tf.int64
    with pytest.raises(ValueError, match=r"Cannot convert a partially known TensorShape "
                                         r"\(None, 3\) to a Tensor."):
        tf.convert_to_tensor(tf.TensorShape([None, 3]))
    with pytest.raises(TypeError, match="Allowed dtypes are tf.int32 and tf.int64."):
        tf.convert_to_tensor(tf.TensorShape([2, 3]), tf.float32)


def test_tensor_shape_arithmetic():
    assert tf.TensorShape([1, 2]) + (4,) == (1, 2, 4)
    assert (4,) + tf.TensorShape([1]) == (4, 1)
    assert (tf.TensorShape([1, 2]) + tf.TensorShape(None)).rank is None
    with pytest.raises(ValueError, match=r"Shape \(1,\) must have rank at least 2"):
        tf.TensorShape([1]).with_rank_at_least(2)
    assert tf.TensorShape([1, 2]).with_rank_at_least(2) == (1, 2)


def test_is_tensor():
    assert tf.is_tensor(tf.SparseTensor([[0]], [1.0], [2]))
    assert tf.is_tensor(tf.ragged.constant([[1], []]))
    assert tf.is_tensor(tf.Variable(1.0)) and tf.is_tensor(tf.constant(1))
    assert not tf.is_tensor([1]) and not tf.is_tensor(np.ones(2))
    assert isinstance(tf.constant(1.0), tf.__internal__.EagerTensor)
    assert isinstance(tf.SparseTensor([[0]], [1.0], [2]), tf.__internal__.CompositeTensor)


def test_tensors_take_attributes():
    x = tf.constant(1.0)
    x.foo = 3
    assert x.foo == 3

    @tf.function
    def g(x):
        y = x * 2
        y._keras_mask = 1
        assert y._keras_mask == 1 and isinstance(y, tf.__internal__.SymbolicTensor)
        return y

    assert g(tf.constant(1.0)).numpy() == 2.0
    v = tf.Variable(1.0)
    v.note = "any attribute"
    assert v.note == "any attribute"


def test_dimension():
    """tf.compat.v1.Dimension as TF 2.21's: unknown propagates, == may be None."""
    dim, unknown = tf.compat.v1.Dimension(3), tf.compat.v1.Dimension(None)
    assert (repr(dim), str(dim), str(unknown), int(dim)) == ("Dimension(3)", "3", "?", 3)
    assert dim == 3 and (dim == unknown) is None and str(dim + unknown) == "?"
    assert (dim + 2).value == 5 and (dim * tf.compat.v1.Dimension(2)).value == 6
    assert tf.convert_to_tensor(dim).numpy() == 3
    with pytest.raises(ValueError, match=r"Cannot convert unknown Dimension \? to a Tensor."):
        tf.convert_to_tensor(unknown)
    assert dim.merge_with(unknown).value == 3
    with pytest.raises(ValueError, match="Dimensions 3 and 4 are not compatible"):
        dim.merge_with(4)
    with pytest.raises(ValueError, match="Dimension -1 must be >= 0"):
        tf.compat.v1.Dimension(-1)
    assert tf.TensorShape([tf.compat.v1.Dimension(2), None]) == (2, None)
