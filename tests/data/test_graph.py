"""Datasets inside tf.function: `for x in dataset` is a While loop over iterator ops (on every
executor), iter/next/get_next_as_optional in graphs, datasets built from symbolic tensors,
and datasets as arguments keyed by their DatasetSpec (outputs match TF 2.21's)."""

import numpy as np
import pytest

import tracegraph as tf

EXECUTORS = ["codegen", "interpreter", "parallel", "jit"]


def _loop(ds):
    total = tf.constant(0.0)
    steps = tf.constant(0)
    for xb, yb in ds:
        total += tf.reduce_sum(xb) * tf.cast(tf.reduce_sum(yb), tf.float32)
        steps += 1
    return total, steps


@pytest.mark.parametrize("executor", EXECUTORS)
def test_loop_over_a_dataset_on_every_executor(executor):
    x = np.arange(20, dtype=np.float32).reshape(10, 2)
    y = np.arange(10, dtype=np.int32)
    ds = tf.data.Dataset.from_tensor_slices((x, y)).batch(4)
    f = tf.function(_loop, executor=executor)
    total, steps = f(ds)
    expected = sum(x[i:i + 4].sum() * y[i:i + 4].sum() for i in range(0, 10, 4))
    assert float(total) == expected and int(steps) == 3
    graph = f.get_concrete_function(ds).graph.to_text()
    assert "While" in graph and "IteratorGetNextAsOptional" in graph and "MakeIterator" in graph


def test_training_loop_matches_tensorflow():
    x = np.arange(20, dtype=np.float32).reshape(10, 2)
    y = np.arange(10, dtype=np.int32)
    w = tf.Variable(tf.ones([2, 1]))

    @tf.function
    def train(ds):
        total = tf.constant(0.0)
        for xb, yb in ds:
            with tf.GradientTape() as tape:
                loss = tf.reduce_mean(tf.square(tf.matmul(xb, w)[:, 0] - tf.cast(yb, tf.float32)))
            w.assign_sub(0.001 * tape.gradient(loss, w))
            total += loss
        return total
    assert float(train(tf.data.Dataset.from_tensor_slices((x, y)).batch(4))) == \
        pytest.approx(437.6659240722656, rel=1e-6)
    assert w.numpy()[:, 0] == pytest.approx([0.2042, 0.1386], abs=1e-4)


def test_dataset_arguments_retrace_by_element_spec():
    f = tf.function(lambda ds: ds.reduce(tf.constant(0, tf.int64), lambda a, b: a + b))
    assert int(f(tf.data.Dataset.range(4))) == 6 and int(f(tf.data.Dataset.range(10))) == 45
    assert f.experimental_get_tracing_count() == 1
    g = tf.function(_loop)
    x, y = np.ones((10, 2), np.float32), np.ones(10, np.int32)
    g(tf.data.Dataset.from_tensor_slices((x, y)).batch(4))
    g(tf.data.Dataset.from_tensor_slices((x, y)).batch(3))
    g(tf.data.Dataset.from_tensor_slices((x, y)).batch(4, drop_remainder=True))  # a subtype
    assert g.experimental_get_tracing_count() == 1
    g(tf.data.Dataset.from_tensor_slices((x, y.astype(np.int64))).batch(4))
    assert g.experimental_get_tracing_count() == 2
    cf = f.get_concrete_function(tf.data.Dataset.range(4))
    assert "DatasetSpec(TensorSpec(shape=(), dtype=tf.int64, name=None), TensorShape([]))" in \
        str(cf.structured_input_signature)


def test_break_continue_return_in_dataset_loops():
    ds = tf.data.Dataset.range(10)

    @tf.function
    def skip_odd():
        s = tf.constant(0, tf.int64)
        for v in ds:
            if v % 2 == 1:
                continue
            s += v
        return s
    assert int(skip_odd()) == 20

    @tf.function
    def until(limit):
        s = tf.constant(0, tf.int64)
        for b in ds.batch(3):
            s += tf.reduce_sum(b)
            if s > limit:
                break
        return s
    assert int(until(tf.constant(20, tf.int64))) == 36

    @tf.function
    def first_big():
        for v in ds:
            if v > 4:
                return v
        return tf.constant(-1, tf.int64)
    assert int(first_big()) == 5


def test_break_leaves_the_rest_to_the_iterator():
    it = iter(tf.data.Dataset.range(10))

    @tf.function
    def take_three():
        n = tf.constant(0)
        for _v in it:
            n += 1
            if n == 3:
                break
        return n
    assert int(take_three()) == 3
    assert int(next(it)) == 3                  # exactly the used elements were consumed


def test_iterators_and_optionals_in_graphs():
    it = iter(tf.data.Dataset.range(5))

    @tf.function
    def pull():
        return next(it)
    assert [int(pull()) for _ in range(3)] == [0, 1, 2]

    @tf.function
    def optional(ds):
        i = iter(ds)
        out = tf.constant(0, tf.int64)
        o = i.get_next_as_optional()
        if o.has_value():
            out += o.get_value()
        out += next(i)
        return out
    assert int(optional(tf.data.Dataset.range(5, 10))) == 11

    @tf.function
    def past_the_end():
        i = iter(tf.data.Dataset.range(1))
        next(i)
        return next(i)
    with pytest.raises(tf.errors.OutOfRangeError):
        past_the_end()


def test_datasets_built_from_symbolic_tensors():
    @tf.function
    def f(x):
        ds = tf.data.Dataset.from_tensor_slices(x).map(lambda v: v * 2).batch(2)
        out = tf.constant(0.0)
        for b in ds:
            out += tf.reduce_sum(b)
        return out, ds.reduce(tf.constant(0.0), lambda s, v: s + tf.reduce_sum(v))
    a, b = f(tf.constant([1.0, 2.0, 3.0]))
    assert float(a) == 12.0 and float(b) == 12.0

    @tf.function
    def nested(n):
        acc = tf.constant(0, tf.int64)
        for a in tf.data.Dataset.range(n).map(lambda v: v * 2):
            for b in tf.data.Dataset.range(a):
                acc += b
        return acc
    assert int(nested(tf.constant(4, tf.int64))) == 22

    @tf.function
    def card(ds):
        return ds.cardinality(), ds.batch(3).cardinality()
    assert [int(c) for c in card(tf.data.Dataset.range(10))] == [10, 4]


def test_ragged_elements_in_graph_loops():
    @tf.function
    def total(ds):
        s = tf.constant(0)
        for r in ds:
            s += tf.reduce_sum(r.flat_values)
        return s
    ds = tf.data.Dataset.from_tensor_slices(tf.ragged.constant([[1, 2], [3], [4, 5, 6]])).batch(2)
    assert int(total(ds)) == 21


def test_iteration_outside_functions_and_graphs():
    with pytest.raises(TypeError, match="only supports `len` in eager mode"):
        tf.function(lambda ds: len(ds))(tf.data.Dataset.range(3))
    assert [int(v) for v in tf.data.Dataset.range(3)] == [0, 1, 2]
    tf.config.run_functions_eagerly(True)
    try:
        assert int(tf.function(lambda ds: ds.reduce(tf.constant(0, tf.int64),
                                                     lambda a, b: a + b))(
            tf.data.Dataset.range(4))) == 6
    finally:
        tf.config.run_functions_eagerly(False)


def test_dataset_spec_in_an_input_signature():
    spec = tf.data.DatasetSpec(tf.TensorSpec((None,), tf.int64))

    @tf.function(input_signature=[spec])
    def total(ds):
        return ds.reduce(tf.constant(0, tf.int64), lambda s, b: s + tf.reduce_sum(b))
    assert int(total(tf.data.Dataset.range(10).batch(3))) == 45
    assert int(total(tf.data.Dataset.range(5).batch(2, drop_remainder=True))) == 6
    assert total.experimental_get_tracing_count() == 1
    with pytest.raises(TypeError, match="expected DatasetSpec"):
        total(tf.data.Dataset.range(3))


def test_iterators_as_function_arguments_share_a_trace():
    @tf.function
    def pull(it):
        return next(it)
    first = iter(tf.data.Dataset.range(3))
    assert [int(pull(first)) for _ in range(2)] == [0, 1]
    assert int(pull(iter(tf.data.Dataset.range(10, 13)))) == 10
    assert pull.experimental_get_tracing_count() == 1          # keyed by its IteratorSpec
    assert repr(first._type_spec) == \
        "IteratorSpec(TensorSpec(shape=(), dtype=tf.int64, name=None),)"
    assert int(next(first)) == 2                               # the same iterator, eagerly
