"""Gathering, scattering, selecting and generating: gather, gather_nd, scatter_nd, where,
one_hot, clip_by_value, top_k, sort/argsort, unique, range, linspace, boolean_mask,
sequence_mask.

Expected behaviour (values, dtypes, error types and messages) was taken from TensorFlow 2.21.
"""

import numpy as np
import pytest

import tracegraph as tf

from .oracle import expect, raises

P = np.array([[1, 2, 3], [4, 5, 6]], np.int32)
F = np.arange(24, dtype=np.float32).reshape(2, 3, 4)


def _batched_take(params, indices, axis, batch_dims):
    """NumPy oracle for gather with batch dims: one np.take per batch element."""
    if batch_dims == 0:
        return np.take(params, indices, axis=axis)
    return np.stack([_batched_take(p, i, axis - 1, batch_dims - 1)
                     for p, i in zip(params, indices)])


@pytest.mark.parametrize("params,indices,axis,batch_dims", [
    (np.int32([10, 20, 30]), [2, 0], None, 0),
    (P, [2, 0], 1, 0),
    (P, [[0, 1], [1, 0]], None, 0),
    (P, 1, 0, 0),
    (P, 2, -1, 0),
    (F, [[3, 0]], 2, 0),
    (P, [[0, 2], [1, 0]], 1, 1),
    (P, [[0], [2]], None, 1),  # axis defaults to batch_dims
    (P, [[0], [2]], -1, -1),
    (F, [[1, 0], [2, 2]], 1, 1),
    (F, [[[3], [0], [1]], [[2], [2], [0]]], 2, 2),
    (np.array([b"a", b"b"], dtype=object), [1, 1, 0], 0, 0),
])
def test_gather(params, indices, axis, batch_dims):
    ax = batch_dims if axis is None else axis
    ax %= np.ndim(params)
    bd = batch_dims + np.ndim(indices) if batch_dims < 0 else batch_dims
    ref = _batched_take(params, np.asarray(indices), ax, bd)
    expect(tf.gather(params, indices, axis=axis, batch_dims=batch_dims), ref)


def test_gather_index_dtypes_and_empty():
    expect(tf.gather(P, tf.constant([1], tf.int64)), P[[1]])
    expect(tf.gather(P, tf.zeros([0], tf.int32)), np.zeros((0, 3), np.int32))


@pytest.mark.parametrize("params,indices,kwargs,message", [
    ([1.0], [1], {}, "indices[0] = 1 is not in [0, 1)"),
    (P, [[0, 5]], {}, "indices[0,1] = 5 is not in [0, 2)"),
    (P, [-1], {}, "indices[0] = -1 is not in [0, 2)"),
    (P, [[0], [7]], {"axis": 1, "batch_dims": 1}, "indices[1,0] = 7 is not in [0, 3)"),
    (P, [0], {"axis": 2}, "Shape must be at least rank 3 but is rank 2"),
    (P, [0], {"axis": -3}, "Shape must be at least rank 3 but is rank 2"),
    (5, [0], {}, "params must be at least 1 dimensional"),
    (P, [[0], [1]], {"axis": 1, "batch_dims": 3}, "Expected batch_dims in the range [-2, 2], "
                                                  "but got 3"),
    (P, [[0], [1]], {"axis": 1, "batch_dims": 2}, "batch_dims (2) must be less than "
                                                  "rank(params) (2)."),
    (P, [[0, 1]], {"axis": 1, "batch_dims": 1}, "params.shape[0]: 2 should be equal to "
                                                "indices.shape[0]: 1"),
])
def test_gather_errors(params, indices, kwargs, message):
    with raises(tf.errors.InvalidArgumentError, message, "[Op:GatherV2]"):
        tf.gather(params, indices, **kwargs)


def test_gather_rejects_float_indices():
    with raises(tf.errors.InvalidArgumentError, "Value for attr 'Tindices' of float32"):
        tf.gather(tf.constant([1, 2]), [0.5])


@pytest.mark.parametrize("params,indices,batch_dims,ref", [
    (P, [[0, 1], [1, 2]], 0, np.int32([2, 6])),
    (P, [[1]], 0, np.int32([[4, 5, 6]])),
    (P, [[[0, 0]], [[1, 1]]], 0, np.int32([[1], [5]])),
    (F, [[1, 0], [0, 2]], 0, F[[1, 0], [0, 2]]),
    (F, [[1], [0]], 1, np.stack([F[0, 1], F[1, 0]])),
    (F, [[[0, 1]], [[2, 3]]], 1, np.float32([[F[0, 0, 1]], [F[1, 2, 3]]])),
    (P, [[1], [0]], 1, np.int32([2, 4])),
])
def test_gather_nd(params, indices, batch_dims, ref):
    expect(tf.gather_nd(params, indices, batch_dims=batch_dims), ref)


@pytest.mark.parametrize("indices,batch_dims,message", [
    ([[2, 0]], 0, "indices[0] = [2, 0] does not index into param shape [2,3]"),
    ([[0, -1]], 0, "indices[0] = [0, -1] does not index into param shape [2,3]"),
    ([[3], [0]], 1, "indices[0] = [0, 3] does not index into param shape [2,3]"),
    ([[0, 0, 0]], 0, "index innermost dimension length must be <= params rank; saw: 3 vs. 2"),
    (1, 0, "indices must be at least a vector"),
    ([[0], [0], [0]], 1, "params.shape[0]: 2 should be equal to indices.shape[0]: 3"),
])
def test_gather_nd_errors(indices, batch_dims, message):
    with raises(tf.errors.InvalidArgumentError, message, "[Op:GatherNd]"):
        tf.gather_nd(P, indices, batch_dims=batch_dims)


@pytest.mark.parametrize("indices,updates,shape", [
    ([[0], [2]], np.int32([5, 6]), [4]),
    ([[0], [0], [3]], np.float32([1.5, 2.0, 4.0]), [4]),  # duplicates add up
    ([[1, 0], [0, 2]], np.int32([5, 6]), [2, 3]),
    ([[1]], np.int32([[7, 8, 9]]), [2, 3]),
    ([[0], [1]], np.array([True, True]), [3]),
])
def test_scatter_nd(indices, updates, shape):
    ref = np.zeros(shape, updates.dtype)
    for idx, upd in zip(indices, updates):
        ref[tuple(idx)] += upd
    expect(tf.scatter_nd(indices, updates, shape), ref)


@pytest.mark.parametrize("indices,updates,shape,message", [
    ([[0], [2]], [5, 6, 7], [4], "Dimensions [0,1) of indices[shape=[2,1]] must match "
                                 "dimensions [0,1) of updates[shape=[3]]"),
    ([[0], [2]], [[5, 6], [7, 8]], [4, 3], "Dimensions [1,2) of input[shape=[4,3]] must match "
                                           "dimensions [1,2) of updates[shape=[2,2]]"),
    ([[5]], [5], [4], "indices[0] = [5] does not index into shape [4]"),
    ([[-1]], [5], [4], "indices[0] = [-1] does not index into shape [4]"),
])
def test_scatter_nd_errors(indices, updates, shape, message):
    with raises(tf.errors.InvalidArgumentError, message, "[Op:ScatterNd]"):
        tf.scatter_nd(indices, tf.constant(updates), shape)


@pytest.mark.parametrize("cond,x,y", [
    (np.array([True, False, True]), np.int32([1, 2, 3]), np.int32([10, 20, 30])),
    (np.array([[True], [False]]), np.int32([1, 2]), np.int32([10])),
    (np.array(True), np.float32([1, 2]), np.float32([3, 4])),
    (np.array([[True, False]]), np.int32([1, 2]), np.int32([[3], [4]])),
])
def test_where_selects_with_broadcasting(cond, x, y):
    expect(tf.where(cond, x, y), np.where(cond, x, y))


def test_where_with_python_scalars():
    expect(tf.where([True, False], 1.0, 0.0), np.float32([1.0, 0.0]))
    expect(tf.where(tf.constant([True, False]), tf.constant([1, 2]), 5), np.int32([1, 5]))


@pytest.mark.parametrize("cond", [np.array([True, False, True]), np.int32([[1, 0], [0, 3]]),
                                  np.float32([0.0, 1.5]), np.zeros((2, 0), bool)])
def test_where_returns_true_indices(cond):
    expect(tf.where(cond), np.argwhere(cond).astype(np.int64))


def test_where_errors():
    with raises(tf.errors.InvalidArgumentError, "condition [2], then [3], and else [3] must be "
                                                "broadcastable", "[Op:SelectV2]"):
        tf.where(tf.constant([True, False]), tf.constant([1, 2, 3]), tf.constant([1, 2, 3]))
    with raises(tf.errors.InvalidArgumentError, "expected to be a int32 tensor but is a float"):
        tf.where(tf.constant([True, False]), tf.constant([1, 2]), tf.constant([1.0, 2.0]))
    with raises(ValueError, "x and y must both be non-None or both be None."):
        tf.where(tf.constant([True]), tf.constant([1]))


def _one_hot(indices, depth, on=1.0, off=0.0, axis=-1, dtype=np.float32):
    indices = np.asarray(indices)
    out = np.where(indices[..., None] == np.arange(depth), on, off).astype(dtype)
    return out if axis == -1 else np.moveaxis(out, -1, axis)


@pytest.mark.parametrize("indices,depth,kwargs,ref", [
    ([0, 2, -1], 3, {}, _one_hot([0, 2, -1], 3)),
    ([0, 2], 3, {"on_value": 5, "off_value": -1}, _one_hot([0, 2], 3, 5, -1, dtype=np.int32)),
    ([0, 2], 3, {"axis": 0}, _one_hot([0, 2], 3, axis=0)),
    ([[0, 2]], 3, {"axis": 1}, _one_hot([[0, 2]], 3, axis=1)),
    ([0, 2], 3, {"dtype": tf.int64}, _one_hot([0, 2], 3, 1, 0, dtype=np.int64)),
    ([0, 2], 3, {"off_value": 2.0}, _one_hot([0, 2], 3, 1.0, 2.0)),
    (tf.constant([1], tf.int64), 2, {}, _one_hot([1], 2)),
    ([1, 0], 0, {}, np.zeros((2, 0), np.float32)),
])
def test_one_hot(indices, depth, kwargs, ref):
    expect(tf.one_hot(indices, depth, **kwargs), ref)


@pytest.mark.parametrize("kwargs,error,message", [
    ({"on_value": 1.0, "dtype": tf.int32}, TypeError,
     "dtype <dtype: 'float32'> of on_value does not match dtype parameter <dtype: 'int32'>"),
    ({"on_value": 1, "off_value": 0.0}, TypeError,
     "dtype <dtype: 'int32'> of on_value does not match dtype <dtype: 'float32'> of off_value"),
    ({"axis": -2}, tf.errors.InvalidArgumentError,
     "Expected axis to be -1 or between [0, 2).  But received: -2"),
    ({"axis": 2}, tf.errors.InvalidArgumentError,
     "Expected axis to be -1 or between [0, 2).  But received: 2"),
])
def test_one_hot_errors(kwargs, error, message):
    with raises(error, message):
        tf.one_hot([0, 2], 3, **kwargs)
    with raises(tf.errors.InvalidArgumentError, "depth must be non-negative, got: -1"):
        tf.one_hot([0, 2], -1)


@pytest.mark.parametrize("t,lo,hi", [
    (np.int32([-1, 5, 10]), 0, 6),
    (np.float32([[-1.0, 5.0], [2.0, 0.5]]), np.float32([0.0, 1.0]), np.float32(3.0)),
    (np.int32([-1, 5]), 3, 0),  # min > max: every value becomes min, as in TF
])
def test_clip_by_value(t, lo, hi):
    expect(tf.clip_by_value(t, lo, hi), np.maximum(np.minimum(t, hi), lo))


def test_clip_by_value_cannot_grow_the_tensor():
    with raises(tf.errors.InvalidArgumentError, "Incompatible shapes: [2] vs. [3]"):
        tf.clip_by_value(tf.constant([1, 2]), [0, 0, 0], 1)


@pytest.mark.parametrize("x,k", [
    (np.int32([1, 3, 2, 3]), 2), (np.int32([1, 3, 2, 3]), 4),
    (np.float32([[1.0, 3.0, 2.0], [4.0, 0.0, 5.0]]), 1), (np.float32([1.0, 2.0]), 0),
    (np.float32([1.0, np.nan, 2.0]), 3),  # NaN ranks last, as TF's k == n does
])
def test_top_k(x, k):
    order = np.argsort(-np.where(np.isnan(x), -np.inf, x), axis=-1, kind="stable")[..., :k]
    result = tf.math.top_k(x, k)
    expect(result.values, np.take_along_axis(x, order, -1))
    expect(result.indices, order.astype(np.int32))
    values, indices = result  # a (values, indices) pair
    expect(indices, order.astype(np.int32))


def test_top_k_default_and_errors():
    expect(tf.math.top_k(tf.constant([1, 3, 2])).values, np.int32([3]))
    with raises(tf.errors.InvalidArgumentError, "input must have at least k columns. Had 2, "
                                                "needed 3", "[Op:TopKV2]"):
        tf.math.top_k(tf.constant([1, 3]), 3)
    with raises(tf.errors.InvalidArgumentError, "input must be >= 1-D, got shape []"):
        tf.math.top_k(tf.constant(5), 1)
    with raises(tf.errors.InvalidArgumentError, "Need k >= 0, got -1"):
        tf.math.top_k(tf.constant([1, 2]), -1)


@pytest.mark.parametrize("x", [
    np.int32([3, 1, 2, 1]), np.int32([-(2**31), 5, 0, 2**31 - 1]), np.uint8([3, 255, 0, 2]),
    np.float32([3.0, -1.5, 2.0, -1.5]), np.float32([[3.0, 1.0], [0.0, 2.0]]),
    np.float64([3.0, np.nan, 1.0]), np.int64([[5, -5, 0], [1, 1, -1]]),
])
@pytest.mark.parametrize("axis", [-1, 0])
def test_sort_and_argsort_ascending(x, axis):
    expect(tf.sort(x, axis=axis), np.sort(x, axis=axis))
    expect(tf.argsort(x, axis=axis), np.argsort(x, axis=axis, kind="stable").astype(np.int32))


@pytest.mark.parametrize("x", [np.int32([3, 1, 2, 1]), np.uint16([300, 2, 7]),
                               np.float32([[3.0, 1.0], [0.0, 2.0]])])
def test_sort_and_argsort_descending(x):
    expect(tf.sort(x, direction="DESCENDING"), -np.sort(-x.astype(np.int64)).astype(x.dtype)
           if x.dtype.kind in "iu" else -np.sort(-x))
    ref = np.argsort(-x.astype(np.float64), kind="stable").astype(np.int32)  # ties: lower first
    expect(tf.argsort(x, direction="DESCENDING"), ref)
    expect(tf.argsort(x, direction="DESCENDING", stable=True), ref)


def test_sort_errors():
    with raises(ValueError, "Argument `direction` should be one of ASCENDING, DESCENDING. "
                            "Received: direction=UP"):
        tf.sort(tf.constant([3, 1]), direction="UP")
    with raises(tf.errors.InvalidArgumentError, "slice index 2 of dimension 0 out of bounds."):
        tf.sort(tf.constant([[3, 1], [0, 2]]), axis=2)
    with raises(tf.errors.InvalidArgumentError, "slice index -1 of dimension 0 out of bounds."):
        tf.sort(tf.constant(5))


@pytest.mark.parametrize("x,out_idx", [
    (np.int32([3, 1, 3, 2, 1]), tf.int32), (np.int32([3, 1, 3]), tf.int64),
    (np.array([b"b", b"a", b"b"], dtype=object), tf.int32), (np.int32([]), tf.int32),
])
def test_unique_keeps_first_occurrence_order(x, out_idx):
    _, first = np.unique(x, return_index=True)
    y = x[np.sort(first)]
    idx = np.array([list(y).index(v) for v in x], out_idx.as_numpy_dtype)
    result = tf.unique(x, out_idx=out_idx)
    expect(result.y, y)
    expect(result.idx, idx)


def test_unique_needs_a_vector():
    with raises(tf.errors.InvalidArgumentError, "unique expects a 1D vector.", "[Op:Unique]"):
        tf.unique(tf.constant([[1, 2]]))


@pytest.mark.parametrize("args,kwargs,ref", [
    ((5,), {}, np.arange(5, dtype=np.int32)),
    ((1, 10, 3), {}, np.arange(1, 10, 3, dtype=np.int32)),
    ((10, 1, -3), {}, np.arange(10, 1, -3, dtype=np.int32)),
    ((5.0,), {}, np.arange(5, dtype=np.float32)),
    ((0, 1, 0.25), {}, np.arange(0, 1, 0.25, dtype=np.float32)),
    ((0, 2.5), {}, np.arange(0, 2.5, dtype=np.float32)),
    ((1, 5), {"dtype": tf.float32}, np.arange(1, 5, dtype=np.float32)),
    ((1, 5), {"dtype": tf.int64}, np.arange(1, 5, dtype=np.int64)),
    ((3,), {"dtype": tf.float64}, np.arange(3, dtype=np.float64)),
    ((tf.constant(3, tf.int64),), {}, np.arange(3, dtype=np.int64)),
    ((1, tf.constant(3, tf.int64)), {}, np.arange(1, 3, dtype=np.int64)),  # widest dtype wins
    ((tf.constant(1.5, tf.float64), 3), {}, np.arange(1.5, 3, dtype=np.float64)),
    ((tf.constant(5),), {"delta": 2}, np.arange(0, 5, 2, dtype=np.int32)),
    ((2**31 - 2, 2**31 - 1), {}, np.int32([2**31 - 2])),
])
def test_range(args, kwargs, ref):
    expect(tf.range(*args, **kwargs), ref)


@pytest.mark.parametrize("args,message", [
    ((1, 5, 0), "Requires delta != 0"),
    ((5, 1, 1), "Requires start <= limit when delta > 0: 5/1"),
    ((1, 5, -1), "Requires start >= limit when delta < 0: 1/5"),
])
def test_range_errors(args, message):
    with raises(tf.errors.InvalidArgumentError, message, "[Op:Range]"):
        tf.range(*args)


@pytest.mark.parametrize("start,stop,num,ref", [
    (0.0, 1.0, 5, np.linspace(0, 1, 5, dtype=np.float32)),
    (0, 10, 3, np.linspace(0, 10, 3)),  # integers become float64
    (tf.constant(0.0, tf.float64), 1.0, 3, np.linspace(0, 1, 3)),
    (0.0, 1.0, 1, np.float32([0.0])),
    (0.0, 1.0, 0, np.float32([])),
])
def test_linspace(start, stop, num, ref):
    expect(tf.linspace(start, stop, num), ref)


def test_linspace_batched_and_along_an_axis():
    start, stop = np.float32([0.0, 10.0]), np.float32([1.0, 20.0])
    expect(tf.linspace(start, stop, 3), np.linspace(start, stop, 3, dtype=np.float32))
    expect(tf.linspace(start, stop, 3, axis=1),
           np.linspace(start, stop, 3, axis=1, dtype=np.float32))
    expect(tf.linspace(start, stop, 3, axis=-1),
           np.linspace(start, stop, 3, axis=-1, dtype=np.float32))
    with raises(tf.errors.InvalidArgumentError, "Requires num >= 0: -1", "[Op:LinSpace]"):
        tf.linspace(0.0, 1.0, -1)


@pytest.mark.parametrize("tensor,mask,axis", [
    (np.int32([1, 2, 3]), np.array([True, False, True]), None),
    (P, np.array([False, True]), None),
    (P, np.array([[True, False, True], [False, True, True]]), None),
    (P, np.array([False, True, True]), 1),
    (F, np.array([[True, False, True], [False, False, True]]), None),
])
def test_boolean_mask(tensor, mask, axis):
    ax = 0 if axis is None else axis
    moved = np.moveaxis(tensor, ax, 0) if mask.ndim == 1 else tensor
    ref = moved[mask] if mask.ndim > 1 else np.moveaxis(moved[mask], 0, ax)
    expect(tf.boolean_mask(tensor, mask, axis=axis), ref)


@pytest.mark.parametrize("mask,axis,message", [
    ([[True, False]], None, "Shapes (2, 3) and (1, 2) are incompatible"),
    ([True, False], 1, "Shapes (3,) and (2,) are incompatible"),
    (True, None, "mask cannot be scalar."),
])
def test_boolean_mask_errors(mask, axis, message):
    with raises(ValueError, message):
        tf.boolean_mask(P, mask, axis=axis)


@pytest.mark.parametrize("lengths,maxlen,dtype", [
    ([1, 3, 2], 4, tf.bool), ([1, 3, 2], None, tf.bool), ([1, 2], 3, tf.float32),
    ([[1], [2]], 2, tf.bool), (tf.constant([1, 3], tf.int64), 4, tf.int32),
])
def test_sequence_mask(lengths, maxlen, dtype):
    n = np.asarray(lengths)
    m = int(n.max()) if maxlen is None else maxlen
    ref = (np.arange(m) < n[..., None]).astype(dtype.as_numpy_dtype)
    expect(tf.sequence_mask(lengths, maxlen, dtype=dtype), ref)
