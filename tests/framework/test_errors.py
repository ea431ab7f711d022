"""SPEC R-1.7: errors live in tf.errors and say what went wrong."""

import pytest

import tracegraph as tf


def test_error_hierarchy():
    assert issubclass(tf.errors.InvalidArgumentError, tf.errors.OpError)
    e = tf.errors.InvalidArgumentError(None, None, "msg")
    assert str(e) == "msg" and e.message == "msg"
    assert e.error_code == tf.errors.INVALID_ARGUMENT
    assert str(tf.errors.OutOfRangeError("end")) == "end"


def test_gather_out_of_range_names_index_and_bound():
    with pytest.raises(tf.errors.InvalidArgumentError) as info:
        tf.gather(tf.constant([0.0]), [1])
    assert str(info.value) == "indices[0] = 1 is not in [0, 1) [Op:GatherV2]"


def test_incompatible_shapes_name_both_shapes():
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"Incompatible shapes: \[3\] vs. \[2\] \[Op:AddV2\]"):
        tf.constant([1, 2, 3]) + tf.constant([1, 2])


def test_matmul_rank_and_size():
    with pytest.raises(tf.errors.InvalidArgumentError, match="In\\[0\\] ndims must be >= 2"):
        tf.matmul(tf.constant([1.0, 2.0]), tf.constant([1.0, 2.0]))
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"Matrix size-incompatible: In\[0\]: \[2,3\], In\[1\]: \[2,3\]"):
        tf.matmul(tf.ones([2, 3]), tf.ones([2, 3]))


def test_bad_axis():
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"Invalid reduction dimension \(5 for input with 2 dimension"):
        tf.reduce_sum(tf.ones([2, 3]), axis=5)


def test_runtime_errors_are_not_numpy_tracebacks():
    with pytest.raises(tf.errors.InvalidArgumentError, match="Input to reshape"):
        tf.reshape(tf.ones([2, 3]), [4])
    with pytest.raises(tf.errors.InvalidArgumentError, match="Integer division by zero"):
        tf.constant(5) // 0
    assert (tf.constant(5.0) / 0).numpy() == float("inf")


def test_unused_gather_raises_eagerly():
    def unused_return_eager(x):
        tf.gather(x, [1])
        return x

    with pytest.raises(tf.errors.InvalidArgumentError, match=r"indices\[0\] = 1 is not in"):
        unused_return_eager(tf.constant([0.0]))
