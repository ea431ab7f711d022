"""Test helpers TensorFlow lacks: assert how many times a tf.function traces.

    with tracegraph.testing.expect_traces(step, 1):
        for batch in data:
            step(batch)

    with tracegraph.testing.no_retrace(step):   # fails on the first new trace
        step(x)
"""

from __future__ import annotations

import contextlib

from .trace.function import Function

__all__ = ["expect_traces", "no_retrace"]


class RetraceError(AssertionError):
    """A tf.function traced more (or less) than the test expected."""


@contextlib.contextmanager
def expect_traces(function: Function, count: int):
    """Asserts that `function` traces exactly `count` times inside the block."""
    if not isinstance(function, Function):
        raise TypeError(f"expect_traces needs a tf.function, got {function!r}")
    before = function.experimental_get_tracing_count()
    yield
    traced = function.experimental_get_tracing_count() - before
    if traced != count:
        why = ""
        if traced > count and function.call_table.detector.last_change:
            why = " Last retrace: " + "; ".join(function.call_table.detector.last_change) + "."
        raise RetraceError(f"{function.python_function.__name__} traced {traced} times, "
                           f"expected {count}.{why} Cached signatures: "
                           f"{function.cached_signatures()}")


def no_retrace(function: Function):
    """Asserts that `function` does not trace inside the block."""
    return expect_traces(function, 0)
