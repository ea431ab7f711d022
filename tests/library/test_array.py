"""Shape ops: constant, conversion, reshape, transpose, concat/stack/split, tile, slice, pad, ...

Expected behaviour (values, dtypes, error types and messages) was taken from TensorFlow 2.21.
"""

import numpy as np
import pytest

import tracegraph as tf

from .oracle import expect, raises

A = np.arange(6, dtype=np.int32).reshape(2, 3)
C = np.arange(24, dtype=np.float32).reshape(2, 3, 4)


@pytest.mark.parametrize("value,ref", [
    (5.5, np.float32(5.5)),
    (7, np.int32(7)),
    (2**40, np.int64(2**40)),
    ([1, 2**40], np.int64([1, 2**40])),
    (True, np.bool_(True)),
    ([[1.0, 2], [3, 4]], np.float32([[1, 2], [3, 4]])),
    ([True, False], np.array([True, False])),
    ("héllo", np.array("héllo".encode(), dtype=object)),
    ([b"a", "b"], [b"a", b"b"]),
    (1 + 2j, np.complex128(1 + 2j)),
    ([], np.float32([])),
    (np.int16([1, 2]), np.int16([1, 2])),  # NumPy values keep their dtype
    (np.float64(1.5), np.float64(1.5)),
])
def test_constant_dtype_rules(value, ref):
    expect(tf.constant(value), ref)
    expect(tf.convert_to_tensor(value), ref)


@pytest.mark.parametrize("value,dtype,shape,ref", [
    ([1, 2], tf.float64, None, np.float64([1, 2])),
    (3, None, [2, 2], np.full((2, 2), 3, np.int32)),
    ([1, 2, 3, 4], None, [2, 2], np.int32([[1, 2], [3, 4]])),
    (np.int32([1, 2]), tf.int64, None, np.int64([1, 2])),
    (tf.constant([1, 2]), tf.float32, None, np.float32([1, 2])),
])
def test_constant_with_dtype_and_shape(value, dtype, shape, ref):
    expect(tf.constant(value, dtype=dtype, shape=shape), ref)


def test_constant_errors():
    with raises(TypeError, "Eager execution of tf.constant with unsupported shape",
                "has 3 elements, but got `shape` (2, 2) with 4 elements"):
        tf.constant([1, 2, 3], shape=[2, 2])
    with raises(TypeError, "Cannot convert [1.5, 2] to EagerTensor of dtype int32"):
        tf.constant([1.5, 2], dtype=tf.int32)
    with raises(ValueError, "Can't convert non-rectangular Python sequence to Tensor."):
        tf.constant([[1, 2], [3]])


def test_convert_to_tensor_dtype_and_hint():
    expect(tf.convert_to_tensor([1, 2], dtype=tf.float32), np.float32([1, 2]))
    expect(tf.convert_to_tensor(2, dtype_hint=tf.float32), np.float32(2))
    expect(tf.convert_to_tensor(2.5, dtype_hint=tf.int32), np.float32(2.5))  # hint only
    with raises(ValueError, "Tensor conversion requested dtype float32 for Tensor with dtype "
                            "int32"):
        tf.convert_to_tensor(tf.constant([1]), dtype=tf.float32)


def test_identity_and_stop_gradient():
    expect(tf.identity([1.0, 2.0]), np.float32([1, 2]))
    expect(tf.stop_gradient(tf.constant(A)), A)
    assert tf.executing_eagerly()
    assert tf.is_tensor(tf.constant(1)) and not tf.is_tensor(np.float32(1))


@pytest.mark.parametrize("shape,ref_shape", [
    ([3, 2], (3, 2)), ([-1, 2], (3, 2)), ([6], (6,)), ([1, -1, 1], (1, 6, 1)),
    ((2, 3), (2, 3)), (tf.constant([3, 2], tf.int64), (3, 2)), (tf.TensorShape([2, None]), (2, 3)),
])
def test_reshape(shape, ref_shape):
    expect(tf.reshape(A, shape), A.reshape(ref_shape))


def test_reshape_zero_sized_and_scalar():
    expect(tf.reshape(np.zeros((0, 2), np.float32), [0, -1]), np.zeros((0, 2), np.float32))
    expect(tf.reshape(tf.constant(7), [1, 1]), np.int32([[7]]))
    expect(tf.reshape(tf.constant([7]), []), np.int32(7))


@pytest.mark.parametrize("shape,message", [
    ([4, 2], "Input to reshape is a tensor with 6 values, but the requested shape has 8"),
    ([4, -1], "Input to reshape is a tensor with 6 values, but the requested shape requires a "
              "multiple of 4"),
    ([-1, -1], "Only one input size may be -1, not both 0 and 1"),
    ([-2, 3], "Size 0 must be non-negative, not -2"),
    ([0, -1], "Input to reshape is a tensor with 6 values, but the requested shape has 0"),
])
def test_reshape_errors(shape, message):
    with raises(tf.errors.InvalidArgumentError, message, "[Op:Reshape]"):
        tf.reshape(A, shape)


@pytest.mark.parametrize("perm", [None, [1, 0, 2], [2, 0, 1], [-1, 0, 1]])
def test_transpose(perm):
    expect(tf.transpose(C, perm), np.transpose(C, perm))


def test_transpose_conjugate():
    c = np.complex64([[1 + 2j, 3j]])
    expect(tf.transpose(c, conjugate=True), np.conj(c.T))
    expect(tf.transpose(c), c.T)


@pytest.mark.parametrize("perm,message", [
    ([0, 0], "1 is missing from {0,0}."),
    ([2, 0], "2 is out of range [0 .. 2)"),
    ([1, 0, 2], "transpose expects a vector of size 2. But input(1) is a vector of size 3"),
])
def test_transpose_errors(perm, message):
    with raises(tf.errors.InvalidArgumentError, message, "[Op:Transpose]"):
        tf.transpose(A, perm)


@pytest.mark.parametrize("axis", [0, 1, -1, -2])
def test_concat(axis):
    a, b = A, A * 10
    expect(tf.concat([a, b], axis), np.concatenate([a, b], axis))
    expect(tf.concat([a, b, a], axis=axis), np.concatenate([a, b, a], axis))


def test_concat_single_and_python_values():
    expect(tf.concat([tf.constant(A)], 0), A)
    expect(tf.concat([[1, 2], [3]], 0), np.int32([1, 2, 3]))


@pytest.mark.parametrize("values,axis,message", [
    ([[[1, 2]], [[3, 4, 5]]], 0, "ConcatOp : Dimension 1 in both shapes must be equal: "
                                 "shape[0] = [1,2] vs. shape[1] = [1,3]"),
    ([[[1, 2]], [3, 4]], 0, "ConcatOp : Ranks of all input tensors should match: shape[0] = "
                            "[1,2] vs. shape[1] = [2]"),
    ([[[1, 2]], [[3, 4]]], 2, "ConcatOp : Expected concatenating dimensions in the range "
                              "[-2, 2), but got 2"),
    ([1, 2], 0, "ConcatOp : Can't concatenate scalars (use tf.stack instead)"),
])
def test_concat_errors(values, axis, message):
    with raises(tf.errors.InvalidArgumentError, message, "[Op:ConcatV2]"):
        tf.concat([tf.constant(v) for v in values], axis)


def test_concat_dtype_mismatch():
    with raises(tf.errors.InvalidArgumentError, "cannot compute ConcatV2 as input #1(zero-based) "
                                                "was expected to be a int32 tensor but is a float"):
        tf.concat([tf.constant([1]), tf.constant([1.0])], 0)


@pytest.mark.parametrize("axis", [0, 1, 2, -1, -3])
def test_stack_and_unstack(axis):
    a, b = A, A + 100
    expect(tf.stack([a, b], axis=axis), np.stack([a, b], axis))
    parts = tf.unstack(np.stack([a, b], axis), axis=axis)
    assert len(parts) == 2
    expect(parts[0], a)
    expect(parts[1], b)


def test_stack_of_scalars_and_nothing():
    expect(tf.stack([1, 2, 3]), np.int32([1, 2, 3]))
    expect(tf.stack([]), np.float32([]))


def test_stack_errors():
    with raises(tf.errors.InvalidArgumentError, "Shapes of all inputs must match: "
                "values[0].shape = [2] != values[1].shape = [3]", "[Op:Pack]"):
        tf.stack([tf.constant([1, 2]), tf.constant([3, 4, 5])])
    with raises(ValueError, "Argument `axis` = 3 not in range [-2, 2)"):
        tf.stack([tf.constant([1, 2]), tf.constant([3, 4])], axis=3)


def test_unstack_errors():
    with raises(ValueError, "Argument `axis` = 1 not in range [-1, 1)"):
        tf.unstack(tf.constant([1, 2]), axis=1)
    with raises(tf.errors.InvalidArgumentError, "Input shape axis 0 must equal 3, got shape [2,3]",
                "[Op:Unpack]"):
        tf.unstack(A, num=3)


@pytest.mark.parametrize("axis,ref_shape", [
    (None, (2,)), ([2], (1, 2)), (-1, (1, 2)), ([0, 2], (2,)), ([0, 0], (2, 1)),
])
def test_squeeze(axis, ref_shape):
    x = np.arange(2, dtype=np.float32).reshape(1, 2, 1)
    expect(tf.squeeze(x, axis), x.reshape(ref_shape))


def test_squeeze_errors():
    x = np.zeros((1, 2, 1), np.float32)
    with raises(tf.errors.InvalidArgumentError, "Can not squeeze dim[1], expected a dimension of "
                                                "1, got 2"):
        tf.squeeze(x, axis=1)
    with raises(tf.errors.InvalidArgumentError, "Tried to squeeze dim index 3 for tensor with 3 "
                                                "dimensions."):
        tf.squeeze(x, axis=3)


@pytest.mark.parametrize("axis", [0, 1, 2, -1, -3, [0]])
def test_expand_dims(axis):
    ref_axis = axis[0] if isinstance(axis, list) else axis
    expect(tf.expand_dims(A, axis), np.expand_dims(A, ref_axis))


def test_expand_dims_errors():
    with raises(tf.errors.InvalidArgumentError, "Tried to expand dim index 3 for tensor with 1 "
                                                "dimensions."):
        tf.expand_dims(tf.constant([1, 2]), 3)
    with raises(tf.errors.InvalidArgumentError, "'dim' must be a tensor with a single value"):
        tf.expand_dims(tf.constant([1, 2]), [0, 1])


@pytest.mark.parametrize("multiples", [[2, 3], [1, 1], [0, 2]])
def test_tile(multiples):
    expect(tf.tile(A, multiples), np.tile(A, multiples))


def test_tile_errors():
    with raises(tf.errors.InvalidArgumentError, "Expected multiples argument to be a vector of "
                                                "length 2 but got length 1"):
        tf.tile(A, [2])
    with raises(tf.errors.InvalidArgumentError, "Expected multiples[1] >= 0, but got -1"):
        tf.tile(A, [2, -1])


@pytest.mark.parametrize("begin,size", [([1, 1], [1, -1]), ([0, 0], [2, 3]), ([1, 2], [1, 1]),
                                        ([0, 3], [2, 0])])
def test_slice(begin, size):
    ref = A[tuple(slice(b, A.shape[i] if s == -1 else b + s) for i, (b, s)
                  in enumerate(zip(begin, size)))]
    expect(tf.slice(A, begin, size), ref)


@pytest.mark.parametrize("begin,size,message", [
    ([3, 0], [1, 1], "Expected begin[0] in [0, 2], but got 3"),
    ([-1, 0], [1, 1], "Expected begin[0] in [0, 2], but got -1"),
    ([0, 1], [1, 3], "Expected size[1] in [0, 2], but got 3"),
    ([0, 0], [1, -2], "Expected size[1] in [0, 3], but got -2"),
    ([0, 0], [1], "Expected begin and size arguments to be 1-D tensors of size 2, but got shapes "
                  "[2] and [1] instead."),
])
def test_slice_errors(begin, size, message):
    with raises(tf.errors.InvalidArgumentError, message, "[Op:Slice]"):
        tf.slice(A, begin, size)


def test_shape_size_rank():
    expect(tf.shape(C), np.int32([2, 3, 4]))
    expect(tf.shape(C, out_type=tf.int64), np.int64([2, 3, 4]))
    expect(tf.shape(5), np.int32([]))
    expect(tf.size(C), np.int32(24))
    expect(tf.size(C, out_type=tf.int64), np.int64(24))
    expect(tf.size("abc"), np.int32(1))
    expect(tf.rank(C), np.int32(3))
    expect(tf.rank(5), np.int32(0))


@pytest.mark.parametrize("dims,value,ref", [
    ([2, 3], 7, np.full((2, 3), 7, np.int32)),
    ([2], 7.5, np.float32([7.5, 7.5])),
    ([], "a", np.array(b"a", dtype=object)),
    (tf.constant([2, 1], tf.int64), True, np.ones((2, 1), bool)),
])
def test_fill(dims, value, ref):
    expect(tf.fill(dims, value), ref)


def test_fill_errors():
    with raises(tf.errors.InvalidArgumentError, "value must represent a scalar, got shape [2]",
                "[Op:Fill]"):
        tf.fill([2], tf.constant([1, 2]))
    with raises(tf.errors.InvalidArgumentError, "Dimension -1 must be >= 0", "[Op:Fill]"):
        tf.fill([2, -1], 7)
    with raises(tf.errors.InvalidArgumentError, "Dimension -1 must be >= 0"):
        tf.zeros([-1])


@pytest.mark.parametrize("dtype,zero,one", [
    (tf.float32, np.float32(0), np.float32(1)), (tf.int32, np.int32(0), np.int32(1)),
    (tf.int64, np.int64(0), np.int64(1)), (tf.uint8, np.uint8(0), np.uint8(1)),
    (tf.bool, np.bool_(False), np.bool_(True)), (tf.complex64, np.complex64(0), np.complex64(1)),
    (tf.float16, np.float16(0), np.float16(1)),
])
def test_zeros_and_ones(dtype, zero, one):
    expect(tf.zeros([2, 3], dtype), np.full((2, 3), zero))
    expect(tf.ones((2,), dtype=dtype), np.full((2,), one))
    like = tf.constant(np.full((2, 2), one))
    expect(tf.zeros_like(like), np.full((2, 2), zero))
    expect(tf.ones_like(like), np.full((2, 2), one))


def test_zeros_ones_defaults_and_conversions():
    expect(tf.zeros([2]), np.float32([0, 0]))
    expect(tf.ones(3), np.float32([1, 1, 1]))
    expect(tf.zeros(tf.constant([2, 2])), np.zeros((2, 2), np.float32))
    expect(tf.zeros([2], tf.string), [b"", b""])
    expect(tf.zeros_like(tf.constant(A), dtype=tf.float32), np.zeros((2, 3), np.float32))
    expect(tf.ones_like([1, 2]), np.int32([1, 1]))
    expect(tf.ones_like(tf.constant([1.0]), dtype=tf.int64), np.int64([1]))


def test_strings_zero_to_empty_and_have_no_one():
    expect(tf.zeros_like(tf.constant(["a", "b"])), [b"", b""])
    with raises(tf.errors.InvalidArgumentError, "attr 'T' of string", "[Op:OnesLike]"):
        tf.ones_like(tf.constant(["a"]))


@pytest.mark.parametrize("x,shape", [(np.int32([1, 2]), [3, 2]), (np.int32([[1], [2]]), [2, 3]),
                                     (np.float32(5), [2, 2]), (A, (2, 2, 3))])
def test_broadcast_to(x, shape):
    expect(tf.broadcast_to(x, shape), np.broadcast_to(x, shape))


@pytest.mark.parametrize("x,shape,message", [
    ([1, 2, 3], [2], "Incompatible shapes: [3] vs. [2]"),
    ([1, 2], [3, 3], "Incompatible shapes: [2] vs. [3,3]"),
    ([[1, 2]], [2], "Rank of input (2) must be no greater than rank of output shape (1)."),
])
def test_broadcast_to_errors(x, shape, message):
    with raises(tf.errors.InvalidArgumentError, message, "[Op:BroadcastTo]"):
        tf.broadcast_to(tf.constant(x), shape)


@pytest.mark.parametrize("paddings,mode,np_mode", [
    ([[1, 0], [0, 2]], "CONSTANT", "constant"), ([[1, 1], [2, 2]], "REFLECT", "reflect"),
    ([[2, 2], [1, 3]], "SYMMETRIC", "symmetric"), ([[1, 0], [0, 1]], "reflect", "reflect"),
])
def test_pad(paddings, mode, np_mode):
    expect(tf.pad(A, paddings, mode=mode), np.pad(A, paddings, mode=np_mode))


def test_pad_constant_values():
    expect(tf.pad(A, [[1, 0], [0, 2]], constant_values=9),
           np.pad(A, [[1, 0], [0, 2]], constant_values=9))


@pytest.mark.parametrize("paddings,mode,message", [
    ([[1, 1]], "CONSTANT", "The first dimension of paddings must be the rank of inputs[1,2] "
                           "[2,3]"),
    ([[-1, 0], [0, 0]], "CONSTANT", "Paddings must be non-negative: -1 0"),
    ([[2, 2], [0, 0]], "REFLECT", "paddings must be less than the dimension size: 2, 2 not less "
                                  "than 2"),
    ([[3, 0], [0, 0]], "SYMMETRIC", "paddings must be no greater than the dimension size: 3, 0 "
                                    "greater than 2"),
])
def test_pad_errors(paddings, mode, message):
    with raises(tf.errors.InvalidArgumentError, message):
        tf.pad(A, paddings, mode=mode)


def test_pad_bad_mode():
    with raises(ValueError, 'Value of argument `mode` expected to be one of "CONSTANT", '
                            '"REFLECT", or "SYMMETRIC". Received `mode` = FOO'):
        tf.pad(A, [[1, 1], [1, 1]], mode="FOO")


@pytest.mark.parametrize("axis", [[0], [1], [-1], [0, 1]])
def test_reverse(axis):
    expect(tf.reverse(A, axis), np.flip(A, axis))


def test_reverse_errors():
    with raises(tf.errors.InvalidArgumentError, "'axis'[0] = 1 is out of valid range [0, 0"):
        tf.reverse(tf.constant([1, 2]), [1])
    with raises(tf.errors.InvalidArgumentError, "axis 0 specified more than once."):
        tf.reverse(tf.constant([1, 2]), [0, 0])


@pytest.mark.parametrize("shift,axis", [(1, 0), (-1, 1), ([1, -1], [0, 1]), ([2, 1], [1, 1])])
def test_roll(shift, axis):
    expect(tf.roll(A, shift, axis), np.roll(A, shift, axis if np.ndim(axis) == 0 else
                                            tuple(axis)))


def test_roll_errors():
    with raises(tf.errors.InvalidArgumentError, "shift and axis must have the same size"):
        tf.roll(tf.constant([1, 2, 3]), [1], [0, 0])
    with raises(tf.errors.InvalidArgumentError, "axis 1 is out of range"):
        tf.roll(tf.constant([1, 2, 3]), 1, 1)


@pytest.mark.parametrize("splits,axis,ref_sizes", [
    (3, 1, [1, 1, 1]), (2, 0, [1, 1]), ([1, 2], 1, [1, 2]), ([2, -1], 1, [2, 1]),
    ([0, 3], -1, [0, 3]),
])
def test_split(splits, axis, ref_sizes):
    parts = tf.split(A, splits, axis=axis)
    refs = np.split(A, np.cumsum(ref_sizes)[:-1], axis=axis)
    assert len(parts) == len(refs)
    for part, ref in zip(parts, refs):
        expect(part, ref)


@pytest.mark.parametrize("splits,axis,error,message", [
    (4, 1, tf.errors.InvalidArgumentError, "Number of ways to split should evenly divide the "
                                           "split dimension, but got split_dim 1 (size = 3) and "
                                           "num_split 4"),
    (0, 1, tf.errors.InvalidArgumentError, "Value for attr 'num_split' of 0 must be at least "
                                           "minimum 1"),
    (2, 2, tf.errors.InvalidArgumentError, "-input rank(-2) <= split_dim < input rank (2), but "
                                           "got 2"),
    ([2, -1, -1], 1, tf.errors.InvalidArgumentError, "There can only be one -1 in the input."),
    ([1, 1], 1, tf.errors.InvalidArgumentError, "Determined shape must either match input shape "
                                                "along split_dim exactly if fully specified, or "
                                                "be less than the size of the input along "
                                                "split_dim if not fully specified.  Got: 2"),
])
def test_split_errors(splits, axis, error, message):
    with raises(error, message):
        tf.split(A, splits, axis=axis)


def test_ensure_shape():
    expect(tf.ensure_shape(tf.constant([1, 2]), [2]), np.int32([1, 2]))
    expect(tf.ensure_shape(tf.constant([1, 2]), [None]), np.int32([1, 2]))
    with raises(tf.errors.InvalidArgumentError, "Shape of tensor input [2] is not compatible with "
                                                "expected shape [3].", "[Op:EnsureShape]"):
        tf.ensure_shape(tf.constant([1, 2]), [3])
