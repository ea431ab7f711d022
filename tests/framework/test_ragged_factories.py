"""RaggedTensor's factories and conversions (issue 24, family 4): every row partition
(splits, lengths, starts, limits, value row ids, uniform length, nested forms), from_tensor
with padding and lengths, from_sparse / to_sparse, bounding_shape, tf.ragged.constant's
errors. Expected values and shapes are TensorFlow 2.21's."""

import numpy as np
import pytest

import tracegraph as tf

VALUES = [3, 1, 4, 1, 5, 9, 2]
ROWS = [[3, 1, 4, 1], [], [5, 9], [2]]


@pytest.mark.parametrize("make", [
    lambda: tf.RaggedTensor.from_row_splits(VALUES, [0, 4, 4, 6, 7]),
    lambda: tf.RaggedTensor.from_row_lengths(VALUES, [4, 0, 2, 1]),
    lambda: tf.RaggedTensor.from_row_starts(VALUES, [0, 4, 4, 6]),
    lambda: tf.RaggedTensor.from_row_limits(VALUES, [4, 4, 6, 7]),
    lambda: tf.RaggedTensor.from_value_rowids(VALUES, [0, 0, 0, 0, 2, 2, 3]),
    lambda: tf.RaggedTensor.from_value_rowids(VALUES, [0, 0, 0, 0, 2, 2, 3], nrows=4),
], ids=["splits", "lengths", "starts", "limits", "rowids", "rowids_nrows"])
def test_every_row_partition_builds_the_same_rows(make):
    rt = make()
    assert rt.to_list() == ROWS
    assert rt.row_splits.numpy().tolist() == [0, 4, 4, 6, 7]
    assert rt.value_rowids().numpy().tolist() == [0, 0, 0, 0, 2, 2, 3]
    assert rt.row_lengths().numpy().tolist() == [4, 0, 2, 1]
    assert rt.row_starts().numpy().tolist() == [0, 4, 4, 6]
    assert rt.row_limits().numpy().tolist() == [4, 4, 6, 7]
    assert rt.bounding_shape().numpy().tolist() == [4, 4]


def test_value_rowids_keep_trailing_empty_rows_with_nrows():
    rt = tf.RaggedTensor.from_value_rowids([1, 2], [0, 2], nrows=5)
    assert rt.to_list() == [[1], [], [2], [], []]


def test_invalid_partitions_are_refused():
    with pytest.raises(tf.errors.InvalidArgumentError):
        tf.RaggedTensor.from_row_splits(VALUES, [0, 4, 2, 7])
    with pytest.raises(tf.errors.InvalidArgumentError):
        tf.RaggedTensor.from_row_lengths(VALUES, [4, -1, 4])
    with pytest.raises(tf.errors.InvalidArgumentError):
        tf.RaggedTensor.from_value_rowids(VALUES, [0, 1, 0, 0, 2, 2, 3])
    with pytest.raises(ValueError, match="int32 or int64"):
        tf.RaggedTensor.from_row_splits(VALUES, [0.0, 7.0])
    with pytest.raises(ValueError, match="factory methods"):
        tf.RaggedTensor(VALUES, [0, 7])


def test_uniform_row_length_is_a_known_dimension():
    inner = tf.RaggedTensor.from_row_splits(list(range(10, 20)), [0, 3, 5, 9, 10])
    rt = tf.RaggedTensor.from_uniform_row_length(inner, 2)
    assert rt.shape.as_list() == [2, 2, None] and rt.ragged_rank == 2
    assert rt.to_list() == [[[10, 11, 12], [13, 14]], [[15, 16, 17, 18], [19]]]
    assert int(rt.uniform_row_length) == 2
    with pytest.raises(tf.errors.InvalidArgumentError):
        tf.RaggedTensor.from_uniform_row_length([1, 2, 3], 2)


def test_nested_factories():
    flat = list(range(10, 20))
    a = tf.RaggedTensor.from_nested_row_splits(flat, ([0, 1, 1, 5], [0, 3, 3, 5, 9, 10]))
    b = tf.RaggedTensor.from_nested_row_lengths(flat, ([1, 0, 4], [3, 0, 2, 4, 1]))
    c = tf.RaggedTensor.from_nested_value_rowids(flat, ([0, 2, 2, 2, 2],
                                                        [0, 0, 0, 2, 2, 3, 3, 3, 3, 4]))
    expected = [[[10, 11, 12]], [], [[], [13, 14], [15, 16, 17, 18], [19]]]
    assert a.to_list() == b.to_list() == c.to_list() == expected
    assert a.shape.as_list() == [3, None, None] and a.ragged_rank == 2
    assert [s.numpy().tolist() for s in a.nested_row_lengths()] == [[1, 0, 4], [3, 0, 2, 4, 1]]
    assert a.bounding_shape().numpy().tolist() == [3, 4, 4]


def test_from_tensor_with_padding_lengths_and_ragged_rank():
    x = [[1, 3, -1, -1], [2, -1, -1, -1], [4, 5, 8, 9]]
    assert tf.RaggedTensor.from_tensor(x, padding=-1).to_list() == [[1, 3], [2], [4, 5, 8, 9]]
    assert tf.RaggedTensor.from_tensor(x, lengths=[1, 0, 3]).to_list() == [[1], [], [4, 5, 8]]
    whole = tf.RaggedTensor.from_tensor([[1, 2], [3, 4]])
    assert whole.shape.as_list() == [2, 2] and whole.to_list() == [[1, 2], [3, 4]]
    deep = tf.RaggedTensor.from_tensor(np.zeros([2, 3, 4], np.float32), ragged_rank=2)
    assert deep.shape.as_list() == [2, 3, 4] and deep.ragged_rank == 2
    rows = tf.RaggedTensor.from_tensor([[[1, 1], [0, 0]], [[2, 2], [3, 0]]], padding=[0, 0])
    assert rows.to_list() == [[[1, 1]], [[2, 2], [3, 0]]]
    with pytest.raises(ValueError, match="not both"):
        tf.RaggedTensor.from_tensor(x, lengths=[1, 1, 1], padding=0)


def test_to_sparse_and_from_sparse_round_trip():
    rt = tf.ragged.constant([["Hi"], ["Welcome", "to", "the", "fair"], ["Have", "fun"]])
    st = rt.to_sparse()
    assert st.indices.numpy().tolist() == [[0, 0], [1, 0], [1, 1], [1, 2], [1, 3], [2, 0],
                                           [2, 1]]
    assert st.dense_shape.numpy().tolist() == [3, 4]
    assert tf.RaggedTensor.from_sparse(st).to_list() == rt.to_list()
    st = tf.SparseTensor(indices=[[0, 0], [2, 0], [2, 1]], values=["a", "b", "c"],
                         dense_shape=[3, 3])
    assert tf.RaggedTensor.from_sparse(st).to_list() == [[b"a"], [], [b"b", b"c"]]
    nested = tf.ragged.constant([[[1, 2], [3]], [[4]]]).to_sparse()
    assert nested.indices.numpy().tolist() == [[0, 0, 0], [0, 0, 1], [0, 1, 0], [1, 0, 0]]
    assert nested.dense_shape.numpy().tolist() == [2, 2, 2]
    inner = tf.RaggedTensor.from_row_lengths([[1, 2], [3, 4], [5, 6]], [2, 1]).to_sparse()
    assert inner.indices.numpy().tolist()[:3] == [[0, 0, 0], [0, 0, 1], [0, 1, 0]]
    assert inner.values.numpy().tolist() == [1, 2, 3, 4, 5, 6]


def test_ragged_constant_errors_and_options():
    with pytest.raises(ValueError, match="same nesting depth"):
        tf.ragged.constant(["A", ["B", "C"]])
    with pytest.raises(ValueError):
        tf.ragged.constant([["one", "two"], [3, 4]])
    rt = tf.ragged.constant([[[1, 2], [3, 4]], [[5, 6]]], ragged_rank=1)
    assert rt.shape.as_list() == [2, None, 2] and rt.flat_values.shape.as_list() == [3, 2]
    assert tf.ragged.constant([[1, 2], []], row_splits_dtype=tf.int32).row_splits.dtype == \
        tf.int32
    assert tf.ragged.constant(np.array([1, 2])).numpy().tolist() == [1, 2]


def test_shape_dtype_and_printing():
    rt = tf.ragged.constant([[1, 2], [3], [4, 5, 6]])
    assert repr(rt.shape) == "TensorShape([3, None])"
    assert str(tf.ragged.constant([[[1, 2], [3]], [[4, 5]]])) == \
        "<tf.RaggedTensor [[[1, 2], [3]], [[4, 5]]]>"
    assert rt.with_row_splits_dtype(tf.int32).row_splits.dtype == tf.int32
    assert rt.merge_dims(0, 1).numpy().tolist() == [1, 2, 3, 4, 5, 6]
    assert f"{tf.constant([1, 2])}" == "[1 2]"     # TensorFlow's f-string of a tensor
