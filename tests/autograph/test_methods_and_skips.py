"""AutoGraph and methods: a zero-argument `super()` inside converted control flow (the Keras
notes' repro_sup2: TF prints 4), functions defined inside converted code and decorated with
tf.function, and TensorFlow 2.21's do-not-convert module list."""

from __future__ import annotations

import types

import tracegraph as tf
from tracegraph.autograph.api import _is_user_function


class A:
    def f(self, x):
        return x + 1


class B(A):
    def f(self, x):
        if self.flag:
            x = super().f(x)
        return x


class C(A):
    def f(this, x):  # noqa: N805 - the first argument need not be called self
        for _ in tf.range(2):
            x = super().f(x)
        while x < 10:
            x = super(C, this).f(x)  # noqa: UP008 - explicit form kept as it is
        return x


def test_zero_argument_super_inside_a_converted_if():
    b = B()
    b.flag = True

    @tf.function
    def g(x):
        return b.f(x)
    assert int(g(tf.constant(3))) == 4


def test_zero_argument_super_inside_converted_loops():
    @tf.function
    def g(x):
        return C().f(x)
    assert int(g(tf.constant(3))) == 10


def test_tf_function_defined_inside_a_converted_function():
    v = tf.Variable(5.0)

    @tf.function
    def outer():
        @tf.function
        def a(x):   # reads b and v from the enclosing scopes
            return tf.cond(x > 0., lambda: b(x), lambda: x)

        @tf.function
        def b(x):
            if x > 1:
                x = x * v
            return x
        return a(tf.constant(3.0))
    assert float(outer()) == 15.0


def _function_in_module(module_name: str):
    fn = types.FunctionType((lambda x: x).__code__, {"__name__": module_name})
    fn.__module__ = module_name
    return fn


def test_tensorflow_do_not_convert_modules_are_not_converted():
    for name in ("keras", "keras.src.layers.core", "tf_keras", "pandas.core", "absl.logging",
                 "tensorflow_datasets.core.load", "matplotlib.pyplot", "PIL.Image"):
        assert not _is_user_function(_function_in_module(name)), name
    for name in ("absl.flags", "tensorflow_datasets", "kerasy", "mymodel"):
        assert _is_user_function(_function_in_module(name)), name


def test_lambda_parameters_are_not_reads_of_a_loop_variable():
    # `i` of the lambdas is their own: the loop over `i` before them need not define it first
    # (was a StagingValueError; TensorFlow 2.21 gives 12.0)
    @tf.function
    def f(x):
        for i in tf.range(3):
            x = x * 2.0 + tf.cast(i, tf.float32)
        _, y = tf.while_loop(lambda i, s: i < 1, lambda i, s: (i + 1, s), (0, x))

        def helper(i):
            return i
        return tf.reduce_sum(helper(y))
    assert float(f(tf.constant([1.0]))) == 12.0
