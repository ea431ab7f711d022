"""`tf.print` output, `tf.debugging.check_numerics`, `tf.Assert` and `tf.debugging.assert_*`.

The printed text is what TensorFlow 2.21 prints for the same call (captured from its stderr).
Assert messages follow TensorFlow's Assert kernel (`assertion failed: [data] [data] ...`, each
tensor summarized by `Tensor::SummarizeValue`), which TensorFlow raises from graphs; eagerly
TensorFlow 2.21 formats a different, Python-side message. tracegraph raises one message in
both modes.
"""

import sys

import numpy as np
import pytest

import tracegraph as tf

from .oracle import expect, raises


@pytest.mark.parametrize("args,kwargs,text", [
    ((tf.constant([1, 2, 3]),), {}, "[1 2 3]"),
    (("x:", tf.constant(5.5), 7, "end"), {}, "x: 5.5 7 end"),
    ((tf.range(10),), {}, "[0 1 2 ... 7 8 9]"),
    ((tf.range(10),), {"summarize": 2}, "[0 1 ... 8 9]"),
    ((tf.range(10),), {"summarize": -1}, "[0 1 2 3 4 5 6 7 8 9]"),
    ((tf.reshape(tf.range(12), [3, 4]),), {}, "[[0 1 2 3]\n [4 5 6 7]\n [8 9 10 11]]"),
    ((tf.reshape(tf.range(100), [10, 10]),), {},
     "[[0 1 2 ... 7 8 9]\n [10 11 12 ... 17 18 19]\n [20 21 22 ... 27 28 29]\n ...\n"
     " [70 71 72 ... 77 78 79]\n [80 81 82 ... 87 88 89]\n [90 91 92 ... 97 98 99]]"),
    ((tf.reshape(tf.range(8), [8, 1]),), {}, "[[0]\n [1]\n [2]\n ...\n [5]\n [6]\n [7]]"),
    ((tf.ones([2, 2, 2], tf.int32),), {}, "[[[1 1]\n  [1 1]]\n\n [[1 1]\n  [1 1]]]"),
    ((tf.ones([2, 1, 2, 1], tf.int32),), {}, "[[[[1]\n   [1]]]\n\n\n [[[1]\n   [1]]]]"),
    ((tf.reshape(tf.range(16), [4, 2, 2]),), {"summarize": 1},
     "[[[0 1]\n  [2 3]]\n\n ...\n\n [[12 13]\n  [14 15]]]"),
    ((tf.constant([1.5, 0.1, 1e-8, 123456789.0, float("nan"), -float("inf")]),), {},
     "[1.5 0.1 1e-08 123456792 nan -inf]"),
    ((tf.constant(0.1, tf.float64), tf.constant(1 / 3), tf.constant(100.0), tf.constant(1e20)),
     {}, "0.1 0.333333343 100 1e+20"),
    ((tf.constant([-0.0, 1e-5, 12345.678]),), {}, "[-0 1e-05 12345.6777]"),
    ((tf.constant([1.0, 2.0], tf.float64), tf.constant([0.5], tf.float16)), {}, "[1 2] [0.5]"),
    ((tf.constant(2**40, tf.int64), tf.constant(200, tf.uint8), tf.constant(-3, tf.int8)), {},
     "1099511627776 200 -3"),
    ((tf.constant(["a", "b"]), tf.constant("c")), {}, '["a" "b"] "c"'),
    ((tf.constant("a{}b"),), {}, "a{}b"),  # a single scalar string prints as it is
    ((tf.constant(["é"]),), {}, '["é"]'),
    ((tf.constant([True, False]),), {}, "[1 0]"),
    ((tf.constant([], tf.int32),), {}, "[]"),
    (({"b": tf.constant(1), "a": [2, tf.constant(3)]},), {}, "{'a': [2, 3], 'b': 1}"),
    (((tf.constant(1),), "s", ["x", 1]), {}, "(1,) s ['x', 1]"),
    ((tf.constant([[1.5, 2.25]]), "{}"), {}, "[[1.5 2.25]] {}"),
    (("{}", tf.constant(1)), {}, "{} 1"),
    ((np.array([1, 2]), 1.5, None, True), {}, "array([1, 2]) 1.5 None True"),
    (([tf.constant(i) for i in range(30)],), {},
     "[" + ",\n ".join(str(i) for i in range(30)) + "]"),  # pprint wraps at 80 columns
    ((tf.constant(1), tf.constant(2)), {"sep": ", ", "end": "!\n"}, "1, 2"),
    (("a", "b"), {"sep": "{}"}, "a{}b"),
    ((), {}, ""),
])
def test_print_to_stderr(capsys, args, kwargs, text):
    assert tf.print(*args, **kwargs) is None
    captured = capsys.readouterr()
    assert captured.err == text + kwargs.get("end", "\n")
    assert captured.out == ""


def test_print_to_stdout_and_to_a_file(capsys, tmp_path):
    tf.print(tf.constant([1, 2]), output_stream=sys.stdout)
    assert capsys.readouterr() == ("[1 2]\n", "")
    path = tmp_path / "log.txt"
    tf.print("x", tf.constant(3), output_stream=f"file://{path}")
    tf.print("y", output_stream=f"file://{path}")
    assert path.read_text() == "x 3\ny\n"
    with raises(ValueError, "Unsupported output stream"):
        tf.print(1, output_stream=42)


@pytest.mark.parametrize("x,what", [
    ([1.0, float("nan")], "NaN"), ([1.0, float("inf")], "Inf"),
    ([float("nan"), -float("inf")], "Inf and NaN"),
])
def test_check_numerics_raises(x, what):
    with raises(tf.errors.InvalidArgumentError, f"bad value : Tensor had {what} values",
                "[Op:CheckNumerics]"):
        tf.debugging.check_numerics(tf.constant(x), "bad value")
    with raises(tf.errors.InvalidArgumentError, f"oops : Tensor had {what} values"):
        tf.debugging.assert_all_finite(tf.constant(x), "oops")


def test_check_numerics_passes_values_through():
    x = np.float64([[1.0, -2.5]])
    expect(tf.debugging.check_numerics(x, "ok"), x)
    expect(tf.debugging.assert_all_finite(np.float32([1.0]), "ok"), np.float32([1.0]))
    with raises(tf.errors.InvalidArgumentError, "attr 'T' of int32", "[Op:CheckNumerics]"):
        tf.debugging.check_numerics(tf.constant([1, 2]), "ints")


def test_assert_passes():
    assert tf.Assert(tf.constant(True), ["never shown"]) is None
    assert tf.debugging.Assert(True, [tf.constant([1])]) is None
    assert tf.Assert(tf.constant([True]), ["a one-element condition is a scalar"]) is None
    assert tf.no_op() is None


@pytest.mark.parametrize("data,summarize,message", [
    (["msg", tf.constant([1, 2])], None, "assertion failed: [msg] [1 2]"),
    (["msg", tf.range(10)], None, "assertion failed: [msg] [0 1 2...]"),
    (["msg", tf.range(10)], 5, "assertion failed: [msg] [0 1 2 3 4...]"),
    (["s", tf.constant([[1.5, 2.0], [3.0, 4.0]])], 2, "assertion failed: [s] [[1.5 2]...]"),
    ([tf.constant([[1, 2, 3, 4, 5]])], None, "assertion failed: [[1 2 3...]...]"),
    ([tf.constant(["a", "b"])], None, "assertion failed: [a b]"),
    ([tf.constant(True), tf.constant(-1)], None, "assertion failed: [1] [-1]"),
    (["x", tf.range(4)], -1, "assertion failed: [x] [0 1 2 3]"),
])
def test_assert_fails_with_the_summarized_data(data, summarize, message):
    with raises(tf.errors.InvalidArgumentError, message, "[Op:Assert]"):
        tf.Assert(tf.constant(False), data, summarize=summarize)


def test_assert_condition_must_be_a_scalar_bool():
    with raises(tf.errors.InvalidArgumentError, "In[0] should be a scalar: [2]"):
        tf.Assert(tf.constant([True, False]), ["x"])
    with raises(tf.errors.InvalidArgumentError, "assertion failed: [x]"):
        tf.Assert(False, ["x"])
    with raises(tf.errors.InvalidArgumentError, "expected to be a bool tensor but is a int32"):
        tf.Assert(tf.constant(1), ["x"])


COMPARISONS = [  # (assert function, symbol, x, y that hold, y that fails)
    (tf.debugging.assert_equal, "==", [1, 2], [1, 2], [1, 3]),
    (tf.debugging.assert_none_equal, "!=", [1, 2], [2, 1], [1, 3]),
    (tf.debugging.assert_less, "<", [1, 2], [2, 3], [2, 2]),
    (tf.debugging.assert_less_equal, "<=", [1, 2], [1, 2], [1, 1]),
    (tf.debugging.assert_greater, ">", [1, 2], [0, 1], [0, 2]),
    (tf.debugging.assert_greater_equal, ">=", [1, 2], [1, 2], [1, 3]),
]


@pytest.mark.parametrize("fn,symbol,x,ok,bad", COMPARISONS)
def test_comparison_asserts(fn, symbol, x, ok, bad):
    assert fn(tf.constant(x), tf.constant(ok)) is None
    assert fn(tf.constant(x), np.int32(ok)) is None
    with raises(tf.errors.InvalidArgumentError, "assertion failed: ",
                f"[Condition x {symbol} y did not hold element-wise:]",
                "[x (shape=(2,) dtype=int32) = ] [1 2]",
                f"[y (shape=(2,) dtype=int32) = ] [{bad[0]} {bad[1]}]"):
        fn(tf.constant(x), tf.constant(bad))


@pytest.mark.parametrize("fn,symbol,ok,bad", [
    (tf.debugging.assert_positive, ">", [1, 2], [1, 0]),
    (tf.debugging.assert_negative, "<", [-1, -2], [-1, 0]),
    (tf.debugging.assert_non_negative, ">=", [0, 2], [-1, 0]),
    (tf.debugging.assert_non_positive, "<=", [0, -2], [-1, 1]),
])
def test_sign_asserts(fn, symbol, ok, bad):
    assert fn(tf.constant(ok)) is None
    with raises(tf.errors.InvalidArgumentError,
                f"[Condition x {symbol} 0 did not hold element-wise:]",
                f"[x (shape=(2,) dtype=int32) = ] [{bad[0]} {bad[1]}]"):
        fn(tf.constant(bad))


def test_assert_messages_summarize_and_broadcasting():
    with raises(tf.errors.InvalidArgumentError, "assertion failed: [custom] [Condition x == y"):
        tf.debugging.assert_equal(tf.constant([1, 2]), tf.constant([1, 3]), message="custom")
    with raises(tf.errors.InvalidArgumentError, "[x (shape=(4,) dtype=float32) = ] [1 2...]",
                "[y (shape=() dtype=float32) = ] [2.5]"):
        tf.debugging.assert_less(tf.constant([1.0, 2.0, 3.0, 4.0]), 2.5, summarize=2)
    assert tf.debugging.assert_equal(tf.constant([2, 2]), 2) is None
    with raises(tf.errors.InvalidArgumentError, "[y (shape=(1,) dtype=string) = ] [b]"):
        tf.debugging.assert_equal(tf.constant(["a"]), tf.constant(["b"]))


def test_assert_rank_and_type():
    assert tf.debugging.assert_rank(tf.constant([1, 2]), 1) is None
    with raises(ValueError, "Tensor  must have rank 2.  Received rank 1, shape (2,)"):
        tf.debugging.assert_rank(tf.constant([1, 2]), 2)
    with raises(ValueError, "m.  Tensor  must have rank 2."):
        tf.debugging.assert_rank(tf.constant([1, 2]), 2, message="m")
    assert tf.debugging.assert_type(tf.constant([1, 2]), tf.int32) is None
    with raises(TypeError, "tensor must be of type tf.float32; got tf.int32"):
        tf.debugging.assert_type(tf.constant([1, 2]), tf.float32)
    with raises(TypeError, "m.  tensor must be of type tf.int64; got tf.float32"):
        tf.debugging.assert_type([1.0], tf.int64, message="m")
