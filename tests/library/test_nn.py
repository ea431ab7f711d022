"""`tf.nn`: activations, softmax, bias_add, conv2d (NHWC and NCHW), pooling, losses, and the
composites built from them, against NumPy oracles (direct loops for convolution and pooling).

Expected behaviour (values, dtypes, error types and messages) was taken from TensorFlow 2.21.
"""

import math

import numpy as np
import pytest

import tracegraph as tf

from .oracle import expect, raises

rng = np.random.default_rng(1)
X = np.float32([[-2.0, -0.5, 0.0], [0.5, 3.0, 7.0]])
IMG = rng.standard_normal((2, 5, 6, 3)).astype(np.float32)

_SELU_A, _SELU_S = 1.6732632423543772, 1.0507009873554805


def _erf(x):
    return np.vectorize(math.erf)(x)


ACTIVATIONS = [
    (tf.nn.relu, lambda x: np.maximum(x, 0)),
    (tf.nn.relu6, lambda x: np.clip(x, 0, 6)),
    (tf.nn.elu, lambda x: np.where(x > 0, x, np.expm1(x))),
    (tf.nn.selu, lambda x: _SELU_S * np.where(x > 0, x, _SELU_A * np.expm1(x))),
    (tf.nn.leaky_relu, lambda x: np.where(x > 0, x, 0.2 * x)),
    (lambda x: tf.nn.leaky_relu(x, alpha=0.5), lambda x: np.where(x > 0, x, 0.5 * x)),
    (tf.nn.sigmoid, lambda x: 1 / (1 + np.exp(-x))),
    (tf.nn.tanh, np.tanh),
    (tf.nn.softplus, lambda x: np.log1p(np.exp(x))),
    (tf.nn.softsign, lambda x: x / (1 + np.abs(x))),
    (tf.nn.gelu, lambda x: 0.5 * x * (1 + _erf(x / np.sqrt(2)))),
    (lambda x: tf.nn.gelu(x, approximate=True),
     lambda x: 0.5 * x * (1 + np.tanh(np.sqrt(2 / np.pi) * (x + 0.044715 * x ** 3)))),
    (tf.nn.silu, lambda x: x / (1 + np.exp(-x))),
    (tf.nn.swish, lambda x: x / (1 + np.exp(-x))),
    (lambda x: tf.nn.silu(x, beta=2.0), lambda x: x / (1 + np.exp(-2 * x))),
]


@pytest.mark.parametrize("fn,ref", ACTIVATIONS)
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_activations(fn, ref, dtype):
    x = X.astype(dtype)
    expect(fn(x), ref(x.astype(np.float64)).astype(dtype), rtol=1e-6, atol=1e-6)


def test_integer_activations():
    expect(tf.nn.relu(np.int32([-1, 2])), np.int32([0, 2]))
    expect(tf.nn.relu6(np.int32([-1, 2, 9])), np.int32([0, 2, 6]))
    expect(tf.nn.leaky_relu(np.int32([-1, 2])), np.float32([-0.2, 2.0]))  # cast to float32
    with raises(tf.errors.InvalidArgumentError, "attr 'T' of int32", "[Op:Elu]"):
        tf.nn.elu(tf.constant([-1, 2]))


def _softmax(x, axis=-1):
    e = np.exp(x - x.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


@pytest.mark.parametrize("axis", [None, -1, 0, 1])
def test_softmax_and_log_softmax(axis):
    x = X * 10
    ax = -1 if axis is None else axis
    expect(tf.nn.softmax(x, axis=axis), _softmax(x, ax))
    expect(tf.math.softmax(x, axis=axis), _softmax(x, ax))
    expect(tf.nn.log_softmax(x, axis=axis), np.log(_softmax(x.astype(np.float64), ax))
           .astype(np.float32), rtol=1e-5, atol=1e-5)


def test_softmax_is_stable():
    expect(tf.nn.softmax(np.float32([1000.0, 0.0])), np.float32([1.0, 0.0]))
    expect(tf.nn.log_softmax(np.float32([1000.0, 0.0])), np.float32([0.0, -1000.0]))


def test_softmax_errors():
    with raises(tf.errors.InvalidArgumentError, "`dim` must be in the range [-2, 2) where 2 is the "
                                                "number of dimensions in the input. Received: "
                                                "dim=2"):
        tf.nn.softmax(tf.constant([[1.0, 2.0]]), axis=2)
    with raises(tf.errors.InvalidArgumentError, "attr 'T' of int32", "[Op:Softmax]"):
        tf.nn.softmax(tf.constant([1, 2]))
    with raises(tf.errors.InvalidArgumentError, "logits must have >= 1 dimension"):
        tf.nn.softmax(tf.constant(1.0))


@pytest.mark.parametrize("value,bias,data_format,ref", [
    (X, np.float32([10, 20, 30]), None, X + np.float32([10, 20, 30])),
    (IMG, np.float32([1, 2, 3]), "NHWC", IMG + np.float32([1, 2, 3])),
    (IMG.transpose(0, 3, 1, 2), np.float32([1, 2, 3]), "NCHW",
     IMG.transpose(0, 3, 1, 2) + np.float32([1, 2, 3])[:, None, None]),
    (np.ones((1, 3, 2), np.float32), np.float32([1, 2, 3]), "NCW",
     np.ones((1, 3, 2), np.float32) + np.float32([1, 2, 3])[:, None]),
    (np.int32([[1, 2]]), np.int32([1, 2]), None, np.int32([[2, 4]])),
])
def test_bias_add(value, bias, data_format, ref):
    expect(tf.nn.bias_add(value, bias, data_format=data_format), ref)


def test_bias_add_errors():
    with raises(tf.errors.InvalidArgumentError, "Must provide as many biases as the last dimension "
                                                "of the input tensor: [3] vs. [2,2]",
                "[Op:BiasAdd]"):
        tf.nn.bias_add(tf.ones([2, 2]), tf.constant([1.0, 2.0, 3.0]))
    with raises(tf.errors.InvalidArgumentError, "Input tensor must be at least 2D: [2]"):
        tf.nn.bias_add(tf.ones([2]), tf.constant([1.0, 2.0]))


def _conv2d_nhwc(x, w, strides, pads, dilations=(1, 1)):
    """Direct-loop convolution; `pads` is ((top, bottom), (left, right)); grouped if needed."""
    x = np.pad(x.astype(np.float64), ((0, 0), pads[0], pads[1], (0, 0)))
    n, h, wd, c = x.shape
    kh, kw, cin, cout = w.shape
    per = cout // (c // cin)  # output channels per group
    eh, ew = (kh - 1) * dilations[0] + 1, (kw - 1) * dilations[1] + 1
    oh, ow = (h - eh) // strides[0] + 1, (wd - ew) // strides[1] + 1
    out = np.zeros((n, oh, ow, cout))
    for i in range(oh):
        for j in range(ow):
            patch = x[:, i * strides[0]:i * strides[0] + eh:dilations[0],
                      j * strides[1]:j * strides[1] + ew:dilations[1], :]
            for o in range(cout):
                g = o // per
                out[:, i, j, o] = np.sum(patch[..., g * cin:(g + 1) * cin] * w[..., o], (1, 2, 3))
    return out.astype(w.dtype)


def _same(size, k, stride, dilation=1):
    eff = (k - 1) * dilation + 1
    total = max((-(-size // stride) - 1) * stride + eff - size, 0)
    return total // 2, total - total // 2


CONV = [  # (filter shape, strides, padding, dilations)
    ((3, 3, 3, 4), 1, "SAME", None),
    ((3, 3, 3, 4), 1, "VALID", None),
    ((3, 2, 3, 2), 2, "SAME", None),
    ((2, 2, 3, 1), [2, 3], "VALID", None),
    ((2, 2, 3, 2), 1, "SAME", 2),
    ((3, 3, 3, 2), 1, [[1, 0], [0, 2]], None),
    ((2, 2, 1, 6), 1, "VALID", None),  # grouped: 3 groups of 1 input channel
]


@pytest.mark.parametrize("fshape,strides,padding,dilations", CONV)
@pytest.mark.parametrize("data_format", ["NHWC", "NCHW"])
def test_conv2d(fshape, strides, padding, dilations, data_format):
    w = rng.standard_normal(fshape).astype(np.float32)
    s = (strides, strides) if isinstance(strides, int) else tuple(strides)
    dl = (1, 1) if dilations is None else (dilations, dilations)
    if padding == "VALID":
        pads = ((0, 0), (0, 0))
    elif padding == "SAME":
        pads = (_same(5, fshape[0], s[0], dl[0]), _same(6, fshape[1], s[1], dl[1]))
    else:
        pads = tuple(tuple(p) for p in padding)
    ref = _conv2d_nhwc(IMG, w, s, pads, dl)
    if data_format == "NHWC":
        tf_padding = padding if isinstance(padding, str) else [[0, 0], *padding, [0, 0]]
        out = tf.nn.conv2d(IMG, w, strides, tf_padding, dilations=dilations)
        expect(out, ref, rtol=1e-5, atol=1e-5)
    else:
        tf_padding = padding if isinstance(padding, str) else [[0, 0], [0, 0], *padding]
        out = tf.nn.conv2d(IMG.transpose(0, 3, 1, 2), w, strides, tf_padding,
                           data_format="NCHW", dilations=dilations)
        expect(out, ref.transpose(0, 3, 1, 2), rtol=1e-5, atol=1e-5)


def test_conv2d_of_integers_and_four_element_strides():
    x = np.arange(32, dtype=np.int32).reshape(1, 4, 4, 2)
    w = np.ones((2, 2, 2, 1), np.int32)
    expect(tf.nn.conv2d(x, w, [1, 2, 2, 1], "VALID"),
           _conv2d_nhwc(x, w, (2, 2), ((0, 0), (0, 0))).astype(np.int32))


@pytest.mark.parametrize("x,w,kwargs,error,message", [
    ((1, 4, 4, 2), (2, 2, 3, 1), {}, tf.errors.InvalidArgumentError,
     "input depth must be evenly divisible by filter depth: 2 vs 3"),
    ((1, 4, 4, 2), (2, 2, 1, 3), {}, tf.errors.InvalidArgumentError,
     "output depth must be evenly divisible by number of groups: 3 vs 2"),
    ((1, 4, 4, 2), (5, 5, 2, 1), {}, tf.errors.InvalidArgumentError,
     "Computed output size would be negative"),
    ((1, 4, 4, 2), (2, 2, 2, 1), {"strides": [1, 1, 1, 2]}, tf.errors.UnimplementedError,
     "Current implementation does not yet support strides in the batch and depth dimensions."),
    ((1, 4, 4, 2), (2, 2, 2, 1), {"padding": "FOO"}, ValueError,
     "padding must be 'SAME', 'VALID' or explicit, got 'FOO'"),
    ((1, 4, 4, 2), (2, 2, 2, 1), {"data_format": "NWHC"}, ValueError,
     "data_format must be 'NHWC' or 'NCHW'"),
    ((1, 4, 4, 2), (2, 2, 2, 1), {"strides": [1, 1, 1]}, ValueError,
     "strides should be of length 1, 2 or 4. Received: strides=[1, 1, 1] of length 3"),
])
def test_conv2d_errors(x, w, kwargs, error, message):
    args = {"strides": 1, "padding": "VALID", **kwargs}
    with raises(error, message):
        tf.nn.conv2d(tf.ones(x), tf.ones(w), **args)


def _pool(x, k, s, padding, reduce):
    """Direct-loop NHWC pooling; SAME windows only count real (unpadded) positions."""
    n, h, w, c = x.shape
    (pt, pb), (pl, pr) = ((_same(h, k[0], s[0]), _same(w, k[1], s[1])) if padding == "SAME"
                          else ((0, 0), (0, 0)))
    oh, ow = (h + pt + pb - k[0]) // s[0] + 1, (w + pl + pr - k[1]) // s[1] + 1
    out = np.zeros((n, oh, ow, c), x.dtype)
    for i in range(oh):
        for j in range(ow):
            r0, c0 = i * s[0] - pt, j * s[1] - pl
            win = x[:, max(r0, 0):r0 + k[0], max(c0, 0):c0 + k[1], :]
            out[:, i, j, :] = reduce(win, axis=(1, 2))
    return out


@pytest.mark.parametrize("ksize,strides,padding", [(2, 2, "VALID"), (2, 2, "SAME"),
                                                   ([3, 2], [1, 2], "SAME"), (3, 1, "VALID")])
@pytest.mark.parametrize("data_format", ["NHWC", "NCHW"])
def test_pooling(ksize, strides, padding, data_format):
    k = (ksize, ksize) if isinstance(ksize, int) else tuple(ksize)
    s = (strides, strides) if isinstance(strides, int) else tuple(strides)
    for fns, reduce in (((tf.nn.max_pool2d, tf.nn.max_pool), np.max),
                        ((tf.nn.avg_pool2d, tf.nn.avg_pool), np.mean)):
        ref = _pool(IMG, k, s, padding, reduce)
        for fn in fns:
            if data_format == "NHWC":
                expect(fn(IMG, ksize, strides, padding), ref, rtol=1e-5, atol=1e-6)
            else:
                out = fn(IMG.transpose(0, 3, 1, 2), ksize, strides, padding, data_format="NCHW")
                expect(out, ref.transpose(0, 3, 1, 2), rtol=1e-5, atol=1e-6)


def test_pooling_dtypes():
    x = np.arange(32, dtype=np.int32).reshape(1, 4, 4, 2)
    expect(tf.nn.max_pool2d(x, 2, 2, "VALID"), _pool(x, (2, 2), (2, 2), "VALID", np.max))
    with raises(tf.errors.InvalidArgumentError, "attr 'T' of int32", "[Op:AvgPool]"):
        tf.nn.avg_pool2d(x, 2, 2, "VALID")


def test_losses():
    logits = np.float32([[1.0, 2.0, 3.0], [1.0, 5.0, -1.0]])
    labels = np.int32([0, 2])
    logp = np.log(_softmax(logits.astype(np.float64)))
    expect(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=labels, logits=logits),
           -logp[[0, 1], labels].astype(np.float32), rtol=1e-5)
    dense = np.float32([[0.0, 0.5, 0.5], [1.0, 0.0, 0.0]])
    expect(tf.nn.softmax_cross_entropy_with_logits(labels=dense, logits=logits),
           -(dense * logp).sum(-1).astype(np.float32), rtol=1e-5)
    expect(tf.nn.softmax_cross_entropy_with_logits(labels=dense.T, logits=logits.T, axis=0),
           -(dense * logp).sum(-1).astype(np.float32), rtol=1e-5)
    z, y = np.float32([-1.0, 2.0, 0.0]), np.float32([0.0, 1.0, 0.5])
    expect(tf.nn.sigmoid_cross_entropy_with_logits(labels=y, logits=z),
           (np.maximum(z, 0) - z * y + np.log1p(np.exp(-np.abs(z)))).astype(np.float32))
    expect(tf.nn.l2_loss(np.float32([1.0, 2.0, 3.0])), np.float32(7.0))


def test_sparse_cross_entropy_label_out_of_range():
    with raises(tf.errors.InvalidArgumentError, "Received a label value of 3 which is outside "
                                                "the valid range of [0, 3).  Label values: 0 3"):
        tf.nn.sparse_softmax_cross_entropy_with_logits(
            labels=tf.constant([0, 3]), logits=tf.ones([2, 3]))


@pytest.mark.parametrize("axes,keepdims", [([0], False), ([0, 1], True), ([1], True)])
def test_moments_and_batch_normalization(axes, keepdims):
    x = np.float32([[1.0, 2.0], [3.0, 6.0]])
    mean, var = tf.nn.moments(x, axes=axes, keepdims=keepdims)
    expect(mean, x.mean(axis=tuple(axes), keepdims=keepdims))
    expect(var, x.var(axis=tuple(axes), keepdims=keepdims))
    out = tf.nn.batch_normalization(x, mean, var, offset=0.5, scale=2.0, variance_epsilon=1e-3)
    m, v = x.mean(axis=tuple(axes), keepdims=True), x.var(axis=tuple(axes), keepdims=True)
    expect(out, ((x - m) / np.sqrt(v + 1e-3) * 2.0 + 0.5).astype(np.float32), rtol=1e-5)


def test_batch_normalization_without_offset_and_scale():
    x = np.float32([1.0, 2.0])
    expect(tf.nn.batch_normalization(x, 1.0, 4.0, None, None, 0.0), np.float32([0.0, 0.5]))


def test_l2_normalize():
    x = np.float32([[3.0, 4.0], [0.0, 0.0]])
    expect(tf.nn.l2_normalize(x, axis=1), np.float32([[0.6, 0.8], [0.0, 0.0]]))
    expect(tf.nn.l2_normalize(x), x / 5)


def test_dropout():
    x = np.ones((100, 100), np.float32)
    expect(tf.nn.dropout(x, 0.0), x)
    out = tf.nn.dropout(x, 0.25, seed=3).numpy()
    assert set(np.unique(out)) <= {0.0, np.float32(1 / 0.75)}
    assert 0.2 < np.mean(out == 0) < 0.3
    with raises(ValueError, "`rate` must be a scalar tensor or a float in the range [0, 1). "
                            "Received: rate=1.0"):
        tf.nn.dropout(x, 1.0)
