"""`break`, `continue` and `return` in loops, at every position of the body (issue 14, items
1-2): the graph gives the eager result; a jump in a Python loop that depends on a tensor raises
TensorFlow's NotImplementedError instead of returning a wrong value."""

import numpy as np
import pytest

import tracegraph as tf

from .test_constructs import check


def _inputs():
    return [(tf.constant(v),) for v in (-3, 0, 1, 5)]


def test_break_as_last_statement_of_a_for_over_range():
    def f(x):
        for j in tf.range(4):
            x = x + 1
            if j >= 2:
                break
        return x

    _, out = check(f, [(tf.constant(0),)])
    assert int(out[0]) == 3  # TensorFlow 2.21: 3 (the break flag used to be dropped: 4)


def test_break_as_last_statement_of_a_for_over_a_tensor():
    def f(x):
        for j in tf.constant([0, 1, 2, 3]):
            x = x + 1
            if j >= 2:
                break
        return x

    _, out = check(f, [(tf.constant(0),)])
    assert int(out[0]) == 3


def test_break_last_in_nested_ifs_and_else_clause():
    def f(x):
        y = tf.constant(0)
        for j in tf.range(6):
            x = x + j
            if x > 2:
                if j % 2 == 0:
                    break
                else:
                    y = y + 1
        else:
            y = y + 100
        return x, y

    check(f, _inputs())


def test_continue_as_last_statement_is_harmless_and_in_the_middle_skips():
    def f(x):
        for j in tf.range(5):
            x = x + 1
            if j % 2 == 0:
                continue
            x = x * 2
            if x > 100:
                continue
        return x

    check(f, _inputs())


def test_return_as_last_statement_of_a_for_over_range():
    def f(x):
        for j in tf.range(4):
            x = x + 1
            if j >= 2:
                return x * 10
        return x

    _, out = check(f, [(tf.constant(0),)])
    assert int(out[0]) == 30


def test_break_last_in_an_inner_loop_stops_only_that_loop():
    def f(x):
        for i in tf.range(3):
            for j in tf.range(4):
                x = x + 1
                if j >= i:
                    break
        return x

    _, out = check(f, [(tf.constant(0),)])
    assert int(out[0]) == 6


def test_tensor_break_in_a_python_for_raises_not_implemented():
    def f(x):
        for _ in range(4):
            x = x + 1
            if x >= 2:
                break
        return x

    assert int(f(tf.constant(0))) == 2  # eager: plain Python
    with pytest.raises(NotImplementedError, match="Python `for` loop depends on a tensor"):
        tf.function(f)(tf.constant(0))


def test_tensor_break_in_the_last_iteration_of_a_python_for_raises_too():
    def f(x):
        for _ in range(1):
            x = x + 1
            if x >= 2:
                break
        return x

    with pytest.raises(NotImplementedError):
        tf.function(f)(tf.constant(0))


def test_tensor_return_in_a_python_for_raises_not_implemented():
    def f(x):
        for _ in range(4):
            x = x + 1
            if x >= 2:
                return x * 10
        return x

    with pytest.raises(NotImplementedError):
        tf.function(f)(tf.constant(0))


def test_tensor_break_in_a_python_while_raises_not_implemented():
    def f(x):
        i = 0
        while i < 4:
            i += 1
            x = x + 1
            if x >= 2:
                break
        return x

    with pytest.raises(NotImplementedError, match="started as a Python value"):
        tf.function(f)(tf.constant(0))


def test_tensor_continue_in_a_python_for_is_staged():
    def f(x):
        for _ in range(4):
            x = x + 1
            if x >= 2:
                continue
            x = x + 10
        return x

    _, out = check(f, [(tf.constant(0),)])
    assert int(out[0]) == 14  # TensorFlow 2.21: 14


def test_python_break_in_a_python_for_stays_python():
    def f(x):
        for i in range(5):
            x = x + i
            if i == 2:
                break
        return x

    _, out = check(f, [(tf.constant(0),)])
    assert int(out[0]) == 3


def test_loops_inside_a_tensor_if_are_staged():
    def f(x, n):
        if x > 3:
            for _ in tf.range(n):
                x = x + 1
        else:
            while x < 10:
                x = x + 4
        return x

    _, out = check(f, [(tf.constant(v), tf.constant(3)) for v in (5, 1)])
    assert [int(o) for o in out] == [8, 13]  # TensorFlow 2.21: 8, 13


def test_loop_after_a_conditional_return_is_staged():
    def f(x, n):
        if x > 3:
            return x + 100
        for _ in tf.range(n):
            x = x + 1
        return x

    _, out = check(f, [(tf.constant(v), tf.constant(3)) for v in (0, 5)])
    assert [int(o) for o in out] == [3, 105]


def test_return_after_a_break_in_a_loop_over_an_empty_tensor():
    def f(x, xs):
        for _ in xs:
            break
            return x + 100  # noqa: B012 - unreachable on purpose
        return x

    check(f, [(tf.constant(1), tf.constant(np.zeros([0], np.int32)))])


def test_return_of_a_value_with_unknown_dims_inside_a_tensor_loop():
    def f(x, n):
        ta = tf.TensorArray(tf.int32, size=0, dynamic_size=True)
        for _ in tf.range(n):
            if x > 2:
                return x + 100, ta.stack(), tf.range(x)
            x = x + 1
            ta = ta.write(ta.size(), x)
        return x, ta.stack(), tf.range(x)

    _, out = check(f, [(tf.constant(0), tf.constant(5)), (tf.constant(0), tf.constant(2))])
    assert int(out[0][0]) == 103 and out[0][1].numpy().tolist() == [1, 2, 3]
    assert out[0][2].numpy().tolist() == [0, 1, 2]
    assert int(out[1][0]) == 2 and out[1][1].numpy().tolist() == [1, 2]


def test_return_reached_only_when_a_python_counter_is_a_loop_variable():
    def f(x, n):
        i0 = 0
        while i0 < n:
            i0 = i0 + 1
            if x % 2 == 0:
                if i0 % 2 == 1:  # a tensor in the loop, although i0 starts as a Python int
                    continue
                return x + i0 + 100
            else:
                x = x * 2
        return x

    _, out = check(f, [(tf.constant(3), tf.constant(2)), (tf.constant(3), tf.constant(1))])
    assert [int(o) for o in out] == [108, 6]
