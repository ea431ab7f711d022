"""SPEC R-1.3/R-1.4: dtype objects and TensorFlow's conversion and no-promotion rules."""

import numpy as np
import pytest

import tracegraph as tf


@pytest.mark.parametrize("value,dtype", [
    (1.5, tf.float32), (1, tf.int32), (2 ** 40, tf.int64), (-2 ** 31, tf.int32),
    (2 ** 31, tf.int64), (True, tf.bool), ("a", tf.string), (b"a", tf.string),
    (1 + 2j, tf.complex128), ([1, 2.5], tf.float32), ([[1, 2], [3, 4]], tf.int32),
    ([True, False], tf.bool), (["a", "bc"], tf.string), ([], tf.float32),
    (np.float64(1.5), tf.float64), (np.arange(3), tf.int64), (np.ones(2, np.float16), tf.float16),
    (np.array(["a", "b"]), tf.string), (np.int8(3), tf.int8),
])
def test_natural_dtypes(value, dtype):
    assert tf.constant(value).dtype == dtype
    assert tf.convert_to_tensor(value).dtype is dtype


@pytest.mark.parametrize("a,b", [
    (tf.constant(1), tf.constant(1.0)), (tf.constant(1.0), tf.constant(1.0, tf.float64)),
    (tf.constant([1, 2]), tf.constant([1.0, 2.0])),
])
def test_no_promotion_between_tensors(a, b):
    with pytest.raises(tf.errors.InvalidArgumentError) as info:
        a + b
    message = str(info.value)
    assert "AddV2" in message and "expected to be a" in message


def test_mismatch_message_names_both_dtypes():
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"int32 tensor but is a float tensor"):
        tf.constant(1) + tf.constant(1.0)


@pytest.mark.parametrize("tensor,scalar,dtype,value", [
    (tf.constant(1.0), 1, tf.float32, 2.0), (tf.constant(1), 2, tf.int32, 3),
    (tf.constant(1.0, tf.float64), 0.5, tf.float64, 1.5),
    (tf.constant(1, tf.uint8), 300, tf.uint8, 45), (tf.constant(1.0, tf.float16), 2, tf.float16, 3),
    (tf.constant(1), True, tf.int32, 2),
])
def test_python_scalar_takes_tensor_dtype(tensor, scalar, dtype, value):
    for out in (tensor + scalar, scalar + tensor):
        assert out.dtype is dtype
        assert out.numpy() == value


def test_python_float_into_int_tensor_is_type_error():
    with pytest.raises(TypeError, match="Cannot convert 1.5 to EagerTensor of dtype int32"):
        tf.constant(1) + 1.5


def test_numpy_values_keep_their_dtype_alone_and_adopt_the_tensors():
    assert tf.constant(np.arange(3.0)).dtype is tf.float64
    out = tf.constant([1.0, 2.0]) + np.array([1.0, 2.0])
    assert out.dtype is tf.float32 and out.numpy().tolist() == [2.0, 4.0]


def test_integer_ops_stay_integer():
    y_true = tf.constant([1, 0, 4, 4, 7])
    y_pred = tf.constant([3, 6, 3, 0, 6])
    mse = tf.reduce_mean(tf.pow(y_true - y_pred, 2))
    assert mse.dtype is tf.int32 and mse.numpy() == 11  # 58 / 5 truncated
    assert tf.reduce_mean(tf.constant([-1, -2])).numpy() == -1  # toward zero
    assert (tf.constant(7) // 2).numpy() == 3 and (tf.constant(-7) // 2).numpy() == -4
    assert tf.matmul(tf.constant([[2]]), tf.constant([[3]])).dtype is tf.int32


def test_true_division_of_ints_is_float64():
    out = tf.constant([1, 2]) / 2
    assert out.dtype is tf.float64 and out.numpy().tolist() == [0.5, 1.0]


def test_first_python_value_fixes_the_dtype():
    assert tf.maximum(0.0, tf.constant(5.5)).dtype is tf.float32
    out = tf.maximum(0.0, [1, -1])
    assert out.dtype is tf.float32 and out.numpy().tolist() == [1.0, 0.0]


@pytest.mark.parametrize("value,dtype,expected", [
    (1, tf.float32, 1.0), (True, tf.int32, 1), (2 ** 40, tf.int32, 0),
    (np.array([1.5]), tf.int32, [1]),
])
def test_explicit_dtype_conversions(value, dtype, expected):
    t = tf.constant(value, dtype=dtype)
    assert t.dtype is dtype and np.asarray(t).tolist() == expected


@pytest.mark.parametrize("value,dtype,error", [
    (1.5, tf.int32, TypeError), (1, tf.bool, TypeError), (1, tf.string, TypeError),
    ([1.5, 2], tf.int32, TypeError), (None, None, ValueError), ([[1], [2, 3]], None, ValueError),
    ([True, 1], None, ValueError), (["a", 1], None, ValueError),
])
def test_bad_conversions(value, dtype, error):
    with pytest.raises(error):
        tf.constant(value, dtype=dtype)


def test_constant_with_shape():
    assert tf.constant(1.0, shape=[2, 2]).numpy().tolist() == [[1.0, 1.0], [1.0, 1.0]]
    assert tf.constant([1, 2, 3, 4], shape=[2, 2]).shape == (2, 2)
    with pytest.raises(TypeError, match="elements"):
        tf.constant([1, 2, 3], shape=[2, 2])


def test_dtype_objects():
    assert tf.float32.name == "float32" and tf.dtypes.int32 is tf.int32
    assert tf.float32.as_numpy_dtype is np.float32 and tf.string.as_numpy_dtype is object
    assert tf.float32.is_floating and tf.int8.is_integer and tf.uint8.is_unsigned
    assert tf.complex64.is_complex and tf.complex64.real_dtype is tf.float32
    assert tf.bool.is_bool and tf.int32.min == -2 ** 31 and tf.uint8.max == 255
    assert tf.as_dtype("float32") is tf.float32 and tf.as_dtype(np.int64) is tf.int64
    assert tf.float32 == np.float32 and tf.float32 == "float32" and tf.half is tf.float16
    assert repr(tf.float32) == "tf.float32" and str(tf.int32) == "<dtype: 'int32'>"
    assert hash(tf.float32) == hash(tf.as_dtype("float32"))
    with pytest.raises(TypeError):
        tf.as_dtype("float33")


def test_unsupported_dtype_for_op_is_invalid_argument():
    with pytest.raises(tf.errors.InvalidArgumentError, match="allowed values"):
        -tf.constant(True)
    with pytest.raises(tf.errors.InvalidArgumentError, match="allowed values"):
        tf.constant(True) + True
