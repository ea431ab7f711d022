"""Neural-network ops (`tf.nn`): activations, softmax, bias_add, losses. Convolutions are in
`convolution.py`, pooling in `pooling.py`.
"""

from __future__ import annotations

import numpy as np

from .. import dtypes as d
from ..errors import InvalidArgumentError
from ..shapes import TensorType, format_dims
from . import infer as I
from .geometry import bias_axis as _bias_axis
from .registry import FLOAT, INDEX, PURE, REAL, TypeAttr, defop

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


# ---- local response normalization ---------------------------------------------------------------

def _window_sums(v, radius):
    """sum(v[..., d - radius : d + radius + 1]) for every depth d (clipped at the ends)."""
    depth = v.shape[-1]
    total = np.concatenate([np.zeros(v.shape[:-1] + (1,), v.dtype), np.cumsum(v, axis=-1)], -1)
    hi = np.minimum(np.arange(depth) + radius + 1, depth)
    lo = np.maximum(np.arange(depth) - radius, 0)
    return total[..., hi] - total[..., lo]


def _lrn_norm(x, depth_radius, bias, alpha):
    return bias + alpha * _window_sums(np.square(x), depth_radius)


def _check_lrn(x, depth_radius):
    if x.ndim != 4:
        raise InvalidArgumentError("in must be 4-dimensional")
    if depth_radius < 0:
        raise InvalidArgumentError(f"depth_radius = {depth_radius} must be non-negative")


def kernel_lrn(input, depth_radius=5, bias=1.0, alpha=1.0, beta=0.5):  # noqa: A002
    """x / (bias + alpha * sum(x^2 over depth_radius neighbouring channels))^beta."""
    x = np.asarray(input)
    _check_lrn(x, depth_radius)
    wide = x.astype(np.float32) if x.dtype != np.float64 else x
    return (wide * _lrn_norm(wide, depth_radius, bias, alpha) ** -beta).astype(x.dtype)


def kernel_lrn_grad(input_grads, input_image, output_image, depth_radius=5, bias=1.0,
                    alpha=1.0, beta=0.5):
    """dx_j = g_j N_j^-beta - 2 alpha beta x_j sum over d near j of g_d x_d N_d^(-beta-1)."""
    g = np.asarray(input_grads)
    x = np.asarray(input_image).astype(np.float32 if g.dtype != np.float64 else g.dtype)
    _check_lrn(x, depth_radius)
    norm = _lrn_norm(x, depth_radius, bias, alpha)
    g_wide = g.astype(x.dtype)
    inner = _window_sums(g_wide * x * norm ** (-beta - 1), depth_radius)
    return (g_wide * norm ** -beta - 2 * alpha * beta * x * inner).astype(g.dtype)


_LRN_ATTRS = {"T": TypeAttr({d.float16, d.bfloat16, d.float32}, d.float32), "depth_radius": 5,
              "bias": 1.0, "alpha": 1.0, "beta": 0.5}


def infer_lrn(input, **_):  # noqa: A002
    if input.shape is not None and len(input.shape) != 4:
        raise ValueError(f"Shape must be rank 4 but is rank {len(input.shape)}")
    return TensorType(input.dtype, input.shape)


lrn_op = defop("lrn", "LRN", inputs=("input: T",), attrs=_LRN_ATTRS, infer=infer_lrn,
               kernel=kernel_lrn, flags=PURE)
lrn_grad_op = defop("lrn_grad", "LRNGrad",
                    inputs=("input_grads: T", "input_image: T", "output_image: T"),
                    attrs=_LRN_ATTRS, infer=lambda input_grads, input_image, output_image, **_:
                    TensorType(input_grads.dtype, input_grads.shape),
                    kernel=kernel_lrn_grad, flags=PURE)
