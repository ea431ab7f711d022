"""Tensor indexing (`t[1:, ::2, tf.newaxis, ..., -1]`) and StridedSlice, against NumPy's basic
indexing (the same rules). Error messages as TensorFlow 2.21 gives them eagerly.
"""

import numpy as np
import pytest

import tracegraph as tf
from tracegraph.library.slicing import strided_slice

from .oracle import expect, raises

X = np.arange(24, dtype=np.int32).reshape(2, 3, 4)

KEYS = [
    (slice(1, None), slice(None, None, 2), None, Ellipsis, -1),  # the SPEC's example
    0, -1, (1, 2), (-1, 1), (0, 0, 0), (Ellipsis, 1), (slice(None), None), (None, Ellipsis, None),
    (slice(None, None, -1), slice(None, None, -2), slice(1, 3)), (slice(5, None), slice(10, None)),
    (slice(-4, 10),), (Ellipsis,), (1, Ellipsis, slice(1, 3)), (slice(1, 2), 1, None, 2),
    (slice(3, 0, -1),), (slice(-1, -4, -1), slice(None, None, 3)), (Ellipsis, None),
]


@pytest.mark.parametrize("key", KEYS, ids=str)
def test_getitem_matches_numpy(key):
    expect(tf.constant(X)[key], X[key])


def test_getitem_with_the_spec_key_spelled_out():
    t = tf.constant(X)
    expect(t[1:, ::2, tf.newaxis, ..., -1], X[1:, ::2, None, ..., -1])


def test_getitem_with_scalar_integer_tensors():
    t = tf.constant(X)
    expect(t[tf.constant(1)], X[1])
    expect(t[tf.constant(1, tf.int64), 1:tf.constant(3, tf.int64)], X[1, 1:3])
    expect(t[:, tf.constant(-1)], X[:, -1])
    expect(t[tf.constant(1), 1:tf.constant(3)], X[1, 1:3])  # mixed index dtypes are cast


def test_getitem_of_scalars_strings_and_floats():
    expect(tf.constant(5)[...], np.int32(5))
    expect(tf.constant(5)[tf.newaxis], np.int32([5]))
    expect(tf.constant(["a", "b"])[1], np.array(b"b", dtype=object))
    f = np.float32([[1.5, 2.5], [3.5, 4.5]])
    expect(tf.constant(f)[:, ::-1], f[:, ::-1])


@pytest.mark.parametrize("key,message", [
    (2, "slice index 2 of dimension 0 out of bounds."),
    (-3, "slice index -1 of dimension 0 out of bounds."),  # TF reports -3 + 2
    ((0, 3), "slice index 3 of dimension 1 out of bounds."),
    ((0, 0, 0, 0), "Index out of range using input dim 3; input has only 3 dims"),
    ((Ellipsis, Ellipsis), "Multiple ellipses in slice spec not allowed"),
    (slice(None, None, 0), "strides[0] must be non-zero"),
])
def test_getitem_errors(key, message):
    with raises(tf.errors.InvalidArgumentError, message, "[Op:StridedSlice]"):
        tf.constant(X)[key]


def test_slicing_a_scalar():
    with raises(tf.errors.InvalidArgumentError, "Attempting to slice scalar input."):
        tf.constant(5)[0]


@pytest.mark.parametrize("key", [1.5, "a", True, tf.constant(1.0), tf.constant([0, 1])])
def test_getitem_rejects_other_index_types(key):
    with raises(TypeError, "Only integers, slices (`:`), ellipsis (`...`), tf.newaxis (`None`) "
                           "and scalar tf.int32/tf.int64 tensors are valid indices"):
        tf.constant(X)[key]


M = np.arange(12, dtype=np.int32).reshape(3, 4)


@pytest.mark.parametrize("args,kwargs,ref", [
    (([0, 1], [3, 4], [2, 2]), {}, M[0:3:2, 1:4:2]),
    (([1, 0], [2, 0], [1, 1]), {"shrink_axis_mask": 1, "end_mask": 2}, M[1, :]),
    (([0], [2]), {}, M[0:2]),
    (([2, 3], [0, 0], [-1, -1]), {"end_mask": 3}, M[2::-1, 3::-1]),
    (([0, 0, 0], [0, 0, 0], [1, 1, 1]), {"ellipsis_mask": 1, "new_axis_mask": 2},
     M[..., None, 0:0]),
    (([0, 0], [0, 0], [1, 1]), {"ellipsis_mask": 1, "new_axis_mask": 2}, M[..., None]),
    (([1, 0], [0, 0], [1, 1]), {"begin_mask": 0, "end_mask": 3}, M[1:, :]),
])
def test_strided_slice_masks(args, kwargs, ref):
    expect(strided_slice(tf.constant(M), *args, **kwargs), ref)


def test_strided_slice_zero_stride():
    with raises(tf.errors.InvalidArgumentError, "strides[1] must be non-zero"):
        strided_slice(tf.constant(M), [0, 0], [2, 2], [1, 0])
