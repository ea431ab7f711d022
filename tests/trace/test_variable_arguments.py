"""A Variable passed to a tf.function arrives as the same Python object in the trace, as in
TensorFlow 2.21 (issue 26, item 13), while the traced graph still reads whichever Variable a
later call passes. Expected values are TF 2.21's for the same code."""

import gc
import weakref

import tracegraph as tf


def test_the_trace_sees_the_variable_it_was_called_with():
    v, w2 = tf.Variable(1.0), tf.Variable([1.0, 2.0])
    seen = []

    @tf.function
    def f(w, x):
        seen.append(w)
        return w * x

    f(v, tf.constant(1.0))
    f(v, tf.constant([1.0, 2.0]))   # a new trace, the same Variable
    f(w2, tf.constant(1.0))
    assert [s is v for s in seen] == [True, True, False] and seen[-1] is w2


def test_identity_keyed_slots_as_an_optimizer_keeps_them():
    v, u = tf.Variable(1.0), tf.Variable([1.0, 2.0])
    slots = {var.ref(): tf.Variable(tf.zeros(var.shape)) for var in (v, u)}

    @tf.function
    def step(var, g, lr):           # a Python learning rate: a new trace for each value
        slots[var.ref()].assign_add(g)
        var.assign_sub(lr * slots[var.ref()])
        return var.read_value()

    assert step(v, tf.constant(0.5), 1.0).numpy() == 0.5
    assert step(v, tf.constant(0.5), 0.5).numpy() == 0.0
    assert step(u, tf.constant([0.5, 0.5]), 1.0).numpy().tolist() == [0.5, 1.5]
    assert step.experimental_get_tracing_count() == 3


def test_a_trace_reused_for_another_variable_reads_and_writes_that_one():
    v, u = tf.Variable(2.0), tf.Variable(3.0)

    @tf.function
    def f(w, x):
        with tf.GradientTape() as t:
            y = w * w * x
        return t.gradient(y, w)

    assert (f(v, tf.constant(1.0)).numpy(), f(u, tf.constant(1.0)).numpy()) == (4.0, 6.0)
    assert f.experimental_get_tracing_count() == 1

    @tf.function
    def g(a, b):
        a.assign_add(1.0)
        return a.read_value() + b.read_value()

    assert (g(v, v).numpy(), v.numpy()) == (6.0, 3.0)
    assert (g(v, u).numpy(), v.numpy(), u.numpy()) == (7.0, 4.0, 3.0)

    @tf.function
    def k(w):
        with tf.GradientTape() as t:
            y = tf.cond(w > 2.5, lambda: w * 2.0, lambda: w * w)
        return t.gradient(y, w)

    assert (k(v).numpy(), k(tf.Variable(1.0)).numpy()) == (2.0, 2.0)


def test_the_trace_does_not_keep_the_variable_alive():
    f = tf.function(lambda w: w + 1.0)
    v = tf.Variable(1.0)
    assert f(v).numpy() == 2.0
    ref = weakref.ref(v)
    del v
    gc.collect()
    assert ref() is None
    assert f(tf.Variable(5.0)).numpy() == 6.0


def test_a_tape_in_a_trace_sees_variables_through_cond_inputs():
    # the If op's inputs are graph edges carrying the Variable's handle (captured or passed):
    # the tape records the op when such an edge stands for a watched Variable (TF: [-2.])
    x = tf.Variable([0.5])

    @tf.function
    def f():
        with tf.GradientTape() as t:
            y = tf.cond(x[0] > 1.0, lambda: -x + tf.sqrt(x), lambda: -x * 2.0)
        return t.gradient(y, x)

    assert f().numpy().tolist() == [-2.0]
