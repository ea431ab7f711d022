"""tracegraph.testing: trace-count assertions."""

import pytest

import tracegraph as tf
from tracegraph.testing import RetraceError, expect_traces, no_retrace


def test_expect_traces_counts_and_explains():
    @tf.function
    def f(x, n):
        return x * n

    with expect_traces(f, 2):
        f(tf.constant(1.0), 2)
        f(tf.constant(2.0), 2)
        f(tf.constant([1.0]), 2)
    with no_retrace(f):
        f(tf.constant(5.0), 2)
    with pytest.raises(RetraceError, match=r"traced 1 times, expected 0\. Last retrace: "
                                           r"argument 'n' changed from 2 to 3"):
        with no_retrace(f):
            f(tf.constant(5.0), 3)


def test_expect_traces_needs_a_function():
    with pytest.raises(TypeError):
        with expect_traces(lambda x: x, 1):
            pass


def test_retrace_error_lists_traces_with_the_shapes_and_dtypes_that_differ():
    # issue 26, item 22: was "Cached signatures: ['train_step(b)', 'train_step(b)']"
    @tf.function
    def train_step(b, lr):
        return b * lr

    train_step(tf.constant([1.0, 2.0]), 0.1)
    with pytest.raises(RetraceError) as info:
        with no_retrace(train_step):
            train_step(tf.constant([1.0, 2.0, 3.0]), 0.1)
            train_step(tf.constant([[1.0]], tf.float64), 0.1)
    text = str(info.value)
    assert "traced 2 times, expected 0" in text
    assert ("train_step(b: float32 Tensor, shape=(2,), lr=0.1); "
            "train_step(b: float32 Tensor, shape=(3,), lr=0.1); "
            "train_step(b: float64 Tensor, shape=(1, 1), lr=0.1)") in text
