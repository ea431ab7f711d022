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
