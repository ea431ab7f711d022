"""Ragged and sparse values as tf.function arguments and results (issue 24, family 4): keyed
by their specs (tf.RaggedTensorSpec / tf.SparseTensorSpec), fed as their component tensors,
accepted by input_signature and concrete functions, returned rebuilt, saved and loaded, and
differentiated through."""

import numpy as np
import pytest

import tracegraph as tf


def test_a_ragged_argument_is_keyed_by_its_spec_and_returned_ragged():
    traces = []

    @tf.function
    def f(x):
        traces.append(x)
        return x * 2, tf.reduce_sum(x, axis=1)

    a = tf.ragged.constant([[1, 2], [3]])
    doubled, sums = f(a)
    assert isinstance(doubled, tf.RaggedTensor) and doubled.to_list() == [[2, 4], [6]]
    assert sums.numpy().tolist() == [3, 3]
    f(tf.ragged.constant([[5], [6, 7, 8]]))           # same spec: no new trace
    assert len(traces) == 1
    f(tf.ragged.constant([[1.0]]))                    # another dtype and nrows: a new trace
    assert len(traces) == 2
    assert isinstance(traces[0], tf.RaggedTensor) and traces[0].shape.as_list() == [2, None]
    assert not traces[0].row_splits.__class__.__name__ == "EagerTensor"


def test_input_signature_with_ragged_and_sparse_specs():
    @tf.function(input_signature=[tf.RaggedTensorSpec(shape=[None, None], dtype=tf.int32)])
    def max_and_min(rt):
        return tf.math.reduce_max(rt, axis=-1), tf.math.reduce_min(rt, axis=-1)

    hi, lo = max_and_min(tf.ragged.constant([[1, 2], [3], [4, 5, 6]]))
    assert hi.numpy().tolist() == [2, 3, 6] and lo.numpy().tolist() == [1, 3, 4]
    hi, _ = max_and_min(tf.ragged.constant([[7, 8]]))
    assert hi.numpy().tolist() == [8]
    assert max_and_min.experimental_get_tracing_count() == 1
    with pytest.raises((TypeError, ValueError)):
        max_and_min(tf.ragged.constant([[1.0]]))

    @tf.function(input_signature=[tf.SparseTensorSpec([None, 3], tf.float32)])
    def row_sums(st):
        return tf.sparse.reduce_sum(st, axis=1)

    st = tf.sparse.SparseTensor([[0, 0], [1, 2]], [1.0, 2.0], [2, 3])
    assert row_sums(st).numpy().tolist() == [1.0, 2.0]


def test_specs_print_compare_and_describe_values_as_tensorflow():
    spec = tf.RaggedTensorSpec(shape=[None, None], dtype=tf.int32)
    assert repr(spec) == "RaggedTensorSpec(TensorShape([None, None]), tf.int32, 1, tf.int64)"
    rt = tf.ragged.constant([[1, 2], [3]])
    assert rt._type_spec == tf.RaggedTensorSpec([2, None], tf.int32, 1)
    assert spec.is_compatible_with(rt) and not spec.is_compatible_with(
        tf.ragged.constant([[1.0]]))
    sp = tf.SparseTensorSpec([None, 3], tf.int32)
    assert repr(sp) == "SparseTensorSpec(TensorShape([None, 3]), tf.int32)"
    assert tf.sparse.SparseTensorSpec is tf.SparseTensorSpec
    assert [s.shape.as_list() for s in spec._component_specs()] == [[None], [None]]


def test_sparse_arguments_and_results():
    @tf.function
    def scale(st, k):
        return st * k

    st = tf.sparse.SparseTensor([[0, 3], [2, 4]], [15, 25], [3, 10])
    out = scale(st, 2)
    assert isinstance(out, tf.SparseTensor)
    assert out.values.numpy().tolist() == [30, 50]
    assert out.dense_shape.numpy().tolist() == [3, 10]

    @tf.function
    def f(x, y):
        return tf.sparse.sparse_dense_matmul(x, y)

    b = tf.sparse.to_dense(tf.sparse.transpose(st))
    np.testing.assert_array_equal(f(st, b).numpy(), [[225, 0, 0], [0, 0, 0], [0, 0, 625]])


def test_concrete_functions_take_ragged_values():
    @tf.function
    def increment(x):
        return x + 1

    rt = tf.ragged.constant([[1, 2], [3], [4, 5, 6]])
    cf = increment.get_concrete_function(rt)
    assert cf(rt).to_list() == [[2, 3], [4], [5, 6, 7]]
    cf2 = increment.get_concrete_function(tf.RaggedTensorSpec([None, None], tf.int32))
    assert cf2(tf.ragged.constant([[9]])).to_list() == [[10]]


def test_nested_tf_functions_pass_ragged_values():
    @tf.function
    def inner(x):
        return tf.concat([x, tf.reverse(x, [1])], axis=1)

    @tf.function
    def outer(x):
        return inner(x) * 10

    assert outer(tf.ragged.constant([[1, 2], [3]])).to_list() == [[10, 20, 20, 10], [30, 30]]


def test_gradients_through_a_function_of_ragged_values():
    v = tf.Variable([1.0, 2.0, 3.0])

    @tf.function
    def f(rt):
        return tf.reduce_sum(rt * rt)

    with tf.GradientTape() as tape:
        y = f(tf.RaggedTensor.from_row_lengths(v * 1.0, [2, 1]))
    np.testing.assert_allclose(tape.gradient(y, v).numpy(), [2.0, 4.0, 6.0])


def test_nest_expands_composites_on_request():
    rt = tf.ragged.constant([[1, 2], [3]])
    assert tf.nest.flatten(rt) == [rt]
    parts = tf.nest.flatten({"a": rt}, expand_composites=True)
    assert [p.numpy().tolist() for p in parts] == [[1, 2, 3], [0, 2, 3]]
    back = tf.nest.pack_sequence_as({"a": rt}, parts, expand_composites=True)
    assert back["a"].to_list() == [[1, 2], [3]]


def test_saved_model_with_ragged_signature(tmp_path):
    class CustomModule(tf.Module):
        def __init__(self, value):
            super().__init__()
            self.v = tf.Variable(value)

        @tf.function
        def grow(self, x):
            return x * self.v

    module = CustomModule(100.0)
    module.grow.get_concrete_function(tf.RaggedTensorSpec(shape=[None, None],
                                                          dtype=tf.float32))
    tf.saved_model.save(module, str(tmp_path))
    loaded = tf.saved_model.load(str(tmp_path))
    out = loaded.grow(tf.ragged.constant([[1.0, 4.0, 3.0], [2.0]]))
    assert isinstance(out, tf.RaggedTensor)
    assert out.to_list() == [[100.0, 400.0, 300.0], [200.0]]
    with pytest.raises(ValueError, match="Could not find matching concrete function"):
        loaded.grow(tf.ragged.constant([[1, 2]]))


def test_reduce_retracing_relaxes_ragged_and_sparse_specs():
    @tf.function(reduce_retracing=True)
    def f(x):
        return x * 2

    for rows in ([[1, 2], [3]], [[1], [2], [3]], [[1], [2], [3], [4]]):
        assert f(tf.ragged.constant(rows)).to_list() == [[2 * v for v in r] for r in rows]
    assert f.experimental_get_tracing_count() == 2
    for n in (2, 3, 4):
        f(tf.sparse.from_dense(tf.ones([n, 2])))
    assert f.experimental_get_tracing_count() == 4


def test_ragged_and_sparse_values_in_cond_and_while_loops():
    rt = tf.ragged.constant([[1, 2], [3]])

    @tf.function
    def pick(x, p):
        return tf.cond(p, lambda: x * 2, lambda: x + 1)

    assert pick(rt, tf.constant(True)).to_list() == [[2, 4], [6]]
    assert pick(rt, tf.constant(False)).to_list() == [[2, 3], [4]]

    @tf.function
    def grow(x):   # rows grow in an AutoGraph loop: the flat values' length varies
        for _ in tf.range(2):
            x = tf.concat([x, x[:, -1:] + 1], axis=1)
        return x

    assert grow(tf.ragged.constant([[1, 2], [5]])).to_list() == [[1, 2, 3, 4], [5, 6, 7]]

    @tf.function
    def loop(x):
        return tf.while_loop(lambda i, r: i < 3, lambda i, r: (i + 1, r * 2), (0, x))

    i, out = loop(tf.ragged.constant([[1], [2, 3]]))
    assert int(i) == 3 and out.to_list() == [[8], [16, 24]]

    @tf.function
    def scale(s, p):
        return tf.cond(p, lambda: s * 2, lambda: s)

    st = tf.sparse.from_dense([[1, 0], [0, 2]])
    assert tf.sparse.to_dense(scale(st, tf.constant(True))).numpy().tolist() == [[2, 0], [0, 4]]
    with pytest.raises(Exception, match="same number, type"):
        tf.function(lambda p: tf.cond(p, lambda: rt, lambda: tf.constant([1])))(
            tf.constant(True))
