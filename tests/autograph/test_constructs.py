"""AutoGraph: one test per construct, each comparing the graph with the same function run
eagerly (`run_functions_eagerly(True)`) over several inputs, and counting traces."""

import numpy as np
import pytest

import tracegraph as tf


def check(fn, inputs, traces=1):
    """Graph results equal eager results for every input; `traces` traces in all."""
    f = tf.function(fn)
    graph = [f(*args) for args in inputs]
    tf.config.run_functions_eagerly(True)
    try:
        eager = [f(*args) for args in inputs]
    finally:
        tf.config.run_functions_eagerly(False)
    for g, e in zip(graph, eager):
        for a, b in zip(tf.nest.flatten(g), tf.nest.flatten(e)):
            assert np.array_equal(np.asarray(a), np.asarray(b)), (a, b)
    assert f.experimental_get_tracing_count() == traces
    return f, graph


def test_if_elif_else_on_tensors():
    def classify(x):
        if x > 10:
            y = x * 3
        elif x > 0:
            y = x * 2
        else:
            y = -x
        return y

    f, out = check(classify, [(tf.constant(v),) for v in (20, 5, -4, 0)])
    assert [int(o) for o in out] == [60, 10, 4, 0]
    ops = [op.type for op in f.get_concrete_function(tf.constant(1)).graph.get_operations()]
    assert ops.count("StatelessIf") == 1  # the elif is nested in the else branch


def test_python_condition_stays_python():
    def f(x, flag):
        if flag:
            return x + 1
        return x - 1

    g, _ = check(f, [(tf.constant(1), True), (tf.constant(1), False)], traces=2)
    graph = g.get_concrete_function(tf.constant(1), True).graph
    assert not any(op.type.endswith("If") for op in graph.get_operations())


def test_nested_ifs_inside_loops():
    def f(x):
        total = tf.constant(0)
        for row in x:
            for v in row:
                if v > 0:
                    if v % 2 == 0:
                        total += v
                    else:
                        total += 1
        return total

    check(f, [(tf.constant([[1, 2], [3, 4]]),), (tf.constant([[-1, 6], [8, 0]]),)])


def test_while_with_tensor_counter():
    def f(n):
        i = tf.constant(0)
        s = tf.constant(0.0)
        while i < n:
            s += 1.0 / tf.cast((i + 1) * (i + 1), tf.float32)
            i += 1
        return s

    f_, out = check(f, [(tf.constant(v),) for v in (0, 1, 10, 100)])
    ops = [op.type for op in f_.get_concrete_function(tf.constant(1)).graph.get_operations()]
    assert "StatelessWhile" in ops
    assert abs(float(out[-1]) - sum(1 / (k * k) for k in range(1, 101))) < 1e-5


def test_break_and_continue_in_while():
    def f(n):
        i = tf.constant(0)
        s = tf.constant(0)
        while i < n:
            i += 1
            if i % 3 == 0:
                continue
            if s > 20:
                break
            s += i
        return s, i

    check(f, [(tf.constant(v),) for v in (0, 5, 10, 50)])


def test_break_and_continue_in_for_over_range():
    def f(n):
        s = 0
        for i in tf.range(n):
            if i % 2 == 0:
                continue
            if i > 7:
                break
            s += i
        return s

    _, out = check(f, [(tf.constant(v),) for v in (3, 20)])
    assert [int(o) for o in out] == [1, 16]


def test_for_over_tensor_rows():
    def f(x):
        acc = tf.zeros([2])
        for row in x:
            acc = acc + row * 2.0
        return acc

    _, out = check(f, [(tf.constant([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]),)])
    assert out[0].numpy().tolist() == [18.0, 24.0]


def test_early_return():
    def f(x):
        if x > 0:
            return x
        y = x * 2
        return y - 1

    _, out = check(f, [(tf.constant(v),) for v in (3, -3, 0)])
    assert [int(o) for o in out] == [3, -7, -1]


def test_return_inside_a_tensor_loop():
    def find(x, target):
        for i in tf.range(tf.shape(x)[0]):
            if x[i] == target:
                return i
        return -1

    _, out = check(find, [(tf.constant([5, 7, 9]), tf.constant(t)) for t in (5, 9, 4)])
    assert [int(o) for o in out] == [0, 2, -1]


def test_return_inside_a_while_loop():
    def f(n):
        i = tf.constant(0)
        while i < 100:
            if i * i > n:
                return i
            i += 1
        return tf.constant(-1)

    _, out = check(f, [(tf.constant(v),) for v in (10, 50, 20000)])
    assert [int(o) for o in out] == [4, 8, -1]


def test_loop_calls_a_user_function_with_a_tensor_if():
    def helper(v):
        if v > 0:
            return v * 2
        return -v

    def f(x):
        acc = tf.constant(0)
        i = tf.constant(0)
        while i < tf.size(x):
            acc += helper(x[i])
            i += 1
        return acc

    _, out = check(f, [(tf.constant([1, -2, 3]),), (tf.constant([-5]),)], traces=2)
    assert [int(o) for o in out] == [10, 5]


def test_python_for_unrolls():
    def f(x):
        for _ in range(3):
            x = x * 2
        return x

    g, _ = check(f, [(tf.constant(1),)])
    ops = [op.type for op in g.get_concrete_function(tf.constant(1)).graph.get_operations()]
    assert ops.count("Mul") == 3 and "StatelessWhile" not in ops


def test_conditional_expression_and_logic():
    def f(x, y):
        a = x if x > y else y
        b = (x > 0 and y > 0) or not (x < -5)
        return a, b

    check(f, [(tf.constant(a), tf.constant(b)) for a, b in ((1, -1), (-6, -1), (3, 9))])


def test_loop_with_stateful_ops(capsys):
    v = tf.Variable(0)

    def f(n):
        for i in tf.range(n):
            v.assign_add(i)
            tf.print("step", i)
        return v.read_value()

    g = tf.function(f)
    assert g(tf.constant(4)).numpy() == 6
    assert capsys.readouterr().err == "step 0\nstep 1\nstep 2\nstep 3\n"
    assert g(tf.constant(2)).numpy() == 7


def test_print_in_branch_only_when_taken(capsys):
    @tf.function
    def f(x):
        if x > 0:
            tf.print("positive")
        else:
            tf.print("not positive")
        return x

    f(tf.constant(1))
    f(tf.constant(-1))
    assert capsys.readouterr().err == "positive\nnot positive\n"


def test_explicit_cond_and_while_loop_without_autograph():
    @tf.function(autograph=False)
    def f(x, n):
        y = tf.cond(x > 0, lambda: x * 2, lambda: -x)
        i, s = tf.while_loop(lambda i, s: i < n, lambda i, s: (i + 1, s + i), [0, 0])
        (j,) = tf.while_loop(lambda j: j < 100, lambda j: j * 2, [tf.constant(1)],
                             maximum_iterations=3)
        return y, s, j

    y, s, j = f(tf.constant(3), tf.constant(5))
    assert (int(y), int(s), int(j)) == (6, 10, 8)
    assert tf.cond(tf.constant(False), lambda: 1, lambda: 2) == 2  # eager: plain Python


def test_shape_invariants():
    @tf.function
    def f(n):
        x = tf.constant([1.0])
        i = tf.constant(0)
        i, x = tf.while_loop(lambda i, x: i < n, lambda i, x: (i + 1, tf.concat([x, x], 0)),
                             [i, x], shape_invariants=[tf.TensorShape([]),
                                                       tf.TensorShape([None])])
        return x

    assert f(tf.constant(3)).shape == (8,)


def test_to_code_is_readable():
    def simple_relu(x):
        if tf.greater(x, 0):
            return x
        else:
            return 0

    code = tf.autograph.to_code(simple_relu)
    assert code.startswith("def tf__simple_relu(x):")
    assert "ag__.if_stmt(ag__.converted_call(tf.greater, (x, 0), None)" in code
    assert "retval_ = x" in code and "return ag__.retval(retval_)" in code
    compile(code, "<to_code>", "exec")


def test_do_not_convert_and_autograph_false():
    @tf.autograph.experimental.do_not_convert
    def helper(x):
        if x > 0:  # symbolic bool: not allowed without conversion
            return x
        return -x

    @tf.function
    def f(x):
        return helper(x)

    with pytest.raises(TypeError, match="AutoGraph"):
        f(tf.constant(1))
