"""Backprop records of the nn family: TensorFlow's ops that compute a gradient from the forward
op's values and the upstream gradient (`ReluGrad`, `Conv2DBackpropInput`,
`Conv2DBackpropFilter`, `MaxPoolGrad`, `AvgPoolGrad`). The gradient rules that use them are in
`autodiff/rules/nn.py`.

Convolution and pooling kernels work in NHWC (NCHW is transposed in and out) with the forward
kernels' own geometry (padding amounts, strides, dilations), so the backward pass is the exact
adjoint.
"""

from __future__ import annotations

import numpy as np
from numpy.lib.stride_tricks import sliding_window_view

from .. import dtypes as d
from ..shapes import TensorType
from . import infer as I
from .geometry import check_groups, explicit_pairs, padding_amounts, spatial
from .nn import POOL_ATTRS
from .registry import REAL, REQUIRED, TypeAttr, defop


def kernel_relu_grad(gradients, features):
    g = np.asarray(gradients)
    return g * (np.asarray(features) > 0).astype(g.dtype)


relu_grad_op = defop("relu_grad", "ReluGrad", inputs=("gradients: T", "features: T"),
                     attrs={"T": TypeAttr(REAL)}, infer=I.binary, kernel=kernel_relu_grad,
                     flags={"pure"})


_CONV_ATTRS = {"T": TypeAttr({d.float16, d.float32, d.float64}), "strides": REQUIRED,
               "padding": REQUIRED, "explicit_paddings": (), "data_format": "NHWC",
               "dilations": (1, 1, 1, 1), "use_cudnn_on_gpu": True}


def _nhwc(x, data_format):
    return np.asarray(x).transpose(0, 2, 3, 1) if data_format == "NCHW" else np.asarray(x)


def _back(x, data_format):
    return x.transpose(0, 3, 1, 2) if data_format == "NCHW" else x


def _nhwc_shape(shape, data_format):
    shape = [int(v) for v in np.asarray(shape).reshape(-1)]
    return (shape[0], shape[2], shape[3], shape[1]) if data_format == "NCHW" else tuple(shape)


def _geometry(x_shape, kh, kw, strides, padding, explicit_paddings, data_format, dilations):
    sh, sw = spatial(strides, data_format)
    dh, dw = spatial(dilations, data_format)
    eh, ew = explicit_pairs(explicit_paddings, data_format)
    ph = padding_amounts(x_shape[1], kh, sh, dh, padding, eh)
    pw = padding_amounts(x_shape[2], kw, sw, dw, padding, ew)
    return (sh, sw), (dh, dw), ph, pw


def kernel_conv2d_backprop_filter(input, filter_sizes, out_backprop,  # noqa: A002
                                  strides=REQUIRED, padding=REQUIRED, explicit_paddings=(),
                                  data_format="NHWC", dilations=(1, 1, 1, 1),
                                  use_cudnn_on_gpu=True):
    x = _nhwc(input, data_format)
    g = _nhwc(out_backprop, data_format)
    kh, kw, cin, cout = (int(v) for v in np.asarray(filter_sizes).reshape(-1))
    (sh, sw), (dh, dw), ph, pw = _geometry(x.shape, kh, kw, strides, padding,
                                           explicit_paddings, data_format, dilations)
    xp = np.pad(x, ((0, 0), ph, pw, (0, 0)))
    win = sliding_window_view(xp, ((kh - 1) * dh + 1, (kw - 1) * dw + 1), axis=(1, 2))
    win = win[:, ::sh, ::sw, :, ::dh, ::dw][:, :g.shape[1], :g.shape[2]]  # [N,OH,OW,C,KH,KW]
    groups = check_groups(x.shape[3], cin, cout)
    per = cout // groups
    parts = [np.tensordot(win[:, :, :, k * cin:(k + 1) * cin], g[..., k * per:(k + 1) * per],
                          axes=([0, 1, 2], [0, 1, 2])) for k in range(groups)]  # [C,KH,KW,CO]
    return np.concatenate(parts, axis=-1).transpose(1, 2, 0, 3).astype(g.dtype)


def kernel_conv2d_backprop_input(input_sizes, filter, out_backprop,  # noqa: A002
                                 strides=REQUIRED, padding=REQUIRED, explicit_paddings=(),
                                 data_format="NHWC", dilations=(1, 1, 1, 1),
                                 use_cudnn_on_gpu=True):
    shape = _nhwc_shape(input_sizes, data_format)
    w = np.asarray(filter)
    g = _nhwc(out_backprop, data_format)
    kh, kw, cin, cout = w.shape
    (sh, sw), (dh, dw), ph, pw = _geometry(shape, kh, kw, strides, padding, explicit_paddings,
                                           data_format, dilations)
    n, h, wd, c = shape
    xp = np.zeros((n, h + ph[0] + ph[1], wd + pw[0] + pw[1], c), dtype=g.dtype)
    groups = check_groups(c, cin, cout)
    per = cout // groups
    oh, ow = g.shape[1], g.shape[2]
    for k in range(groups):
        gk = g[..., k * per:(k + 1) * per]
        wk = w[..., k * per:(k + 1) * per]
        for i in range(kh):
            for j in range(kw):
                contrib = gk @ wk[i, j].T  # [N, OH, OW, CIN]
                xp[:, i * dh:i * dh + (oh - 1) * sh + 1:sh, j * dw:j * dw + (ow - 1) * sw + 1:sw,
                   k * cin:(k + 1) * cin] += contrib
    out = xp[:, ph[0]:ph[0] + h, pw[0]:pw[0] + wd]
    return _back(np.ascontiguousarray(out), data_format)


def _infer_from_sizes(sizes, *_, **__):
    return lambda dtype: TensorType(dtype, None if sizes.value is None else tuple(
        int(v) for v in np.asarray(sizes.value).reshape(-1)))


def infer_backprop_input(input_sizes, filter, out_backprop, **_):  # noqa: A002
    return _infer_from_sizes(input_sizes)(out_backprop.dtype)


def infer_backprop_filter(input, filter_sizes, out_backprop, **_):  # noqa: A002
    return _infer_from_sizes(filter_sizes)(out_backprop.dtype)


conv2d_backprop_input_op = defop(
    "conv2d_backprop_input", "Conv2DBackpropInput",
    inputs=("input_sizes: int32", "filter: T", "out_backprop: T"), attrs=_CONV_ATTRS,
    infer=infer_backprop_input, kernel=kernel_conv2d_backprop_input, flags={"pure"})
conv2d_backprop_filter_op = defop(
    "conv2d_backprop_filter", "Conv2DBackpropFilter",
    inputs=("input: T", "filter_sizes: int32", "out_backprop: T"), attrs=_CONV_ATTRS,
    infer=infer_backprop_filter, kernel=kernel_conv2d_backprop_filter, flags={"pure"})


# ---- pooling -----------------------------------------------------------------------------------

def _pool_geometry(shape, ksize, strides, padding, data_format):
    kh, kw = spatial(ksize, data_format)
    sh, sw = spatial(strides, data_format)
    ph = padding_amounts(shape[1], kh, sh, 1, padding, None)
    pw = padding_amounts(shape[2], kw, sw, 1, padding, None)
    return (kh, kw), (sh, sw), ph, pw


def kernel_max_pool_grad(orig_input, orig_output, grad, ksize=REQUIRED, strides=REQUIRED,
                         padding=REQUIRED, data_format="NHWC"):
    """Each window's gradient goes to its (first) largest input."""
    x = _nhwc(orig_input, data_format)
    g = _nhwc(grad, data_format)
    (kh, kw), (sh, sw), ph, pw = _pool_geometry(x.shape, ksize, strides, padding, data_format)
    low = -np.inf if x.dtype.kind == "f" else np.iinfo(x.dtype).min
    xp = np.pad(x, ((0, 0), ph, pw, (0, 0)), constant_values=low)
    win = sliding_window_view(xp, (kh, kw), axis=(1, 2))[:, ::sh, ::sw][:, :g.shape[1],
                                                                          :g.shape[2]]
    n, oh, ow, c = g.shape
    flat = win.reshape(n, oh, ow, c, kh * kw).argmax(axis=-1)
    di, dj = np.divmod(flat, kw)
    rows = np.arange(oh)[None, :, None, None] * sh + di
    cols = np.arange(ow)[None, None, :, None] * sw + dj
    out = np.zeros(xp.shape, dtype=g.dtype)
    nn_, cc = np.meshgrid(np.arange(n), np.arange(c), indexing="ij")
    np.add.at(out, (nn_[:, None, None, :].repeat(oh, 1).repeat(ow, 2), rows, cols,
                    cc[:, None, None, :].repeat(oh, 1).repeat(ow, 2)), g)
    out = out[:, ph[0]:ph[0] + x.shape[1], pw[0]:pw[0] + x.shape[2]]
    return _back(np.ascontiguousarray(out), data_format)


def kernel_avg_pool_grad(orig_input_shape, grad, ksize=REQUIRED, strides=REQUIRED,
                         padding=REQUIRED, data_format="NHWC"):
    """Each window's gradient is shared by the inputs it averaged (padding not counted)."""
    shape = _nhwc_shape(orig_input_shape, data_format)
    g = _nhwc(grad, data_format)
    (kh, kw), (sh, sw), ph, pw = _pool_geometry(shape, ksize, strides, padding, data_format)
    ones = np.pad(np.ones(shape[1:3], g.dtype), (ph, pw))
    count = sliding_window_view(ones, (kh, kw))[::sh, ::sw].sum(axis=(-2, -1))
    count = count[:g.shape[1], :g.shape[2]]
    share = g / count[None, :, :, None]
    n, h, w, c = shape
    out = np.zeros((n, h + ph[0] + ph[1], w + pw[0] + pw[1], c), dtype=g.dtype)
    oh, ow = g.shape[1], g.shape[2]
    for i in range(kh):
        for j in range(kw):
            out[:, i:i + (oh - 1) * sh + 1:sh, j:j + (ow - 1) * sw + 1:sw] += share
    out = out[:, ph[0]:ph[0] + h, pw[0]:pw[0] + w]
    return _back(np.ascontiguousarray(out.astype(g.dtype)), data_format)


max_pool_grad_op = defop(
    "max_pool_grad", "MaxPoolGrad", inputs=("orig_input: T", "orig_output: T", "grad: T"),
    attrs={"T": TypeAttr({d.float16, d.float32, d.float64}), **POOL_ATTRS},
    infer=lambda orig_input, orig_output, grad, **_: TensorType(grad.dtype, orig_input.shape),
    kernel=kernel_max_pool_grad, flags={"pure"})
avg_pool_grad_op = defop(
    "avg_pool_grad", "AvgPoolGrad", inputs=("orig_input_shape: int32", "grad: T"),
    attrs={"T": TypeAttr({d.float16, d.float32, d.float64}), **POOL_ATTRS},
    infer=lambda orig_input_shape, grad, **_: _infer_from_sizes(orig_input_shape)(grad.dtype),
    kernel=kernel_avg_pool_grad, flags={"pure"})
