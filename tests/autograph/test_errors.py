"""AutoGraph's staging rules (R-3.3): each error's type, message and the user's line; and
errors a user's try/except cannot swallow (R-3.6)."""

import inspect
import re

import pytest

import tracegraph as tf


def line_of(fn, marker: str) -> int:
    lines, first = inspect.getsourcelines(fn)
    return first + next(i for i, text in enumerate(lines) if marker in text)


def raises_at(error_type, pattern, fn, marker, *args):
    with pytest.raises(error_type) as info:
        tf.function(fn)(*args)
    message = str(info.value)
    assert re.search(pattern, message), message
    assert f"test_errors.py:{line_of(fn, marker)}" in message, message
    return info.value


def test_variable_defined_in_one_branch_only():
    def f(x):
        if x > 0:  # the if
            y = x * 2
        return y

    raises_at(ValueError, "'y' must also be initialized in the else branch", f, "# the if",
              tf.constant(1))


def test_branches_with_different_dtypes():
    def f(x):
        if x > 0:  # the if
            y = tf.constant(1)
        else:
            y = tf.constant(1.0)
        return y

    raises_at(TypeError, "'y' must have the same dtype in both branches.*int32 in the true "
                         "branch and float32", f, "# the if", tf.constant(1))


def test_branches_with_different_structures():
    def f(x):
        if x > 0:  # the if
            y = (x, x)
        else:
            y = x
        return y

    raises_at(ValueError, "same number, type, and overall structure", f, "# the if",
              tf.constant(1))


def test_none_in_one_branch():
    def f(x):
        y = None
        if x > 0:  # the if
            y = x
        return y

    raises_at(ValueError, "'y' is None in one branch", f, "# the if", tf.constant(1))


def test_loop_variable_changes_dtype():
    def f(n):
        x = tf.constant(0)
        i = tf.constant(0)
        while i < n:  # the loop
            x = tf.cast(x, tf.float32) + 1.0
            i += 1
        return x

    raises_at(TypeError, "'x' has dtype int32 before the loop, but dtype float32 after one "
                         "iteration", f, "# the loop", tf.constant(3))


def test_loop_variable_changes_shape():
    def f(n):
        x = tf.constant([1.0])
        i = tf.constant(0)
        while i < n:  # the loop
            x = tf.concat([x, x], 0)
            i += 1
        return x

    raises_at(ValueError, r"'x' has shape \(1,\) before the loop, but shape \(2,\) after one "
                          "iteration.*shape_invariants", f, "# the loop", tf.constant(3))


def test_variable_first_defined_inside_a_tensor_loop():
    def f(n):
        i = tf.constant(0)
        while i < n:  # the loop
            last = i * 2
            i += 1
        return last

    raises_at(ValueError, "'last' must be defined before the loop", f, "# the loop",
              tf.constant(3))


def test_temporaries_inside_loops_and_branches_are_fine():
    @tf.function
    def f(n):
        i = tf.constant(0)
        s = tf.constant(0)
        while i < n:
            tmp = i * 2  # first defined inside, not used after: fine
            s += tmp
            i += 1
        if s > 3:
            other = s  # defined in one branch, not used after: fine
            s = other + 1
        return s

    assert f(tf.constant(3)).numpy() == 7


def test_staging_errors_are_not_swallowed_by_user_try_except():
    def f(x):
        try:
            if x > 0:  # the if
                y = x
            return y
        except Exception:  # a user's handler must not hide the conversion error
            return tf.constant(-1)

    error = raises_at(ValueError, "'y' must also be initialized", f, "# the if", tf.constant(1))
    assert error is not None

    def g(x):
        try:
            if x > 0:  # the if
                y = x
            return y
        except:  # noqa: E722 - a bare except too
            return tf.constant(-1)

    raises_at(ValueError, "'y' must also be initialized", g, "# the if", tf.constant(1))


def test_user_errors_still_reach_user_handlers():
    @tf.function
    def f(x):
        try:
            raise KeyError("mine")
        except KeyError:
            return x + 1

    assert f(tf.constant(1)).numpy() == 2
