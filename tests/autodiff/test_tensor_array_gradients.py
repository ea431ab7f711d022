"""Gradients through tf.TensorArray (the TensorList records' rules, rules/tensor_list.py):
write/read/stack/unstack/scatter/gather/split/concat, inside and outside while loops, eagerly
and inside tf.function, each checked against central finite differences in float64 (the
values printed by TensorFlow 2.21 for the same programs agree; see the keras notes' repro)."""

from __future__ import annotations

import numpy as np
import pytest

import tracegraph as tf

W0 = np.array([[0.5, -1.0], [2.0, 0.3]])
X = np.arange(6.0).reshape(3, 2) / 4


def _write_stack(w, x):
    ta = tf.TensorArray(tf.float64, size=3)
    for i in range(3):
        ta = ta.write(i, tf.sin(x[i] * w[0]))
    return tf.reduce_sum(ta.stack() * [[1.], [2.], [3.]])


def _unstack_read(w, x):
    ta = tf.TensorArray(tf.float64, size=3).unstack(x * w[1])
    return tf.reduce_sum(ta.read(0) * ta.read(2) + ta.read(1))


def _scatter_gather(w, x):
    ta = tf.TensorArray(tf.float64, size=4).scatter([3, 0, 1], x * w[0])
    return tf.reduce_sum(ta.gather([1, 3]) ** 2) + tf.reduce_sum(ta.read(0))


def _split_concat(w, x):
    ta = tf.TensorArray(tf.float64, size=2, infer_shape=False).split(
        tf.reshape(x, [-1]) * w[1, 0], [2, 4])
    c = ta.concat()
    return tf.reduce_sum(c * tf.range(6, dtype=tf.float64)) + tf.reduce_sum(ta.read(1) ** 2)


def _read_then_stack(w, x):   # eagerly a read clears the element: stack sees zeros there
    ta = tf.TensorArray(tf.float64, size=2).write(0, w[0] * x[0]).write(1, 2.0 * w[1])
    a = ta.read(0)
    return tf.reduce_sum(a) + tf.reduce_sum(ta.stack() ** 2)


def _loop(w, x):   # an RNN: inputs read from one array, states written to another
    ta = tf.TensorArray(tf.float64, size=3)
    xs = tf.TensorArray(tf.float64, size=3).unstack(x)

    def body(i, h, ta):
        h = tf.tanh(tf.linalg.matvec(w, h) + xs.read(i))
        return i + 1, h, ta.write(i, h)
    _, h, ta = tf.while_loop(lambda i, h, ta: i < 3, body, (0, tf.ones([2], tf.float64), ta))
    return tf.reduce_sum(ta.stack() * tf.constant([[1.], [2.], [3.]], tf.float64)) + \
        tf.reduce_sum(h)


def _loop_dynamic(w, x):   # a growing array (resize in the write's gradient)
    ta = tf.TensorArray(tf.float64, size=0, dynamic_size=True)

    def body(i, ta):
        return i + 1, ta.write(i, w[0] * tf.cast(i + 1, tf.float64))
    _, ta = tf.while_loop(lambda i, ta: i < 3, body, (0, ta))
    return tf.reduce_sum(ta.stack() ** 2)


def _loop_read_write(w, x):   # each iteration reads what the previous one wrote
    ta = tf.TensorArray(tf.float64, size=4, clear_after_read=False).write(0, w[0])

    def body(i, ta):
        return i + 1, ta.write(i + 1, tf.sin(ta.read(i)) * w[1])
    _, ta = tf.while_loop(lambda i, ta: i < 3, body, (0, ta))
    return tf.reduce_sum(ta.stack())


PROGRAMS = {f.__name__[1:]: f for f in (_write_stack, _unstack_read, _scatter_gather,
                                         _split_concat, _read_then_stack, _loop,
                                         _loop_dynamic, _loop_read_write)}
# TensorFlow 2.21's gradients of these programs (eager and tf.function agree), rounded
TF_221 = {
    "write_stack": [[3.6016601074, 2.5222202677], [0.0, 0.0]],
    "unstack_read": [[0.0, 0.0], [0.5, 0.9375]],
    "scatter_gather": [[1.5, -2.5], [0.0, 0.0]],
    "split_concat": [[0.0, 0.0], [27.25, 0.0]],
    "loop": [[-1.1094291745, 11.3500583292], [-2.7212753153, 0.5926189302]],
    "loop_dynamic": [[14.0, -28.0], [0.0, 0.0]],
    "loop_read_write": [[4.5046432422, 1.2232628483], [2.6652294789, -1.5583870575]],
}


def _numerical(program, mode):
    """Central differences of the program run the same way (eagerly a read clears the element,
    in a graph it does not, as in TensorFlow)."""
    if mode != "eager":
        program = tf.function(program)
    x = tf.constant(X)
    out = np.zeros_like(W0)
    eps = 1e-6
    for idx in np.ndindex(*W0.shape):
        step = np.zeros_like(W0)
        step[idx] = eps
        hi = program(tf.constant(W0 + step), x).numpy()
        lo = program(tf.constant(W0 - step), x).numpy()
        out[idx] = (hi - lo) / (2 * eps)
    return out


def _gradient(program, w):
    with tf.GradientTape() as tape:
        y = program(w, tf.constant(X))
    return tape.gradient(y, w)


@pytest.mark.parametrize("mode", ["eager", "function", "tape_outside"])
@pytest.mark.parametrize("name", list(PROGRAMS))
def test_tensor_array_gradient_matches_finite_differences(name, mode):
    # tape_outside: an eager tape around a tf.function (its loops run again in the backward
    # function, stacking each iteration's list; was a TypeError from ExpandDims of a variant)
    program = PROGRAMS[name]
    w = tf.Variable(W0)
    run = {"eager": lambda: _gradient(program, w),
           "function": tf.function(lambda: _gradient(program, w)),
           "tape_outside": lambda: _gradient(tf.function(program), w)}[mode]
    got = run()
    assert got is not None, "no gradient reached the Variable"
    np.testing.assert_allclose(got.numpy(), _numerical(program, mode), rtol=1e-6, atol=1e-8)
    if name in TF_221:   # TF 2.21's eager and graph results agree for these
        np.testing.assert_allclose(got.numpy(), TF_221[name], rtol=1e-9, atol=1e-9)


def test_keras_repro_write_stack_and_variable_read_in_loop_body():
    """The Keras notes' repro (repro_wl4.py): TF 2.21 prints 0.705764 and 3.0 (was None)."""
    w = tf.Variable([[0.5]])
    xs = tf.constant([[[1.], [0.5]], [[2.], [0.1]], [[3.], [0.2]]])

    def run(wt):
        def body(i, h):
            return i + 1, tf.tanh(tf.matmul(h, wt) + xs[i])
        _, h = tf.while_loop(lambda i, h: i < 3, body, (tf.constant(0), tf.ones([2, 1])))
        return tf.reduce_sum(h)

    @tf.function
    def g_var():
        with tf.GradientTape() as t:
            s = run(w)
        return t.gradient(s, w)

    @tf.function
    def g_ta():
        with tf.GradientTape() as t:
            wt = w * 1.0
            ta = tf.TensorArray(tf.float32, size=2).write(0, wt).write(1, wt * 2.0)
            s = tf.reduce_sum(ta.stack())
        return t.gradient(s, w)

    np.testing.assert_allclose(g_var().numpy(), [[0.705764]], rtol=1e-5)
    np.testing.assert_allclose(g_ta().numpy(), [[3.0]])
    with tf.GradientTape() as t:
        ta = tf.TensorArray(tf.float32, size=2).write(0, w * 1.0).write(1, w * 2.0)
        s = tf.reduce_sum(ta.stack())
    np.testing.assert_allclose(t.gradient(s, w).numpy(), [[3.0]])


def test_an_eager_read_clears_the_element_for_later_reads():
    """TF's eager TensorArray: after a read (clear_after_read), the element stacks as zeros,
    reading it again raises, writing it again is allowed."""
    ta = tf.TensorArray(tf.float32, size=2).write(0, 1.0).write(1, 2.0)
    assert float(ta.read(0)) == 1.0
    np.testing.assert_array_equal(ta.stack().numpy(), [0.0, 2.0])
    with pytest.raises(tf.errors.InvalidArgumentError, match="twice"):
        ta.read(0)
    ta = ta.write(0, 5.0)
    assert float(ta.read(0)) == 5.0


def test_gradients_of_one_list_from_several_uses_add_up():
    """AddN and ZerosLike take lists (TensorFlow's variant kernels): element by element,
    unwritten elements count as zeros."""
    from tracegraph.ops.array import zeros_like_op
    from tracegraph.ops.math import add_n_op
    a = tf.TensorArray(tf.float32, size=3).write(0, [1.0, 2.0]).write(2, [3.0, 4.0]).flow
    b = tf.TensorArray(tf.float32, size=3).write(1, [1.0, 1.0]).write(2, [1.0, 1.0]).flow
    total = tf.TensorArray(tf.float32, flow=add_n_op([a, b])).stack()
    np.testing.assert_array_equal(total.numpy(), [[1, 2], [1, 1], [4, 5]])
    zeros = zeros_like_op(a)
    assert zeros.items[1] is None and not zeros.items[0].any()
    short = tf.TensorArray(tf.float32, size=1).write(0, [1.0, 1.0]).flow
    with pytest.raises(tf.errors.InvalidArgumentError, match="different lengths"):
        add_n_op([a, short])
