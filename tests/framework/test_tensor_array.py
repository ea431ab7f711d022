"""`tf.TensorArray` eagerly and in graphs (issue 14, item 14). Expected values are TensorFlow
2.21's printouts of the same code; graph results are also compared with eager runs."""

import numpy as np
import pytest

import tracegraph as tf


def _eq(t, expected, dtype=None):
    value = t.numpy()
    assert value.tolist() == np.asarray(expected).tolist()
    if dtype is not None:
        assert t.dtype == dtype


# ---- eager ---------------------------------------------------------------------------------------

def test_eager_write_read_stack_and_in_place_update():
    ta = tf.TensorArray(tf.float32, size=3)
    assert int(ta.size()) == 3 and ta.dtype == tf.float32 and not ta.dynamic_size
    assert ta.element_shape.rank is None
    ta.write(0, [1., 2.])  # eagerly the array itself changes, as in TensorFlow
    assert ta.element_shape.as_list() == [2]
    ta = ta.write(1, [3., 4.])
    _eq(ta.stack(), [[1., 2.], [3., 4.], [0., 0.]], tf.float32)
    _eq(ta.gather([1, 0]), [[3., 4.], [1., 2.]])
    _eq(ta.concat(), [1., 2., 3., 4., 0., 0.])


def test_eager_reads_clear_by_default_as_in_tensorflow():
    ta = tf.TensorArray(tf.float32, size=2).write(0, [1., 2.])
    _eq(ta.read(0), [1., 2.])
    _eq(ta.stack(), [[0., 0.], [0., 0.]])  # TensorFlow 2.21 eager: the read cleared index 0
    with pytest.raises(tf.errors.InvalidArgumentError, match="could not read index 0 twice"
                       .replace("could", "Could")):
        ta.read(0)
    kept = tf.TensorArray(tf.float32, size=1, clear_after_read=False).write(0, 5.)
    assert float(kept.read(0)) == 5. and float(kept.read(0)) == 5.


def test_eager_errors_are_tensorflows():
    ta = tf.TensorArray(tf.float32, size=3).write(0, [1., 2.])
    with pytest.raises(tf.errors.OutOfRangeError, match="not resizeable and size is: 3"):
        ta.write(3, [1., 1.])
    with pytest.raises(tf.errors.OutOfRangeError, match="negative indices"):
        ta.write(-1, [1., 1.])
    with pytest.raises(ValueError, match=r"Incompatible shape for value \(\(3,\)\), expected"):
        ta.write(2, [1., 1., 1.])
    with pytest.raises(tf.errors.InvalidArgumentError, match="dtype is float32 but Op is "
                                                             "trying to write dtype int32"):
        ta.write(2, tf.constant([1, 1]))
    with pytest.raises(tf.errors.OutOfRangeError, match="Tried to read from index 5"):
        ta.read(5)
    with pytest.raises(ValueError, match="Size must be provided"):
        tf.TensorArray(tf.float32)


def test_eager_dynamic_size_unstack_scatter_split():
    d = tf.TensorArray(tf.int32, size=0, dynamic_size=True)
    for i in range(3):
        d = d.write(i, i * 10)
    _eq(d.stack(), [0, 10, 20], tf.int32)
    _eq(d.write(5, 7).stack(), [0, 10, 20, 0, 0, 7])
    u = tf.TensorArray(tf.float32, size=0, dynamic_size=True).unstack(
        tf.constant([[1., 2.], [3., 4.], [5., 6.]]))
    assert int(u.size()) == 3
    _eq(u.read(1), [3., 4.])
    s = tf.TensorArray(tf.float32, size=4).scatter([3, 0], tf.constant([[1., 1.], [2., 2.]]))
    _eq(s.stack(), [[2., 2.], [0., 0.], [0., 0.], [1., 1.]])
    _eq(tf.TensorArray(tf.int32, size=2).split([1, 2, 3], [1, 2]).read(1), [2, 3])
    _eq(tf.TensorArray(tf.int32, size=2, infer_shape=False).write(0, [1, 2]).write(1, [3])
        .concat(), [1, 2, 3])
    assert tf.TensorArray(tf.float32, size=0).stack().shape == (0,)
    assert tf.TensorArray(tf.float32, size=0, element_shape=[2]).stack().shape == (0, 2)
    assert tf.TensorArray(tf.float32, size=2, element_shape=[2, None]).element_shape.as_list() \
        == [2, None]


# ---- graphs --------------------------------------------------------------------------------------

def _both(fn, *args):
    """Graph results, checked equal to the same function run eagerly."""
    f = tf.function(fn)
    graph = f(*args)
    tf.config.run_functions_eagerly(True)
    try:
        eager = f(*args)
    finally:
        tf.config.run_functions_eagerly(False)
    for g, e in zip(tf.nest.flatten(graph), tf.nest.flatten(eager)):
        assert np.array_equal(g.numpy(), e.numpy()) and g.dtype == e.dtype
    return f, graph


def test_guide_dynamic_rnn_accumulates_in_a_tf_range_loop():
    """The "Better performance with tf.function" guide's TensorArray example."""
    batch_size, seq_len, feature_size = 2, 3, 4

    def rnn_step(inp, state):
        return inp + state

    @tf.function
    def dynamic_rnn(rnn_step, input_data, initial_state):
        input_data = tf.transpose(input_data, [1, 0, 2])
        max_seq_len = input_data.shape[0]
        states = tf.TensorArray(tf.float32, size=max_seq_len)
        state = initial_state
        for i in tf.range(max_seq_len):
            state = rnn_step(input_data[i], state)
            states = states.write(i, state)
        return tf.transpose(states.stack(), [1, 0, 2])

    data = tf.reshape(tf.range(24, dtype=tf.float32), [batch_size, seq_len, feature_size])
    out = dynamic_rnn(rnn_step, data, tf.zeros([batch_size, feature_size]))
    assert out.shape == (2, 3, 4)
    expected = np.cumsum(data.numpy(), axis=1)  # TensorFlow 2.21 prints the same values
    assert np.array_equal(out.numpy(), expected)
    graph = dynamic_rnn.get_concrete_function(rnn_step, data,
                                              tf.zeros([batch_size, feature_size])).graph
    kinds = [op.type for op in graph.get_operations()]
    assert "TensorListReserve" in kinds and "TensorListStack" in kinds
    assert any(k.endswith("While") for k in kinds)


def test_accumulate_with_dynamic_size_threads_the_flow_through_the_loop():
    seen = {}

    def acc(n):
        ta = tf.TensorArray(tf.float32, size=0, dynamic_size=True)
        for i in tf.range(n):
            ta = ta.write(i, tf.cast(i, tf.float32) * 2.)
        seen["shape"] = (ta.stack().shape, ta.element_shape)
        return ta.stack(), ta.size()

    f, (stacked, size) = _both(acc, tf.constant(4))
    _eq(stacked, [0., 2., 4., 6.])
    assert int(size) == 4
    stacked, size = f(tf.constant(0))
    assert stacked.shape == (0,) and int(size) == 0
    f2 = tf.function(acc)
    f2(tf.constant(2))
    shape, element = seen["shape"]
    assert shape.as_list() == [None] and element.as_list() == []  # as TensorFlow traces it


def test_fixed_size_keeps_the_static_shape():
    def fixed(x):
        ta = tf.TensorArray(tf.float32, size=3)
        for i in tf.range(3):
            ta = ta.write(i, x * tf.cast(i, tf.float32))
        return ta.stack()

    f, out = _both(fixed, tf.constant([1., 2.]))
    _eq(out, [[0., 0.], [1., 2.], [2., 4.]])
    assert f.get_concrete_function(tf.constant([1., 2.])).structured_outputs.shape == (3, 2)


def test_unstack_read_gather_concat_in_a_graph():
    def unst(x):  # eagerly, reads would clear the elements (TensorFlow's eager semantics)
        ta = tf.TensorArray(tf.float32, size=x.shape[0], clear_after_read=False).unstack(x)
        total = tf.zeros(x.shape[1:])
        for i in tf.range(ta.size()):
            total += ta.read(i)
        return total, ta.gather([0, 2]), ta.concat()

    _, (total, gathered, concat) = _both(unst, tf.constant([[1., 2.], [3., 4.], [5., 6.]]))
    _eq(total, [9., 12.])
    _eq(gathered, [[1., 2.], [5., 6.]])
    _eq(concat, [1., 2., 3., 4., 5., 6.])


def test_tensor_arrays_as_cond_outputs_and_while_loop_vars():
    def in_cond(x):
        ta = tf.TensorArray(tf.int32, size=2)
        if x > 0:
            ta = ta.write(0, x)
        else:
            ta = ta.write(1, x)
        return ta.stack()

    f, out = _both(in_cond, tf.constant(3))
    _eq(out, [3, 0])
    _eq(f(tf.constant(-3)), [0, -3])

    def halve(x):
        ta = tf.TensorArray(tf.int32, size=0, dynamic_size=True, element_shape=[])
        i = 0
        while x > 1:
            ta = ta.write(i, x)
            x = x // 2
            i += 1
        return ta.stack()

    _, out = _both(halve, tf.constant(40))
    _eq(out, [40, 20, 10, 5, 2])

    @tf.function
    def explicit(n):
        ta = tf.TensorArray(tf.float32, size=n)
        _, ta = tf.while_loop(lambda i, ta: i < n,
                              lambda i, ta: (i + 1, ta.write(i, tf.cast(i * i, tf.float32))),
                              (0, ta))
        return ta.stack()

    _eq(explicit(tf.constant(4)), [0., 1., 4., 9.])


def test_scatter_and_split_in_a_graph():
    def f(x):
        s = tf.TensorArray(tf.float32, size=3).scatter([2, 0], x)
        p = tf.TensorArray(tf.float32, size=2).split(tf.reshape(x, [-1]), [1, 3])
        return s.stack(), p.read(1)

    _, (stacked, piece) = _both(f, tf.constant([[1., 2.], [3., 4.]]))
    _eq(stacked, [[3., 4.], [0., 0.], [1., 2.]])
    _eq(piece, [2., 3., 4.])


def test_graph_errors():
    @tf.function
    def oob():
        ta = tf.TensorArray(tf.float32, size=2)
        for i in tf.range(3):
            ta = ta.write(i, 1.)
        return ta.stack()

    with pytest.raises(tf.errors.InvalidArgumentError,
                       match="Trying to modify element 2 in a list with 2 elements"):
        oob()

    @tf.function
    def bad_shape(x):
        ta = tf.TensorArray(tf.float32, size=2).write(0, [1., 2.])
        return ta.write(1, x).stack()

    with pytest.raises(ValueError, match=r"Inconsistent shapes: saw \(3,\) but expected"):
        bad_shape(tf.constant([1., 2., 3.]))

    @tf.function
    def unknown(n):
        return tf.TensorArray(tf.float32, size=n).stack()

    with pytest.raises(tf.errors.InvalidArgumentError, match="only contains uninitialized"):
        unknown(tf.constant(2))

    eager_ta = tf.TensorArray(tf.float32, size=1)

    @tf.function
    def outside():
        return eager_ta.write(0, 1.).stack()

    with pytest.raises(TypeError, match="made outside this tf.function"):
        outside()


def test_write_without_reassignment_in_a_graph_is_lost_as_in_tensorflow():
    @tf.function
    def f():
        ta = tf.TensorArray(tf.float32, size=2)
        ta.write(0, 1.)  # in a graph, write returns a new TensorArray
        return ta.stack()

    _eq(f(), [0., 0.])  # TensorFlow 2.21: [0. 0.]


def test_the_optimizer_never_folds_a_list(no_optimizer):
    tf.config.optimizer.reset()

    @tf.function
    def f():
        ta = tf.TensorArray(tf.int32, size=2).write(0, 5).write(1, 6)
        return ta.stack(), ta.size()

    stacked, size = f()
    _eq(stacked, [5, 6])
    assert int(size) == 2


class _Pair:
    """A user type with TensorFlow's custom nest protocol."""

    def __init__(self, a, b, label):
        self.a, self.b, self.label = a, b, label

    def __tf_flatten__(self):
        return self.label, (self.a, self.b)

    @classmethod
    def __tf_unflatten__(cls, label, components):
        return cls(*components, label)


def test_the_custom_nest_protocol_carries_values_through_loops():
    p = _Pair(tf.constant(1), tf.constant(2.), "meta")
    flat = tf.nest.flatten(p)
    assert [float(v) for v in flat] == [1., 2.]
    back = tf.nest.pack_sequence_as(p, [tf.constant(5), tf.constant(6.)])
    assert isinstance(back, _Pair) and back.label == "meta" and int(back.a) == 5

    @tf.function
    def f(n):
        return tf.while_loop(lambda i, p: i < n,
                             lambda i, p: (i + 1, _Pair(p.a * 2, p.b + 1., p.label)),
                             (0, _Pair(tf.constant(1), tf.constant(0.), "meta")))

    _, out = f(tf.constant(3))
    assert isinstance(out, _Pair) and out.label == "meta"
    assert (int(out.a), float(out.b)) == (8, 3.)
