"""`tf.random`: shapes, dtypes and ranges of the samples, statistics against the distributions,
TensorFlow's seed rules, and the errors TensorFlow 2.21 raises.

The values themselves cannot match TensorFlow's (a different generator); what must match is what
TensorFlow documents: with `tf.random.set_seed` a program's random sequence is reproducible,
successive calls give new values, and an op seed picks a different stream.
"""

import numpy as np
import pytest

import tracegraph as tf

from .oracle import expect, raises


@pytest.fixture(autouse=True)
def _no_global_seed():
    tf.random.set_seed(None)
    yield
    tf.random.set_seed(None)


def _sample(t, dtype, shape):
    assert t.dtype == dtype and tuple(t.shape.as_list()) == shape, (t.dtype, t.shape)
    return t.numpy()


@pytest.mark.parametrize("dtype", [tf.float16, tf.float32, tf.float64])
def test_uniform_floats(dtype):
    x = _sample(tf.random.uniform([200, 50], dtype=dtype, seed=1), dtype, (200, 50))
    assert x.min() >= 0 and x.max() < 1
    assert abs(x.mean() - 0.5) < 0.02
    y = _sample(tf.random.uniform([1000], minval=-2, maxval=3, dtype=dtype, seed=2), dtype,
                (1000,))
    assert y.min() >= -2 and y.max() < 3 and y.min() < -1.5 and y.max() > 2.5


def test_uniform_bounds_as_tensors_and_shapes_as_tensors():
    x = _sample(tf.random.uniform([2], minval=tf.constant([0.0, 10.0]), maxval=11.0, seed=3),
                tf.float32, (2,))
    assert 0 <= x[0] < 11 and 10 <= x[1] < 11
    _sample(tf.random.uniform(tf.constant([2, 3])), tf.float32, (2, 3))
    _sample(tf.random.uniform(tf.TensorShape([4])), tf.float32, (4,))
    _sample(tf.random.uniform(()), tf.float32, ())
    _sample(tf.random.uniform([0, 3]), tf.float32, (0, 3))


@pytest.mark.parametrize("dtype,low,high", [(tf.int32, -3, 4), (tf.int64, 0, 2**40)])
def test_uniform_integers(dtype, low, high):
    x = _sample(tf.random.uniform([5000], minval=low, maxval=high, dtype=dtype, seed=4), dtype,
                (5000,))
    assert x.min() >= low and x.max() < high
    if high - low < 10:
        assert set(np.unique(x)) == set(range(low, high))


@pytest.mark.parametrize("fn", [tf.random.normal, tf.random.truncated_normal])
@pytest.mark.parametrize("dtype", [tf.float32, tf.float64])
def test_normal_moments(fn, dtype):
    x = _sample(fn([20000], mean=2.0, stddev=3.0, dtype=dtype, seed=5), dtype, (20000,))
    assert abs(x.mean() - 2.0) < 0.1
    if fn is tf.random.normal:
        assert abs(x.std() - 3.0) < 0.1
    else:  # resampled beyond two standard deviations: std is 0.88 of the normal's
        assert np.abs(x - 2.0).max() <= 6.0
        assert abs(x.std() - 3.0 * 0.8796) < 0.1


def test_normal_with_tensor_mean():
    x = _sample(tf.random.normal([3, 2], mean=[100.0, -100.0], seed=6), tf.float32, (3, 2))
    assert np.all(x[:, 0] > 90) and np.all(x[:, 1] < -90)


def test_shuffle_permutes_the_first_dimension():
    x = np.arange(20, dtype=np.int32).reshape(10, 2)
    y = _sample(tf.random.shuffle(x, seed=7), tf.int32, (10, 2))
    np.testing.assert_array_equal(np.sort(y[:, 0]), x[:, 0])
    np.testing.assert_array_equal(y[:, 1], y[:, 0] + 1)  # rows stay whole
    expect(tf.random.shuffle(tf.constant(5)), np.int32(5))


def test_categorical():
    logits = np.float32([[0.0, 0.0, -np.inf], [-np.inf, -np.inf, 0.0]])  # log-probabilities
    x = _sample(tf.random.categorical(logits, 1000, seed=8), tf.int64, (2, 1000))
    assert set(np.unique(x[0])) == {0, 1} and set(np.unique(x[1])) == {2}
    assert abs(np.mean(x[0]) - 0.5) < 0.1
    _sample(tf.random.categorical(logits, 3, dtype=tf.int32), tf.int32, (2, 3))


def test_successive_calls_give_new_values():
    tf.random.set_seed(1234)
    a, b = tf.random.uniform([8]).numpy(), tf.random.uniform([8]).numpy()
    assert not np.array_equal(a, b)
    c, d = tf.random.normal([8], seed=1).numpy(), tf.random.normal([8], seed=1).numpy()
    assert not np.array_equal(c, d)


def test_op_seeds_select_different_streams():
    tf.random.set_seed(99)
    a = tf.random.uniform([8], seed=1).numpy()
    b = tf.random.uniform([8], seed=2).numpy()
    assert not np.array_equal(a, b)


def test_without_any_seed_values_differ():
    assert not np.array_equal(tf.random.uniform([8]).numpy(), tf.random.uniform([8]).numpy())


def test_set_seed_makes_the_sequence_reproducible():
    tf.random.set_seed(1234)
    first = [tf.random.uniform([4]).numpy(), tf.random.normal([4]).numpy()]
    tf.random.set_seed(1234)
    again = [tf.random.uniform([4]).numpy(), tf.random.normal([4]).numpy()]
    for x, y in zip(first, again):
        np.testing.assert_array_equal(x, y)


def test_set_seed_restarts_ops_with_an_op_seed():
    tf.random.set_seed(5)
    a1, a2 = tf.random.uniform([2], seed=3).numpy(), tf.random.uniform([2], seed=3).numpy()
    tf.random.set_seed(5)
    b1, b2 = tf.random.uniform([2], seed=3).numpy(), tf.random.uniform([2], seed=3).numpy()
    np.testing.assert_array_equal(a1, b1)
    np.testing.assert_array_equal(a2, b2)


@pytest.mark.parametrize("call,error,message", [
    (lambda: tf.random.uniform([2], dtype=tf.int32), ValueError,
     "Must specify maxval for integer dtype tf.int32"),
    (lambda: tf.random.uniform([2], dtype=tf.string), ValueError,
     "Argument `dtype` got invalid value <dtype: 'string'>. Accepted dtypes are (tf.float16, "
     "tf.bfloat16, tf.float32, tf.float64, tf.int32, tf.int64)."),
    (lambda: tf.random.uniform([2], 5, 1, dtype=tf.int32), tf.errors.InvalidArgumentError,
     "Need minval < maxval, got 5 >= 1"),
    (lambda: tf.random.uniform([-1]), tf.errors.InvalidArgumentError,
     "Dimension -1 must be >= 0"),
    (lambda: tf.random.normal([2], dtype=tf.int32), TypeError,
     "Cannot convert 0.0 to EagerTensor of dtype int32"),
    (lambda: tf.random.uniform((2,), maxval=tf.constant(3)), ValueError,
     "Tensor conversion requested dtype float32 for Tensor with dtype int32"),
])
def test_random_errors(call, error, message):
    with raises(error, message):
        call()
