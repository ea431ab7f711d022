"""tf.sparse.SparseTensor and the basic tf.sparse functions (issue 14, item 15).

Printed forms and values were taken from TensorFlow 2.21.
"""

import numpy as np
import pytest

import tracegraph as tf


def _guide_tensor():
    return tf.sparse.SparseTensor(indices=[[0, 0], [1, 2]], values=[1, 2], dense_shape=[3, 4])


def test_printing_and_to_dense_as_the_guide_shows():
    st = _guide_tensor()
    assert str(st) == repr(st) == (
        "SparseTensor(indices=tf.Tensor(\n[[0 0]\n [1 2]], shape=(2, 2), dtype=int64), "
        "values=tf.Tensor([1 2], shape=(2,), dtype=int32), "
        "dense_shape=tf.Tensor([3 4], shape=(2,), dtype=int64))")
    assert st.shape == (3, 4) and st.dtype == tf.int32 and st.indices.dtype == tf.int64
    assert tf.sparse.to_dense(st).numpy().tolist() == [[1, 0, 0, 0], [0, 0, 2, 0], [0, 0, 0, 0]]
    assert tf.sparse.to_dense(st, default_value=-1).numpy().tolist() == \
        [[1, -1, -1, -1], [-1, -1, 2, -1], [-1, -1, -1, -1]]


def test_bad_indices_are_tensorflow_errors():
    bad = tf.sparse.SparseTensor(indices=[[0, 0], [5, 2]], values=[1, 2], dense_shape=[3, 4])
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"indices\[1\] = \[5,2\] is out of bounds: need 0 <= index < \[3,4\]"):
        tf.sparse.to_dense(bad)
    unordered = tf.sparse.SparseTensor([[1, 1], [0, 0]], [1.0, 2.0], [2, 2])
    with pytest.raises(tf.errors.InvalidArgumentError, match="out of order"):
        tf.sparse.to_dense(unordered)
    reordered = tf.sparse.reorder(unordered)
    assert reordered.indices.numpy().tolist() == [[0, 0], [1, 1]]
    assert tf.sparse.to_dense(reordered).numpy().tolist() == [[2.0, 0.0], [0.0, 1.0]]
    with pytest.raises(ValueError, match="rank 2"):
        tf.sparse.SparseTensor([0, 1], [1, 2], [3])


def test_add_sparse_and_dense():
    st1 = tf.sparse.SparseTensor(indices=[[0, 3], [2, 4]], values=[10, 20], dense_shape=[3, 10])
    st2 = tf.sparse.SparseTensor(indices=[[0, 3], [1, 1]], values=[1, 2], dense_shape=[3, 10])
    total = tf.sparse.add(st1, st2)
    assert total.indices.numpy().tolist() == [[0, 3], [1, 1], [2, 4]]
    assert total.values.numpy().tolist() == [11, 2, 20]
    dense = tf.sparse.add(st1, tf.ones([3, 10], tf.int32)).numpy()
    expected = np.ones((3, 10), np.int32)
    expected[0, 3], expected[2, 4] = 11, 21
    np.testing.assert_array_equal(dense, expected)


def test_sparse_dense_matmul_against_numpy():
    a = tf.sparse.SparseTensor(indices=[[0, 0], [1, 2]], values=[1.0, 2.0], dense_shape=[2, 3])
    b = np.array([[1., 2.], [3., 4.], [5., 6.]], np.float32)
    dense_a = tf.sparse.to_dense(a).numpy()
    np.testing.assert_array_equal(tf.sparse.sparse_dense_matmul(a, b).numpy(), dense_a @ b)
    np.testing.assert_array_equal(
        tf.sparse.sparse_dense_matmul(a, b.T, adjoint_b=True).numpy(), dense_a @ b)
    np.testing.assert_array_equal(
        tf.sparse.sparse_dense_matmul(a, dense_a, adjoint_a=True).numpy(), dense_a.T @ dense_a)
    right = tf.sparse.SparseTensor([[0, 1]], [3.0], [2, 2])
    np.testing.assert_array_equal(tf.sparse.sparse_dense_matmul(b, right).numpy(),
                                  b @ tf.sparse.to_dense(right).numpy())


def test_from_dense_and_inside_a_function():
    st = tf.sparse.from_dense(tf.constant([[0, 1], [2, 0]]))
    assert st.indices.numpy().tolist() == [[0, 1], [1, 0]] and st.values.numpy().tolist() == [1, 2]

    @tf.function
    def densify(indices, values):
        return tf.sparse.to_dense(tf.sparse.SparseTensor(indices, values, [2, 3]))

    out = densify(tf.constant([[0, 1], [1, 2]], tf.int64), tf.constant([5.0, 6.0]))
    assert out.numpy().tolist() == [[0.0, 5.0, 0.0], [0.0, 0.0, 6.0]]


def test_sparse_maximum_minimum_over_the_union_of_entries():
    """TF 2.21: missing entries count as zero; indices in row-major order."""
    a = tf.SparseTensor([[0, 1], [1, 0]], [3., -2.], [2, 2])
    b = tf.SparseTensor([[0, 1], [1, 1]], [1., -4.], [2, 2])
    m = tf.sparse.maximum(a, b)
    assert m.indices.numpy().tolist() == [[0, 1], [1, 0], [1, 1]]
    assert m.values.numpy().tolist() == [3., 0., 0.]
    assert tf.sparse.minimum(a, b).values.numpy().tolist() == [1., -2., -4.]
    with pytest.raises(tf.errors.InvalidArgumentError, match="shapes do not match: got 2 and 3"):
        tf.sparse.maximum(a, tf.SparseTensor([[0, 0]], [1.], [3, 2]))
