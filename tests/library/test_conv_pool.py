"""Convolutions and pooling (1-D to 3-D, transposed, depthwise, separable, dilated) against the
values and gradients TensorFlow 2.21 computes (fixtures/conv_pool.npz, made by
fixtures/make_case_fixtures.py from the cases in conv_pool_cases.py), eagerly and in tf.function;
channels-first layouts against the channels-last results; the graphs' op types; errors."""

import pathlib

import numpy as np
import pytest

import tracegraph as tf

from .conv_pool_cases import CASES, DW, W1, W2, W3, X1, X2, X3
from .oracle import raises

REFERENCE = np.load(pathlib.Path(__file__).with_name("fixtures") / "conv_pool.npz")


def _upstream(shape):
    return np.random.default_rng(11).standard_normal(shape).astype(np.float32)


def _run(fn, inputs):
    xs = [tf.constant(x) for x in inputs]
    with tf.GradientTape() as tape:
        tape.watch(xs)
        out = fn(tf, *xs)
        outs = list(out) if isinstance(out, (tuple, list)) else [out]
        loss = tf.reduce_sum(tf.cast(outs[0], tf.float32) *
                             _upstream(outs[0].shape.as_list()))
    return outs, tape.gradient(loss, xs)


@pytest.mark.parametrize("name", sorted(CASES))
@pytest.mark.parametrize("mode", ["eager", "function"])
def test_matches_tensorflow(name, mode):
    fn, inputs = CASES[name]
    run = _run if mode == "eager" else tf.function(lambda *xs: _run(fn, xs))
    outs, grads = _run(fn, inputs) if mode == "eager" else run(*inputs)
    for i, out in enumerate(outs):
        want = REFERENCE[f"{name}/out{i}"]
        assert out.dtype.as_numpy_dtype == want.dtype and out.shape.as_list() == list(want.shape)
        np.testing.assert_allclose(out.numpy(), want, rtol=1e-4, atol=1e-4)
    for i, g in enumerate(grads):
        key = f"{name}/grad{i}"
        if key in REFERENCE:
            np.testing.assert_allclose(g.numpy(), REFERENCE[key], rtol=1e-4, atol=1e-4)


def _cf(x):   # channels-last -> channels-first
    return np.moveaxis(x, -1, 1)


@pytest.mark.parametrize("name,fn", [
    ("convolution_1d_same_stride2",
     lambda x, w: tf.nn.convolution(x, w, 2, "SAME", data_format="NCW")),
    ("convolution_2d_same",
     lambda x, w: tf.nn.convolution(x, w, [2, 1], "SAME", data_format="NCHW")),
    ("convolution_3d_same_stride2",
     lambda x, w: tf.nn.convolution(x, w, 2, "SAME", data_format="NCDHW")),
    ("convolution_3d_dilated", lambda x, w: tf.nn.convolution(
        x, w, padding="SAME", dilations=[1, 2, 2], data_format="NCDHW")),
    ("depthwise_same_stride2",
     lambda x, w: tf.nn.depthwise_conv2d(x, w, [1, 1, 2, 2], "SAME", data_format="NCHW")),
    ("max_pool3d_same", lambda x: tf.nn.max_pool3d(x, 2, 2, "SAME", data_format="NCDHW")),
    ("avg_pool3d_same",
     lambda x: tf.nn.avg_pool3d(x, [3, 2, 3], [2, 2, 1], "SAME", data_format="NCDHW")),
    ("max_pool1d", lambda x: tf.nn.max_pool1d(x, 3, 2, "SAME", data_format="NCW")),
    ("pool_max_dilated", lambda x: tf.nn.pool(x, [2, 2], "MAX", padding="VALID",
                                              dilations=[2, 2], data_format="NCHW")),
])
def test_channels_first_equals_channels_last(name, fn):
    _, inputs = CASES[name]
    inputs = (_cf(inputs[0]),) + tuple(inputs[1:])   # the data channels-first, filters as is
    for run in (fn, tf.function(fn)):
        out = run(*inputs)
        np.testing.assert_allclose(out.numpy(), _cf(REFERENCE[f"{name}/out0"]), rtol=1e-4,
                                   atol=1e-4)


def test_channels_first_gradients():
    x, w = tf.constant(_cf(X3)), tf.constant(W3)
    with tf.GradientTape() as tape:
        tape.watch([x, w])
        y = tf.nn.conv3d(x, w, [1, 1, 2, 2, 2], "SAME", data_format="NCDHW")
        loss = tf.reduce_sum(y * _cf(_upstream(REFERENCE["convolution_3d_same_stride2/out0"]
                                               .shape)))
    dx, dw = tape.gradient(loss, [x, w])
    np.testing.assert_allclose(dx.numpy(), _cf(REFERENCE["convolution_3d_same_stride2/grad0"]),
                               rtol=1e-4, atol=1e-4)
    np.testing.assert_allclose(dw.numpy(), REFERENCE["convolution_3d_same_stride2/grad1"],
                               rtol=1e-4, atol=1e-4)


def _op_types(fn, *specs):
    graph = tf.function(fn).get_concrete_function(*specs).graph
    return [op.type for op in graph.get_operations()
            if op.type not in ("Placeholder", "Const", "Identity")]


def test_graphs_read_like_tensorflows():
    s1 = tf.TensorSpec([2, 9, 3])
    assert _op_types(lambda x: tf.nn.convolution(x, W1, padding="SAME"), s1) == [
        "ExpandDims", "ExpandDims", "Conv2D", "Squeeze"]
    assert _op_types(lambda x: tf.nn.convolution(x, W3, padding="SAME"),
                     tf.TensorSpec([2, 5, 6, 4, 3])) == ["Conv3D"]
    assert _op_types(lambda y: tf.nn.conv2d_transpose(y, W2, [2, 7, 8, 3], 2),
                     tf.TensorSpec([2, 4, 4, 4])) == ["Conv2DBackpropInput"]
    assert _op_types(lambda y: tf.nn.conv3d_transpose(y, W3, [2, 5, 6, 4, 3], 2),
                     tf.TensorSpec([2, 3, 3, 2, 4])) == ["Conv3DBackpropInputV2"]
    assert _op_types(lambda x: tf.nn.depthwise_conv2d(x, DW, [1, 1, 1, 1], "SAME"),
                     tf.TensorSpec([2, 7, 8, 3])) == ["DepthwiseConv2dNative"]
    assert _op_types(lambda x: tf.nn.max_pool(x, 2, 2, "SAME"),
                     tf.TensorSpec([2, 5, 6, 4, 3])) == ["MaxPool3D"]
    assert _op_types(lambda x: tf.nn.avg_pool1d(x, 2, 2, "SAME"), s1) == [
        "ExpandDims", "AvgPool", "Squeeze"]
    assert _op_types(lambda x: tf.nn.pool(x, [2], "MAX", dilations=[2]), s1) == [
        "SpaceToBatchND", "ExpandDims", "MaxPool", "Squeeze", "BatchToSpaceND"]


def test_gradient_graphs_use_tensorflows_backprop_ops():
    def grads(x, w, make):
        with tf.GradientTape() as tape:
            tape.watch([x, w])
            y = make(x, w)
        return tape.gradient(y, [x, w])
    types = _op_types(lambda x, w: grads(x, w, lambda x, w: tf.nn.conv3d(
        x, w, [1, 1, 1, 1, 1], "SAME")), tf.TensorSpec([2, 5, 6, 4, 3]),
        tf.TensorSpec([2, 3, 2, 3, 4]))
    assert {"Conv3DBackpropInputV2", "Conv3DBackpropFilterV2"} <= set(types)
    types = _op_types(lambda x, w: grads(x, w, lambda x, w: tf.nn.depthwise_conv2d(
        x, w, [1, 1, 1, 1], "SAME")), tf.TensorSpec([2, 7, 8, 3]), tf.TensorSpec([3, 3, 3, 2]))
    assert {"DepthwiseConv2dNativeBackpropInput", "DepthwiseConv2dNativeBackpropFilter"} <= \
        set(types)
    types = _op_types(lambda x, w: grads(x, w, lambda x, w: tf.nn.max_pool3d(x, 2, 2, "SAME")),
                      tf.TensorSpec([2, 5, 6, 4, 3]), tf.TensorSpec([1]))
    assert "MaxPool3DGrad" in types


def test_shapes_with_unknown_dims():
    @tf.function(input_signature=[tf.TensorSpec([None, None, 8, 3])])
    def f(x):
        y = tf.nn.conv2d(x, W2, 2, "SAME")
        assert y.shape.as_list() == [None, None, 4, 4]
        z = tf.nn.max_pool(y, 2, 2, "VALID")
        assert z.shape.as_list() == [None, None, 2, 4]
        return tf.nn.conv2d_transpose(y, W2, [tf.shape(x)[0], 7, 8, 3], 2)
    out = f(X2)
    assert out.shape.as_list() == [2, 7, 8, 3]
    assert f.get_concrete_function().structured_outputs.shape.as_list() == [None, 7, 8, 3]


def test_extra_batch_dims_fold_into_one():
    x = np.stack([X2, X2 * 2])             # [2, 2, 7, 8, 3]
    out = tf.nn.conv2d(x, W2, 1, "SAME")
    assert out.shape.as_list() == [2, 2, 7, 8, 4]
    np.testing.assert_allclose(out.numpy()[1], tf.nn.conv2d(X2 * 2, W2, 1, "SAME").numpy(),
                               rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("call,error,message", [
    (lambda: tf.nn.convolution(X2, W2, 2, "SAME", dilations=2), ValueError,
     "`strides > 1` not supported in conjunction with `dilation_rate > 1`"),
    (lambda: tf.nn.convolution(X2, W2, [1, 1, 1], "SAME"), ValueError,
     "strides should be of length 1, 2 or 4. Received: strides=[1, 1, 1] of length 3"),
    (lambda: tf.nn.conv1d(X1, W1, 1, "SAME", data_format="NHWCX"), ValueError,
     "`data_format` must be 'NWC' or 'NCW'. Received: data_format=NHWCX"),
    (lambda: tf.nn.conv3d(X3, W3[..., :2, :], [1, 1, 1, 1, 1], "SAME"),
     tf.errors.InvalidArgumentError,
     "input depth must be evenly divisible by filter depth: 3 vs 2"),
    (lambda: tf.nn.conv3d(X3, W3, [1, 1, 1, 1, 2], "SAME"), tf.errors.UnimplementedError,
     "Current implementation does not yet support strides in the batch and depth dimensions."),
    (lambda: tf.nn.depthwise_conv2d(X2, DW[:, :, :2], [1, 1, 1, 1], "SAME"),
     tf.errors.InvalidArgumentError, "input and filter must have the same depth: 3 vs 2"),
    (lambda: tf.nn.conv2d_transpose(np.ones((2, 4, 3, 4), np.float32), W2, [2, 7, 8, 3], 2),
     tf.errors.InvalidArgumentError, "Conv backprop: Size of out_backprop doesn't match "
                                     "computed: actual = 3, computed = 4"),
    (lambda: tf.nn.conv2d_transpose(np.ones((2, 4, 4, 3), np.float32), W2, [2, 7, 8, 3], 2),
     tf.errors.InvalidArgumentError, "Conv backprop: filter and out_backprop must have the same "
                                     "out_depth"),
    (lambda: tf.nn.conv_transpose(X2, W2, [2, 7], 2), ValueError,
     "`output_shape` must be of length 3, 4 or 5. Received: output_shape=[2, 7] of length 2."),
    (lambda: tf.nn.max_pool(X2[0, 0], 2, 2, "SAME"), ValueError,
     "`input.shape.rank` must be 3, 4 or 5. Received: input.shape=(8, 3) of rank 2."),
    (lambda: tf.nn.max_pool3d(X3, 2, 2, [[0, 0]] * 5), ValueError,
     "Explicit padding is not supported with an input of rank 5."),
    (lambda: tf.nn.max_pool3d(X3.astype(np.float64), 2, 2, "SAME"),
     tf.errors.InvalidArgumentError, "float64 is not in the list of allowed values"),
    (lambda: tf.nn.pool(X2, [2, 2], "MAX", padding="SAME", dilations=[2, 2]), ValueError,
     "pooling with 'SAME' padding is not implemented for `dilation_rate` > 1."),
    (lambda: tf.nn.pool(X2, [2, 2], "MAX", strides=[3, 1]), ValueError,
     "`strides` > `window_shape` not supported due to inconsistency between CPU and GPU"),
    (lambda: tf.nn.max_pool_with_argmax(X2, 2, 2, "SAME", data_format="NCHW"), ValueError,
     "`data_format` values other  than 'NHWC' are not supported."),
    (lambda: tf.space_to_batch_nd(X2, [2, 3], [[0, 0], [0, 0]]), tf.errors.InvalidArgumentError,
     "padded_shape[0]=7 is not divisible by block_shape[0]=2"),
])
def test_errors(call, error, message):
    with raises(error, message):
        call()


def test_atrous_conv2d_transpose_is_the_adjoint_of_atrous_conv2d():
    x, w = tf.constant(X2), tf.constant(W2[:, :, :, :3])
    y = tf.constant(np.random.default_rng(3).standard_normal((2, 7, 8, 3)).astype(np.float32))
    with tf.GradientTape() as tape:
        tape.watch(x)
        forward = tf.nn.atrous_conv2d(x, w, 2, "SAME")
    adjoint = tf.nn.atrous_conv2d_transpose(y, w, [2, 7, 8, 3], 2, "SAME")
    np.testing.assert_allclose(adjoint.numpy(), tape.gradient(forward, x, y).numpy(), rtol=1e-5,
                               atol=1e-5)
    with raises(ValueError, "`rate` cannot be less than one. Received: rate=0"):
        tf.nn.atrous_conv2d_transpose(y, w, [2, 7, 8, 3], 0, "SAME")


def test_grouped_convolution_equals_one_per_group():
    x = np.concatenate([X3, X3[..., ::-1]], axis=-1)          # 6 channels, 2 groups of 3
    w = np.concatenate([W3, W3[..., ::-1]], axis=-1)          # [2, 3, 2, 3, 8]
    out = tf.nn.convolution(x, w, 1, "SAME").numpy()
    first = tf.nn.convolution(X3, W3, 1, "SAME").numpy()
    second = tf.nn.convolution(X3[..., ::-1], W3[..., ::-1], 1, "SAME").numpy()
    np.testing.assert_allclose(out, np.concatenate([first, second], -1), rtol=1e-5, atol=1e-5)


def test_global_pooling_is_a_reduction():
    np.testing.assert_allclose(tf.reduce_mean(X3, axis=[1, 2, 3]).numpy(),
                               X3.mean(axis=(1, 2, 3)), rtol=1e-6)
    np.testing.assert_allclose(tf.reduce_max(X2, axis=[1, 2], keepdims=True).numpy(),
                               X2.max(axis=(1, 2), keepdims=True))


def test_space_to_batch_family():
    paddings, crops = tf.required_space_to_batch_paddings([7, 8], [2, 3], [[1, 0], [0, 2]])
    assert paddings.dtype == tf.int32
    assert paddings.numpy().tolist() == [[1, 0], [0, 4]] and crops.numpy().tolist() == [
        [0, 0], [0, 2]]
    paddings, crops = tf.required_space_to_batch_paddings([7, 8], [2, 3])
    assert paddings.numpy().tolist() == [[0, 1], [0, 1]] == crops.numpy().tolist()
    blocks = tf.nn.space_to_batch(X2, [2, 3], paddings)
    assert blocks.shape.as_list() == [12, 4, 3, 3]
    assert tf.space_to_batch(X2, [2, 3], paddings).shape.as_list() == [12, 4, 3, 3]
    np.testing.assert_array_equal(tf.nn.batch_to_space(blocks, [2, 3], crops).numpy(), X2)
    np.testing.assert_array_equal(tf.batch_to_space(blocks, [2, 3], crops).numpy(), X2)


def test_separable_and_conv1d_transpose_by_their_names():
    _, (x, dw, pw) = CASES["separable"]
    np.testing.assert_allclose(tf.nn.separable_conv2d(x, dw, pw, [1, 1, 1, 1], "SAME").numpy(),
                               REFERENCE["separable/out0"], rtol=1e-4, atol=1e-4)
    _, (y, w) = CASES["conv1d_transpose"]
    np.testing.assert_allclose(tf.nn.conv1d_transpose(y, w, [2, 9, 3], 2, "SAME").numpy(),
                               REFERENCE["conv1d_transpose/out0"], rtol=1e-4, atol=1e-4)
    with raises(ValueError, "Dimensions must be equal, but are 3 and 1"):
        tf.nn.separable_conv2d(x, dw, np.ones((3, 1, 6, 5), np.float32), [1, 1, 1, 1], "SAME")
