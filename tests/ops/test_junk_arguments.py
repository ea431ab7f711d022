"""Junk arguments are rejected with TensorFlow 2.21's error type, and the message speaks about
the argument, never NumPy's or Python's internals (issue 14, item 10)."""

import pytest

import tracegraph as tf

INTERNAL = ("invalid literal", "not supported between", "C long", "AxisError", "IndexError",
            "negative dimensions", "unterminated subpattern at position", "string formatting",
            "'float' object")


def _rejects(error, call, match=None):
    with pytest.raises(error, match=match) as info:
        call()
    text = str(info.value)
    assert not any(s in text for s in INTERNAL), text


def test_cond_with_a_none_predicate():
    _rejects(ValueError, lambda: tf.cond(None, lambda: 1, lambda: 2), "None")
    _rejects(ValueError, lambda: tf.function(lambda: tf.cond(None, lambda: 1, lambda: 2))(),
             "None")


@pytest.mark.parametrize("call,error", [
    (lambda: tf.concat([tf.ones([2])], axis="a"), TypeError),
    (lambda: tf.concat([tf.ones([2]), tf.ones([2])], axis=0.5), TypeError),
    (lambda: tf.stack([tf.ones([2])], axis="a"), TypeError),
    (lambda: tf.unstack(tf.ones([1]), axis="a"), TypeError),
    (lambda: tf.squeeze(tf.ones([1]), axis="a"), TypeError),
    (lambda: tf.sort(tf.ones([2]), axis="a"), TypeError),
    (lambda: tf.one_hot([1], 2, axis="a"), TypeError),
    (lambda: tf.nn.softmax(tf.ones([2]), axis="a"), TypeError),
    (lambda: tf.reduce_sum(tf.ones([2]), axis="a"), tf.errors.InvalidArgumentError),
])
def test_a_string_axis(call, error):
    _rejects(error, call)


@pytest.mark.parametrize("value,dtype", [(2**63, None), (-2**63 - 1, None), (2**63, tf.int64),
                                         ([1, 2**64], None)])
def test_constants_beyond_int64(value, dtype):
    _rejects(ValueError, lambda: tf.constant(value, dtype), "out-of-range integer")


def test_constants_that_tensorflow_wraps_or_rounds():
    assert tf.constant(2**32, tf.int32).numpy() == 0
    assert tf.constant(2**63, tf.float32).numpy() == 2.0**63


def test_a_bad_regex():
    _rejects(tf.errors.InvalidArgumentError, lambda: tf.strings.regex_replace("abc", "((", "x"),
             r"Invalid pattern: \(\(, error: missing \)")


def test_eye_sizes():
    _rejects(tf.errors.InvalidArgumentError, lambda: tf.eye(-1), "Dimension -1 must be >= 0")
    _rejects(tf.errors.InvalidArgumentError, lambda: tf.eye(2, -1), "Dimension -1 must be >= 0")
    _rejects(TypeError, lambda: tf.eye(2.5), "must be positive integer values")


def test_categorical_needs_a_matrix():
    _rejects(tf.errors.InvalidArgumentError,
             lambda: tf.random.categorical(tf.constant([1., 2.]), 3),
             r"logits should be a matrix, got shape \[2\]")
    _rejects(ValueError, lambda: tf.function(
        lambda: tf.random.categorical(tf.constant([1., 2.]), 3))(), "logits should be a matrix")


@pytest.mark.parametrize("dims", ["abc", ["a"], [2.5], 3.0])
def test_tensor_shape_of_junk(dims):
    _rejects(TypeError, lambda: tf.TensorShape(dims))


@pytest.mark.parametrize("call", [
    lambda: tf.random.set_seed("a"),
    lambda: tf.random.uniform([2], seed="a"),
    lambda: tf.random.uniform([2], seed=1.5),
])
def test_seeds_of_junk(call):
    _rejects(TypeError, call, "seed")


def test_complex_after_real_values_is_a_mixed_sequence():
    for value in ([1.0, 2j], [1, 2j], [[1.0], [2j]]):
        _rejects(ValueError, lambda v=value: tf.constant(v), "mixed types")
    assert tf.constant([2j, 1.0]).dtype == tf.complex128
