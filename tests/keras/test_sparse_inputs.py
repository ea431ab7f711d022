"""A Keras model with a sparse input (the guide "Working with sparse tensors"): Keras's
TensorFlow backend multiplies it through tf.sparse.fill_empty_rows and
tf.nn.embedding_lookup_sparse, and slices it for predict with tf.experimental.RowPartition.
Expected values are TensorFlow 2.21's (weights initialized to ones)."""

import numpy as np

import tracegraph as tf

from .conftest import needs_tf_data

EXPECTED = [[3.0] * 4, [0.0] * 4, [0.0] * 4, [0.0] * 4, [1.0] * 4, [2.0] * 4]


def _model(keras):
    x = keras.Input(shape=(4,), sparse=True)
    y = keras.layers.Dense(4, kernel_initializer="ones", bias_initializer="zeros")(x)
    return keras.Model(x, y)


DATA = dict(indices=[(0, 0), (0, 1), (0, 2), (4, 3), (5, 0), (5, 1)], values=[1, 1, 1, 1, 1, 1],
            dense_shape=(6, 4))


def test_a_dense_layer_on_a_sparse_input(keras):
    model = _model(keras)
    np.testing.assert_array_equal(model(tf.sparse.SparseTensor(**DATA)).numpy(), EXPECTED)


@needs_tf_data
def test_predict_slices_sparse_batches(keras):
    model = _model(keras)
    out = model.predict(tf.sparse.SparseTensor(**DATA), batch_size=4, verbose=0)
    np.testing.assert_array_equal(out, EXPECTED)


def test_the_sparse_functions_keras_uses():
    st = tf.sparse.SparseTensor([[0, 1], [2, 0]], [5.0, 7.0], [4, 3])
    filled, empty = tf.sparse.fill_empty_rows(st, -1.0)
    assert filled.indices.numpy().tolist() == [[0, 1], [1, 0], [2, 0], [3, 0]]
    assert filled.values.numpy().tolist() == [5.0, -1.0, 7.0, -1.0]
    assert empty.numpy().tolist() == [False, True, False, True]
    params = tf.constant([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
    ids = tf.sparse.SparseTensor([[0, 0], [0, 1], [2, 0]], [0, 2, 1], [3, 2])
    weights = tf.sparse.SparseTensor([[0, 0], [0, 1], [2, 0]], [1.0, 3.0, 2.0], [3, 2])
    for combiner, expected in (("sum", [[16, 20], [0, 0], [6, 8]]),
                               ("mean", [[4, 5], [0, 0], [3, 4]])):
        out = tf.nn.embedding_lookup_sparse(params, ids, weights, combiner=combiner)
        np.testing.assert_allclose(out.numpy(), expected)
    rp = tf.experimental.RowPartition.from_value_rowids([0, 0, 2], nrows=4)
    assert rp.row_splits().numpy().tolist() == [0, 2, 2, 3, 3]
    assert tf.shape(st).numpy().tolist() == [4, 3]
