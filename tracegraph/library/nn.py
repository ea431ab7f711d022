"""The TensorFlow-style functions of the nn family, built from its op records."""

from __future__ import annotations

import numpy as np

from .. import dtypes as d
from ..errors import InvalidArgumentError
from ..ops.arguments import int_arg
from ..ops.nn import (
    bias_add_op,
    elu_op,
    l2_loss_op,
    leaky_relu_op,
    log_softmax_op,
    relu6_op,
    relu_op,
    selu_op,
    softmax_op,
    sparse_xent_op,
    xent_op,
)
from ..ops.registry import (
    NO_ATTRS,
    bind,
    convert_to_tensor,
)
from .array import shape, squeeze, transpose
from .indexing import where
from .math import abs as abs_
from .math import (
    add,
    cast,
    divide,
    erf,
    exp,
    greater_equal,
    log1p,
    maximum,
    multiply,
    negative,
    rsqrt,
    sigmoid,
    square,
    squared_difference,
    subtract,
    tanh,
)
from .math import pow as pow_
from .random import uniform
from .reduce import reduce_mean, reduce_sum

# ---- ---------------------------------------------------------------------------


def relu(features, name=None):
    return bind(relu_op, (features,), NO_ATTRS, name)


def relu6(features, name=None):
    return bind(relu6_op, (features,), NO_ATTRS, name)


def elu(features, name=None):
    return bind(elu_op, (features,), NO_ATTRS, name)


def selu(features, name=None):
    return bind(selu_op, (features,), NO_ATTRS, name)


def leaky_relu(features, alpha=0.2, name=None):
    """`max(alpha * x, x)`; integer features are cast to float32 first, as in TensorFlow."""
    features = convert_to_tensor(features)
    if features.dtype.is_integer:
        features = cast(features, d.float32)
    return bind(leaky_relu_op, (features,), {"alpha": float(alpha)}, name)


def _on_last_axis(op, logits, axis, name):
    logits = convert_to_tensor(logits)
    rank = logits.shape.rank
    if axis is not None:
        axis = int_arg(axis, "axis")
    if axis is None or axis == -1 or (rank is not None and axis == rank - 1):
        return bind(op, (logits,), NO_ATTRS, name)
    if rank is None:
        raise ValueError("softmax over a non-last axis needs a known rank")
    if not -rank <= axis < rank:
        raise InvalidArgumentError(f"`dim` must be in the range [{-rank}, {rank}) where {rank} is "
                                   f"the number of dimensions in the input. Received: dim={axis}")
    axis %= rank
    perm = list(range(rank))
    perm[axis], perm[-1] = perm[-1], perm[axis]
    return transpose(bind(op, (transpose(logits, perm),), NO_ATTRS, None), perm, name=name)


def softmax(logits, axis=None, name=None):
    return _on_last_axis(softmax_op, logits, axis, name)


def log_softmax(logits, axis=None, name=None):
    return _on_last_axis(log_softmax_op, logits, axis, name)


def bias_add(value, bias, data_format=None, name=None):
    fmt = "NHWC" if data_format in (None, "NHWC", "N...C") else "NCHW"
    return bind(bias_add_op, (value, bias), {"data_format": fmt}, name)


def l2_loss(t, name=None):
    return bind(l2_loss_op, (t,), NO_ATTRS, name)


def sparse_softmax_cross_entropy_with_logits(labels=None, logits=None, name=None):
    loss, _ = bind(sparse_xent_op, (logits, labels), NO_ATTRS, name)
    return loss


def softmax_cross_entropy_with_logits(labels, logits, axis=-1, name=None):
    """Cross entropy between `labels` and softmax(`logits`) along `axis` (classes)."""
    logits = convert_to_tensor(logits)
    labels = convert_to_tensor(labels, dtype=logits.dtype)
    rank = logits.shape.rank
    if axis != -1 and rank is not None and axis % rank != rank - 1:
        perm = list(range(rank))
        perm[axis % rank], perm[-1] = perm[-1], perm[axis % rank]
        logits, labels = transpose(logits, perm), transpose(labels, perm)
        loss, _ = bind(xent_op, (logits, labels), NO_ATTRS, None)
        # The loss lost the last (class) axis; put the others back in their order.
        rest = perm[:-1]
        inverse = sorted(range(len(rest)), key=lambda i: rest[i])
        return transpose(loss, inverse, name=name)
    loss, _ = bind(xent_op, (logits, labels), NO_ATTRS, name)
    return loss


def sigmoid_cross_entropy_with_logits(labels=None, logits=None, name=None):
    logits = convert_to_tensor(logits)
    labels = convert_to_tensor(labels, dtype=logits.dtype)
    relu_logits = relu(logits)
    return add(subtract(relu_logits, multiply(logits, labels)),
               log1p(exp(negative(abs_(logits)))), name=name)


def gelu(features, approximate=False, name=None):
    x = convert_to_tensor(features)
    if approximate:
        c = np.sqrt(2.0 / np.pi)
        inner = multiply(c, add(x, multiply(0.044715, pow_(x, 3.0))))
        return multiply(multiply(0.5, x), add(1.0, tanh(inner)), name=name)
    return multiply(multiply(0.5, x), add(1.0, erf(multiply(x, 1 / np.sqrt(2.0)))), name=name)


def silu(features, beta=1.0, name=None):
    x = convert_to_tensor(features)
    return multiply(x, sigmoid(multiply(beta, x) if beta != 1.0 else x), name=name)


swish = silu


def moments(x, axes, shift=None, keepdims=False, name=None):
    x = convert_to_tensor(x)
    mean = reduce_mean(x, axes, keepdims=True)
    variance = reduce_mean(squared_difference(x, mean), axes, keepdims=True)
    if not keepdims:
        mean = squeeze(mean, axes)
        variance = squeeze(variance, axes)
    return mean, variance


def batch_normalization(x, mean, variance, offset, scale, variance_epsilon, name=None):
    inv = rsqrt(add(variance, variance_epsilon))
    if scale is not None:
        inv = multiply(inv, scale)
    shift = subtract(offset, multiply(mean, inv)) if offset is not None else \
        multiply(mean, -1.0 * inv)
    return add(multiply(x, inv), shift, name=name)


def l2_normalize(x, axis=None, epsilon=1e-12, name=None):
    x = convert_to_tensor(x)
    square_sum = reduce_sum(square(x), axis, keepdims=True)
    return multiply(x, rsqrt(maximum(square_sum, epsilon)), name=name)


def dropout(x, rate, noise_shape=None, seed=None, name=None):
    x = convert_to_tensor(x)
    if not 0 <= float(rate) < 1:
        raise ValueError(f"`rate` must be a scalar tensor or a float in the range [0, 1). "
                         f"Received: rate={rate}")
    if float(rate) == 0:
        return x
    keep = greater_equal(uniform(shape(x) if noise_shape is None else noise_shape,
                                 dtype=x.dtype, seed=seed), rate)
    return where(keep, divide(x, 1 - float(rate)), np.zeros((), x.dtype.as_numpy_dtype),
                 name=name)
