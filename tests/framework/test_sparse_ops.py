"""tf.sparse beyond the basics (issue 24, family 4): concat, slice, map_values, transpose,
reshape, reduce_sum, reduce_max, to_indicator, elementwise ops on the stored values, and the
gradients of to_dense and sparse_dense_matmul (checked by finite differences). Expected values
are TensorFlow 2.21's."""

import numpy as np
import pytest

import tracegraph as tf

ST = tf.sparse.SparseTensor([[0, 0], [0, 2], [2, 1]], [-1.0, -2.0, 3.0], [3, 3])


def dense(st):
    return tf.sparse.to_dense(st).numpy().tolist()


def test_reductions_ignore_missing_values_as_tensorflow():
    assert tf.sparse.reduce_max(ST, axis=1).numpy().tolist() == [-1.0, 0.0, 3.0]
    assert tf.sparse.reduce_max(ST, axis=0).numpy().tolist() == [-1.0, 3.0, -2.0]
    assert tf.sparse.reduce_max(tf.sparse.from_dense([-5, 0, -3])).numpy() == -3
    assert tf.sparse.reduce_sum(ST, axis=1, keepdims=True).numpy().tolist() == \
        [[-3.0], [0.0], [3.0]]
    assert tf.sparse.reduce_sum(ST).numpy() == 0.0
    out = tf.sparse.reduce_max(ST, axis=1, output_is_sparse=True)
    assert out.indices.numpy().tolist() == [[0], [2]] and out.values.numpy().tolist() == [-1, 3]
    assert out.dense_shape.numpy().tolist() == [3]
    out = tf.sparse.reduce_sum(ST, axis=0, output_is_sparse=True)
    assert out.indices.numpy().tolist() == [[0], [1], [2]]


def test_concat_slice_transpose_reshape():
    joined = tf.sparse.concat(1, [ST, ST])
    assert joined.indices.numpy().tolist() == [[0, 0], [0, 2], [0, 3], [0, 5], [2, 1], [2, 4]]
    assert joined.values.numpy().tolist() == [-1, -2, -1, -2, 3, 3]
    assert joined.dense_shape.numpy().tolist() == [3, 6]
    rows = tf.sparse.concat(axis=0, sp_inputs=[ST, ST])
    assert rows.dense_shape.numpy().tolist() == [6, 3] and dense(rows)[3:] == dense(ST)
    part = tf.sparse.slice(ST, [1, 0], [5, 5])
    assert part.indices.numpy().tolist() == [[1, 1]] and part.values.numpy().tolist() == [3.0]
    assert part.dense_shape.numpy().tolist() == [2, 3]
    empty = tf.sparse.slice(ST, [0, 10], [8, 6])
    assert tf.sparse.to_dense(empty).shape.as_list() == [3, 0]
    flipped = tf.sparse.transpose(ST)
    assert dense(flipped) == np.array(dense(ST)).T.tolist()
    assert flipped.indices.numpy().tolist() == [[0, 0], [1, 2], [2, 0]]
    reshaped = tf.sparse.reshape(ST, [9, 1])
    assert np.array(dense(reshaped)).reshape(-1).tolist() == [-1, 0, -2, 0, 0, 0, 0, 3, 0]
    assert tf.sparse.reshape(ST, [-1]).dense_shape.numpy().tolist() == [9]


def test_map_values_and_elementwise_ops_keep_the_indices():
    st2 = tf.sparse.from_dense([[1, 0, 0, 8], [0, 0, 0, 0], [0, 0, 3, 0]])
    assert dense(tf.sparse.map_values(tf.add, st2, 5)) == [[6, 0, 0, 13], [0, 0, 0, 0],
                                                            [0, 0, 8, 0]]
    assert tf.abs(ST).values.numpy().tolist() == [1.0, 2.0, 3.0]
    assert (ST * 2).values.numpy().tolist() == [-2.0, -4.0, 6.0]
    assert (ST * tf.constant([[1.0], [2.0], [3.0]])).values.numpy().tolist() == [-1, -2, 9]
    assert tf.cast(ST, tf.int32).values.dtype == tf.int32
    with pytest.raises(tf.errors.InvalidArgumentError, match="identical indices"):
        tf.sparse.map_values(tf.add, ST, tf.sparse.from_dense([[1.0]]))


def test_to_indicator():
    ids = tf.sparse.SparseTensor([[0, 0], [0, 1], [1, 0]], [2, 0, 1], [2, 3])
    assert tf.sparse.to_indicator(ids, 4).numpy().tolist() == \
        [[True, False, True, False], [False, True, False, False]]


def test_sparse_functions_inside_tf_function():
    @tf.function
    def f(st):
        return tf.sparse.to_dense(tf.sparse.concat(1, [st, tf.sparse.transpose(st)]))

    np.testing.assert_array_equal(f(ST).numpy(),
                                  np.concatenate([dense(ST), np.array(dense(ST)).T], 1))


def _numeric_gradient(fn, x, eps=1e-3):
    x = np.array(x, np.float64)
    out = np.zeros_like(x)
    for i in np.ndindex(x.shape):
        up, down = x.copy(), x.copy()
        up[i] += eps
        down[i] -= eps
        out[i] = (fn(up) - fn(down)) / (2 * eps)
    return out


@pytest.mark.parametrize("adjoint_a,adjoint_b", [(False, False), (True, False), (False, True)])
def test_sparse_dense_matmul_gradients_match_finite_differences(adjoint_a, adjoint_b):
    indices = [[0, 1], [1, 0], [1, 2]]
    shape = [2, 3] if not adjoint_a else [3, 2]
    indices = indices if not adjoint_a else [[j, i] for i, j in indices]
    rng = np.random.default_rng(0)
    values0 = rng.normal(size=3)
    b0 = rng.normal(size=(3, 2) if not adjoint_b else (2, 3))
    weights = tf.constant(rng.normal(size=(2, 2)))

    def loss(values, b):
        st = tf.sparse.SparseTensor(indices, values, shape)
        out = tf.sparse.sparse_dense_matmul(st, b, adjoint_a=adjoint_a, adjoint_b=adjoint_b)
        return tf.reduce_sum(out * weights)

    values, b = tf.Variable(values0), tf.Variable(b0)
    with tf.GradientTape() as tape:
        y = loss(values, b)
    g_values, g_b = tape.gradient(y, [values, b])
    np.testing.assert_allclose(g_values.numpy(), _numeric_gradient(
        lambda v: float(loss(tf.constant(v), tf.constant(b0))), values0), rtol=1e-5)
    np.testing.assert_allclose(g_b.numpy(), _numeric_gradient(
        lambda m: float(loss(tf.constant(values0), tf.constant(m))), b0), rtol=1e-5)


def test_to_dense_and_reduce_gradients():
    values = tf.Variable([1.0, 2.0, 3.0])
    weights = tf.constant([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0]])
    with tf.GradientTape() as tape:
        st = tf.sparse.SparseTensor(ST.indices, values * 2.0, ST.dense_shape)
        y = tf.reduce_sum(tf.sparse.to_dense(st) * weights) + \
            tf.reduce_sum(tf.sparse.reduce_sum(st, axis=0))
    np.testing.assert_allclose(tape.gradient(y, values).numpy(), [4.0, 8.0, 18.0])
