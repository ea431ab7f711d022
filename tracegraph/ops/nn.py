"""Neural-network ops (`tf.nn`): activations, softmax, bias_add, conv2d (NHWC and NCHW),
pooling, losses; and the composites TensorFlow builds from them (dropout, moments, ...).
"""

from __future__ import annotations

import numpy as np
from numpy.lib.stride_tricks import as_strided

from .. import dtypes as d
from .. import thread_budget
from ..errors import InvalidArgumentError, UnimplementedError
from ..shapes import TensorType, format_dims
from . import infer as I
from .geometry import bias_axis as _bias_axis
from .geometry import check_groups as _check_groups
from .geometry import explicit_pairs as _explicit_pairs
from .geometry import out_size as _out_size
from .geometry import padding_amounts as _padding_amounts
from .geometry import spatial as _spatial
from .registry import (
    FLOAT,
    INDEX,
    PURE,
    REAL,
    REQUIRED,
    TypeAttr,
    defop,
)

_EW = {"elementwise", "pure", "fresh_output"}
_TF = {"T": TypeAttr(FLOAT)}
_TR = {"T": TypeAttr(REAL)}

# ---- activations --------------------------------------------------------------------------------


def kernel_relu(features):
    return np.maximum(features, np.zeros((), np.asarray(features).dtype))


def kernel_relu6(features):
    dt = np.asarray(features).dtype
    return np.minimum(np.maximum(features, np.zeros((), dt)), np.asarray(6, dt))


def kernel_elu(features):
    x = np.asarray(features)
    return np.where(x > 0, x, np.expm1(np.minimum(x, 0))).astype(x.dtype)


SELU_ALPHA = 1.6732632423543772848170429916717
SELU_SCALE = 1.0507009873554804934193349852946


def kernel_selu(features):
    x = np.asarray(features)
    neg = SELU_ALPHA * np.expm1(np.minimum(x, 0))
    return (SELU_SCALE * np.where(x > 0, x, neg)).astype(x.dtype)


def kernel_leaky_relu(features, alpha=0.2):
    x = np.asarray(features)
    return np.where(x > 0, x, x * np.asarray(alpha, x.dtype)).astype(x.dtype)


def _activation(name, tf_type, kernel, attrs=None, allowed=FLOAT, expr=None,
                jit=None):
    return defop(name, tf_type, inputs=("features: T",),
                 attrs={"T": TypeAttr(allowed), **(attrs or {})}, infer=I.same, kernel=kernel,
                 expr=expr, flags=_EW, jit=jit)


relu_op = _activation("relu", "Relu", kernel_relu, allowed=REAL,
                      jit="np.maximum({0}, np.{T}(0))")
relu6_op = _activation("relu6", "Relu6", kernel_relu6, allowed=REAL,
                       jit="np.minimum(np.maximum({0}, np.{T}(0)), np.{T}(6))")
elu_op = _activation("elu", "Elu", kernel_elu)
selu_op = _activation("selu", "Selu", kernel_selu)
leaky_relu_op = _activation("leaky_relu", "LeakyRelu", kernel_leaky_relu, {"alpha": 0.2})

# ---- softmax -----------------------------------------------------------------------------------


def kernel_softmax(logits):
    """exp(x - max) / sum. A row whose shifted values hold NaN (from +inf or NaN logits):
    float32 gives NaN there and 0 elsewhere, as TensorFlow's default CPU kernel (oneDNN,
    whose max skips NaN); other dtypes give NaN for the whole row, as its Eigen kernel."""
    x = np.asarray(logits)
    if x.ndim == 0:
        raise InvalidArgumentError("logits must have >= 1 dimension, got []")
    if x.shape[-1] == 0:
        return x.copy()
    with np.errstate(invalid="ignore"):
        if x.dtype == np.float32:
            shifted = x - np.fmax.reduce(x, axis=-1, keepdims=True)
        else:
            shifted = x - np.max(x, axis=-1, keepdims=True)
        e = np.exp(shifted)
        out = (e / np.sum(e, axis=-1, keepdims=True)).astype(x.dtype)
        if x.dtype == np.float32:
            undefined = np.isnan(shifted)
            rows = undefined.any(axis=-1, keepdims=True)
            out = np.where(rows, np.where(undefined, np.float32(np.nan), np.float32(0.0)), out)
    return out


def kernel_log_softmax(logits):
    x = np.asarray(logits)
    if x.ndim == 0:
        raise InvalidArgumentError("logits must have >= 1 dimension, got []")
    if x.shape[-1] == 0:
        return x.copy()
    with np.errstate(invalid="ignore"):
        shifted = x - np.max(x, axis=-1, keepdims=True)
        return (shifted - np.log(np.sum(np.exp(shifted), axis=-1, keepdims=True))).astype(
            x.dtype)


def infer_softmax(logits):
    if logits.shape is not None and len(logits.shape) == 0:
        raise ValueError("logits must have >= 1 dimension, got []")
    return TensorType(logits.dtype, logits.shape)


softmax_op = defop("softmax", "Softmax", inputs=("logits: T",), attrs=_TF, infer=infer_softmax,
                   kernel=kernel_softmax, flags=PURE)
log_softmax_op = defop("log_softmax", "LogSoftmax", inputs=("logits: T",), attrs=_TF,
                       infer=infer_softmax, kernel=kernel_log_softmax, flags=PURE)

# ---- bias_add -----------------------------------------------------------------------------------


def infer_bias_add(value, bias, data_format="NHWC"):
    if value.shape is not None:
        if len(value.shape) < 2:
            raise ValueError(f"Input tensor must be at least 2D: {format_dims(value.shape)}")
        c = value.shape[_bias_axis(len(value.shape), data_format)]
        if bias.shape is not None and bias.shape[0] is not None and c is not None and \
                bias.shape[0] != c:
            raise ValueError(f"Must provide as many biases as the last dimension of the input "
                             f"tensor: {format_dims(bias.shape)} vs. {format_dims(value.shape)}")
    return TensorType(value.dtype, value.shape)


def kernel_bias_add(value, bias, data_format="NHWC"):
    x = np.asarray(value)
    axis = _bias_axis(x.ndim, data_format)
    b = np.asarray(bias)
    if x.ndim < 2:
        raise InvalidArgumentError(f"Input tensor must be at least 2D: {format_dims(x.shape)}")
    if b.shape[0] != x.shape[axis]:
        raise InvalidArgumentError(f"Must provide as many biases as the last dimension of the "
                                   f"input tensor: {format_dims(b.shape)} vs. "
                                   f"{format_dims(x.shape)}")
    if axis != x.ndim - 1:
        b = b.reshape((-1,) + (1,) * (x.ndim - axis - 1))
    return x + b


bias_add_op = defop("bias_add", "BiasAdd", inputs=("value: T", "bias: T"),
                    attrs={"T": TypeAttr(REAL), "data_format": "NHWC"}, infer=infer_bias_add,
                    kernel=kernel_bias_add, flags=PURE | {"data_format"})

# ---- conv2d and pooling --------------------------------------------------------------------------


def infer_conv2d(input, filter, strides=REQUIRED, padding=REQUIRED,  # noqa: A002
                 explicit_paddings=(), data_format="NHWC", dilations=(1, 1, 1, 1),
                 use_cudnn_on_gpu=True):
    if filter.shape is not None and len(filter.shape) != 4:
        raise ValueError(f"filter must be 4-dimensional: {format_dims(filter.shape)}")
    if input.shape is None or filter.shape is None:
        return TensorType(input.dtype, None if input.shape is None else (None,) * 4)
    if len(input.shape) != 4:
        raise ValueError(f"input must be 4-dimensional {format_dims(input.shape)}")
    n = input.shape[0]
    h, w = _spatial(input.shape, data_format)
    c = input.shape[3] if data_format == "NHWC" else input.shape[1]
    kh, kw, cin, cout = filter.shape
    _check_groups(c, cin, cout)
    sh, sw = _spatial(strides, data_format)
    dh, dw = _spatial(dilations, data_format)
    eh, ew = _explicit_pairs(explicit_paddings, data_format)
    oh = None if h is None or kh is None else _out_size(
        h, kh, sh, dh, _padding_amounts(h, kh, sh, dh, padding, eh))
    ow = None if w is None or kw is None else _out_size(
        w, kw, sw, dw, _padding_amounts(w, kw, sw, dw, padding, ew))
    shape = (n, oh, ow, cout) if data_format == "NHWC" else (n, cout, oh, ow)
    return TensorType(input.dtype, shape)


def kernel_conv2d(input, filter, strides=REQUIRED, padding=REQUIRED,  # noqa: A002
                  explicit_paddings=(), data_format="NHWC", dilations=(1, 1, 1, 1),
                  use_cudnn_on_gpu=True):
    x = np.asarray(input)
    wts = np.asarray(filter)
    batch_and_depth = (0, 3) if data_format == "NHWC" else (0, 1)
    if any(strides[i] != 1 for i in batch_and_depth):
        raise UnimplementedError("Current implementation does not yet support strides in the "
                                 "batch and depth dimensions.")
    if any(dilations[i] != 1 for i in batch_and_depth):
        raise UnimplementedError("Current implementation does not yet support dilations in the "
                                 "batch and depth dimensions.")
    if data_format == "NCHW":
        x = x.transpose(0, 2, 3, 1)
    kh, kw, cin, cout = wts.shape
    try:
        groups = _check_groups(x.shape[3], cin, cout)
    except ValueError as e:
        raise InvalidArgumentError(str(e)) from None
    sh, sw = _spatial(strides, data_format)
    dh, dw = _spatial(dilations, data_format)
    eh, ew = _explicit_pairs(explicit_paddings, data_format)
    ph = _padding_amounts(x.shape[1], kh, sh, dh, padding, eh)
    pw = _padding_amounts(x.shape[2], kw, sw, dw, padding, ew)
    if any(ph) or any(pw):
        x = _pad_spatial(x, ph, pw, 0)
    windows = _windows(x, (kh, kw), (sh, sw), (dh, dw))   # [N, OH, OW, KH, KW, C]
    n, oh, ow = windows.shape[:3]
    per_group = cout // groups
    # one BLAS product per group, on the threads the budget gives it
    parts = [thread_budget.matmul(
        windows[..., g * cin:(g + 1) * cin].reshape(n * oh * ow, kh * kw * cin),
        wts[..., g * per_group:(g + 1) * per_group].reshape(kh * kw * cin, per_group))
             for g in range(groups)]
    out = (parts[0] if groups == 1 else np.concatenate(parts, axis=-1)).reshape(
        n, oh, ow, cout).astype(wts.dtype, copy=False)
    return out.transpose(0, 3, 1, 2) if data_format == "NCHW" else out


conv2d_op = defop("conv2d", "Conv2D", inputs=("input: T", "filter: T"),
                  attrs={"T": TypeAttr({d.float16, d.float32, d.float64, d.int32}),
                         "strides": REQUIRED, "padding": REQUIRED, "explicit_paddings": (),
                         "data_format": "NHWC", "dilations": (1, 1, 1, 1),
                         "use_cudnn_on_gpu": True},
                  infer=infer_conv2d, kernel=kernel_conv2d,
                  flags=PURE | {"data_format", "float16_allowed"})


def infer_pool(value, ksize=REQUIRED, strides=REQUIRED, padding=REQUIRED, data_format="NHWC"):
    if value.shape is None:
        return TensorType(value.dtype, (None,) * 4)
    if len(value.shape) != 4:
        raise ValueError(f"Shape must be rank 4 but is rank {len(value.shape)}")
    h, w = _spatial(value.shape, data_format)
    kh, kw = _spatial(ksize, data_format)
    sh, sw = _spatial(strides, data_format)
    oh = None if h is None else _out_size(h, kh, sh, 1, _padding_amounts(h, kh, sh, 1, padding,
                                                                         None))
    ow = None if w is None else _out_size(w, kw, sw, 1, _padding_amounts(w, kw, sw, 1, padding,
                                                                         None))
    n = value.shape[0]
    c = value.shape[3] if data_format == "NHWC" else value.shape[1]
    shape = (n, oh, ow, c) if data_format == "NHWC" else (n, c, oh, ow)
    return TensorType(value.dtype, shape)


def _pool(value, ksize, strides, padding, data_format, reduce):
    x = np.asarray(value)
    if data_format == "NCHW":
        x = x.transpose(0, 2, 3, 1)
    kh, kw = _spatial(ksize, data_format)
    sh, sw = _spatial(strides, data_format)
    ph = _padding_amounts(x.shape[1], kh, sh, 1, padding, None)
    pw = _padding_amounts(x.shape[2], kw, sw, 1, padding, None)
    out = reduce(x, (kh, kw), (sh, sw), (ph, pw))
    return out.transpose(0, 3, 1, 2) if data_format == "NCHW" else out


def _windows(x, k, s, dilation=(1, 1)):
    """The [N, OH, OW, KH, KW, C] read-only view of the windows of `x` [N, H, W, C] (im2col
    without a copy; reshaping it to rows copies each window once, in (KH, KW, C) order)."""
    n, h, w, c = x.shape
    (kh, kw), (sh, sw), (dh, dw) = k, s, dilation
    oh = _out_size(h, kh, sh, dh, (0, 0))   # a window larger than the input is an error
    ow = _out_size(w, kw, sw, dw, (0, 0))
    bn, bh, bw, bc = x.strides
    return as_strided(x, (n, oh, ow, kh, kw, c), (bn, bh * sh, bw * sw, bh * dh, bw * dw, bc),
                      writeable=False)


def _pad_spatial(x, ph, pw, value):
    """`x` [N, H, W, C] padded in H and W with `value` (np.pad costs tens of microseconds
    even for small arrays; one allocation and a copy do not)."""
    n, h, w, c = x.shape
    out = np.full((n, h + ph[0] + ph[1], w + pw[0] + pw[1], c), value, dtype=x.dtype)
    out[:, ph[0]:ph[0] + h, pw[0]:pw[0] + w] = x
    return out


def _max_reduce(x, k, s, pads):
    if any(pads[0]) or any(pads[1]):
        low = -np.inf if x.dtype.kind == "f" else np.iinfo(x.dtype).min
        x = _pad_spatial(x, pads[0], pads[1], low)
    return _windows(x, k, s).max(axis=(3, 4))


def _avg_reduce(x, k, s, pads):
    if not any(pads[0]) and not any(pads[1]):   # every window is whole: divide by its size
        return (_windows(x, k, s).sum(axis=(3, 4)) / (k[0] * k[1])).astype(x.dtype)
    padded = _pad_spatial(x, pads[0], pads[1], 0)
    ones = _pad_spatial(np.ones((1,) + x.shape[1:3] + (1,), x.dtype), pads[0], pads[1], 0)
    count = _windows(ones, k, s).sum(axis=(3, 4))[0]
    return (_windows(padded, k, s).sum(axis=(3, 4)) / count[None]).astype(x.dtype)


def kernel_max_pool(value, ksize=REQUIRED, strides=REQUIRED, padding=REQUIRED,
                    data_format="NHWC"):
    return _pool(value, ksize, strides, padding, data_format, _max_reduce)


def kernel_avg_pool(value, ksize=REQUIRED, strides=REQUIRED, padding=REQUIRED,
                    data_format="NHWC"):
    return _pool(value, ksize, strides, padding, data_format, _avg_reduce)


POOL_ATTRS = {"ksize": REQUIRED, "strides": REQUIRED, "padding": REQUIRED,
               "data_format": "NHWC"}
max_pool_op = defop("max_pool", "MaxPool", inputs=("input: T",),
                    attrs={"T": TypeAttr(REAL), **POOL_ATTRS},
                    infer=infer_pool, kernel=kernel_max_pool, flags=PURE | {"data_format"})
avg_pool_op = defop("avg_pool", "AvgPool", inputs=("value: T",),
                    attrs={"T": TypeAttr(FLOAT), **POOL_ATTRS}, infer=infer_pool,
                    kernel=kernel_avg_pool, flags=PURE | {"data_format"})

# ---- losses -------------------------------------------------------------------------------------


def kernel_l2_loss(t):
    x = np.asarray(t)
    return (np.sum(np.square(x), dtype=x.dtype) / 2).astype(x.dtype)


l2_loss_op = defop("l2_loss", "L2Loss", inputs=("t: T",), attrs=_TF,
                   infer=lambda t: TensorType(t.dtype, ()), kernel=kernel_l2_loss, flags=PURE)


def kernel_sparse_xent(features, labels):
    x = np.asarray(features)
    y = np.asarray(labels)
    n = x.shape[-1]
    bad = (y < 0) | (y >= n)
    if bad.any():
        raise InvalidArgumentError(f"Received a label value of {int(y[bad][0])} which is outside "
                                   f"the valid range of [0, {n}).  Label values: "
                                   f"{' '.join(map(str, y.reshape(-1)))}")
    logp = kernel_log_softmax(x)
    loss = -np.take_along_axis(logp, y[..., None].astype(np.int64), axis=-1)[..., 0]
    backprop = np.exp(logp)
    np.put_along_axis(backprop, y[..., None].astype(np.int64),
                      np.take_along_axis(backprop, y[..., None].astype(np.int64), -1) - 1, -1)
    return [loss.astype(x.dtype), backprop.astype(x.dtype)]


def infer_sparse_xent(features, labels):
    batch = None if features.shape is None else features.shape[:-1]
    return (TensorType(features.dtype, batch), TensorType(features.dtype, features.shape))


sparse_xent_op = defop("sparse_softmax_cross_entropy", "SparseSoftmaxCrossEntropyWithLogits",
                       inputs=("features: T", "labels: Tlabels"),
                       attrs={**_TF, "Tlabels": TypeAttr(INDEX, d.int64)},
                       infer=infer_sparse_xent, kernel=kernel_sparse_xent, num_outputs=2,
                       flags=PURE)


def kernel_xent(features, labels):
    x = np.asarray(features)
    logp = kernel_log_softmax(x)
    loss = -np.sum(np.asarray(labels) * logp, axis=-1)
    return [loss.astype(x.dtype), (np.exp(logp) - labels).astype(x.dtype)]


xent_op = defop("softmax_cross_entropy", "SoftmaxCrossEntropyWithLogits",
                inputs=("features: T", "labels: T"), attrs=_TF,
                infer=lambda features, labels: (
                    TensorType(features.dtype, None if features.shape is None
                               else features.shape[:-1]),
                    TensorType(features.dtype, features.shape)),
                kernel=kernel_xent, num_outputs=2, flags=PURE)
