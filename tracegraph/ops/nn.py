"""Neural-network ops (`tf.nn`): activations, softmax, bias_add, conv2d (NHWC and NCHW),
pooling, losses; and the composites TensorFlow builds from them (dropout, moments, ...).
"""

from __future__ import annotations

import numpy as np
from numpy.lib.stride_tricks import sliding_window_view

from .. import dtypes as d
from ..errors import InvalidArgumentError, UnimplementedError
from ..shapes import TensorType, format_dims
from . import gradutil as G
from . import infer as I
from .registry import (
    FLOAT,
    INDEX,
    NO_ATTRS,
    REAL,
    REQUIRED,
    TypeAttr,
    bind,
    convert_to_tensor,
    defgrad,
    defop,
)

_EW = {"elementwise", "pure", "fresh_output"}
_PURE = {"pure"}
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


_SELU_ALPHA = 1.6732632423543772848170429916717
_SELU_SCALE = 1.0507009873554804934193349852946


def kernel_selu(features):
    x = np.asarray(features)
    neg = _SELU_ALPHA * np.expm1(np.minimum(x, 0))
    return (_SELU_SCALE * np.where(x > 0, x, neg)).astype(x.dtype)


def kernel_leaky_relu(features, alpha=0.2):
    x = np.asarray(features)
    return np.where(x > 0, x, x * np.asarray(alpha, x.dtype)).astype(x.dtype)


def _activation(name, tf_type, kernel, attrs=None, allowed=FLOAT, expr=None, onnx=None):
    return defop(name, tf_type, inputs=("features: T",),
                 attrs={"T": TypeAttr(allowed), **(attrs or {})}, infer=I.same, kernel=kernel,
                 expr=expr, flags=_EW, onnx=onnx)


relu_op = _activation("relu", "Relu", kernel_relu, allowed=REAL, onnx="Relu")
relu6_op = _activation("relu6", "Relu6", kernel_relu6, allowed=REAL)
elu_op = _activation("elu", "Elu", kernel_elu, onnx="Elu")
selu_op = _activation("selu", "Selu", kernel_selu, onnx="Selu")
leaky_relu_op = _activation("leaky_relu", "LeakyRelu", kernel_leaky_relu, {"alpha": 0.2},
                            onnx="LeakyRelu")


def kernel_relu_grad(gradients, features):
    g = np.asarray(gradients)
    return g * (np.asarray(features) > 0).astype(g.dtype)


relu_grad_op = defop("relu_grad", "ReluGrad", inputs=("gradients: T", "features: T"),
                     attrs={"T": TypeAttr(REAL)}, infer=I.binary, kernel=kernel_relu_grad,
                     flags=_PURE)

# ---- gradient rules of the activations (above) -----------------------------------------------


@defgrad(relu_op)
def _relu_grad(op, g):
    return bind(relu_grad_op, (g, op.outputs[0]))


@defgrad(relu_grad_op)
def _relu_grad_grad(op, gg):
    return bind(relu_grad_op, (gg, op.inputs[1])), None


def _where_positive(x, g, otherwise):
    return G.op("select", G.op("greater", x, 0), g, otherwise)


@defgrad(relu6_op)
def _relu6_grad(op, g):
    x = op.inputs[0]
    inside = G.op("logical_and", G.op("greater", x, 0), G.op("less", x, 6))
    return G.op("select", inside, g, G.zeros_like(g))


@defgrad(elu_op)
def _elu_grad(op, g):
    y = op.outputs[0]
    return _where_positive(op.inputs[0], g, G.op("multiply", g, G.op("add", y, 1)))


@defgrad(selu_op)
def _selu_grad(op, g):
    x, y = op.inputs[0], op.outputs[0]
    return G.op("select", G.op("greater", x, 0), G.op("multiply", g, _SELU_SCALE),
                G.op("multiply", g, G.op("add", y, _SELU_SCALE * _SELU_ALPHA)))


@defgrad(leaky_relu_op)
def _leaky_relu_grad(op, g):
    return _where_positive(op.inputs[0], g, G.op("multiply", g, op.attrs["alpha"]))

# ---- softmax -----------------------------------------------------------------------------------


def kernel_softmax(logits):
    x = np.asarray(logits)
    if x.ndim == 0:
        raise InvalidArgumentError("logits must have >= 1 dimension, got []")
    e = np.exp(x - np.max(x, axis=-1, keepdims=True))
    return (e / np.sum(e, axis=-1, keepdims=True)).astype(x.dtype)


def kernel_log_softmax(logits):
    x = np.asarray(logits)
    if x.ndim == 0:
        raise InvalidArgumentError("logits must have >= 1 dimension, got []")
    shifted = x - np.max(x, axis=-1, keepdims=True)
    return (shifted - np.log(np.sum(np.exp(shifted), axis=-1, keepdims=True))).astype(x.dtype)


def infer_softmax(logits):
    if logits.shape is not None and len(logits.shape) == 0:
        raise ValueError("logits must have >= 1 dimension, got []")
    return TensorType(logits.dtype, logits.shape)


softmax_op = defop("softmax", "Softmax", inputs=("logits: T",), attrs=_TF, infer=infer_softmax,
                   kernel=kernel_softmax, flags=_PURE, onnx="Softmax")
log_softmax_op = defop("log_softmax", "LogSoftmax", inputs=("logits: T",), attrs=_TF,
                       infer=infer_softmax, kernel=kernel_log_softmax, flags=_PURE,
                       onnx="LogSoftmax")


@defgrad(softmax_op)
def _softmax_grad(op, g):
    y = op.outputs[0]
    dot = G.op("reduce_sum", G.op("multiply", g, y), np.int32(-1), keep_dims=True)
    return G.op("multiply", G.op("subtract", g, dot), y)


@defgrad(log_softmax_op)
def _log_softmax_grad(op, g):
    y = op.outputs[0]
    total = G.op("reduce_sum", g, np.int32(-1), keep_dims=True)
    return G.op("subtract", g, G.op("multiply", G.op("exp", y), total))

# ---- bias_add -----------------------------------------------------------------------------------


def _bias_axis(rank: int, data_format: str) -> int:
    return 1 if data_format.startswith("NC") and rank > 2 else rank - 1


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
                    kernel=kernel_bias_add, flags=_PURE, onnx="Add")


@defgrad(bias_add_op)
def _bias_add_grad(op, g):
    rank = g.shape.rank
    axis = _bias_axis(rank, op.attrs["data_format"])
    return g, G.reduce_sum(g, [i for i in range(rank) if i != axis])

# ---- conv2d and pooling --------------------------------------------------------------------------


def _spatial(values, data_format):
    """(h, w) entries of a 4-vector given in the data format's order."""
    return (values[1], values[2]) if data_format == "NHWC" else (values[2], values[3])


def _padding_amounts(size, k, stride, dilation, padding, explicit):
    eff = (k - 1) * dilation + 1
    if padding == "VALID":
        return 0, 0
    if padding == "EXPLICIT":
        return explicit
    out = -(-size // stride)
    total = max((out - 1) * stride + eff - size, 0)
    return total // 2, total - total // 2


def _out_size(size, k, stride, dilation, pads):
    if size is None:
        return None
    eff = (k - 1) * dilation + 1
    n = size + pads[0] + pads[1] - eff
    if n < 0:
        raise ValueError(f"Computed output size would be negative: {n // stride + 1} [input_size:"
                         f" {size}, effective_filter_size: {eff}, stride: {stride}]")
    return n // stride + 1


def _explicit_pairs(explicit_paddings, data_format):
    if not explicit_paddings:
        return (0, 0), (0, 0)
    p = list(explicit_paddings)
    pairs = [(p[i], p[i + 1]) for i in range(0, 8, 2)]
    return _spatial(pairs, data_format)


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


def _check_groups(c, cin, cout) -> int | None:
    """Grouped convolution: the input depth is a multiple of the filter depth, and the number of
    groups divides the output depth. Returns the number of groups (None: unknown)."""
    if c is None or cin is None:
        return None
    if cin == 0 or c % cin:
        raise ValueError(f"input depth must be evenly divisible by filter depth: {c} vs {cin}")
    groups = c // cin
    if cout is not None and cout % groups:
        raise ValueError(f"output depth must be evenly divisible by number of groups: {cout} vs "
                         f"{groups}")
    return groups


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
        x = np.pad(x, ((0, 0), ph, pw, (0, 0)))
    windows = sliding_window_view(x, ((kh - 1) * dh + 1, (kw - 1) * dw + 1), axis=(1, 2))
    windows = windows[:, ::sh, ::sw, :, ::dh, ::dw]  # [N, OH, OW, C, KH, KW]
    per_group = cout // groups
    out = np.concatenate([
        np.tensordot(windows[:, :, :, g * cin:(g + 1) * cin], wts[..., g * per_group:
                                                                  (g + 1) * per_group],
                     axes=([4, 5, 3], [0, 1, 2]))
        for g in range(groups)], axis=-1).astype(wts.dtype)
    return out.transpose(0, 3, 1, 2) if data_format == "NCHW" else out


conv2d_op = defop("conv2d", "Conv2D", inputs=("input: T", "filter: T"),
                  attrs={"T": TypeAttr({d.float16, d.float32, d.float64, d.int32}),
                         "strides": REQUIRED, "padding": REQUIRED, "explicit_paddings": (),
                         "data_format": "NHWC", "dilations": (1, 1, 1, 1),
                         "use_cudnn_on_gpu": True},
                  infer=infer_conv2d, kernel=kernel_conv2d, flags=_PURE, onnx="Conv")


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


def _max_reduce(x, k, s, pads):
    if any(pads[0]) or any(pads[1]):
        low = -np.inf if x.dtype.kind == "f" else np.iinfo(x.dtype).min
        x = np.pad(x, ((0, 0), pads[0], pads[1], (0, 0)), constant_values=low)
    win = sliding_window_view(x, k, axis=(1, 2))[:, ::s[0], ::s[1]]
    return win.max(axis=(-2, -1))


def _avg_reduce(x, k, s, pads):
    padded = np.pad(x, ((0, 0), pads[0], pads[1], (0, 0)))
    ones = np.pad(np.ones(x.shape[1:3], x.dtype), (pads[0], pads[1]))
    win = sliding_window_view(padded, k, axis=(1, 2))[:, ::s[0], ::s[1]]
    count = sliding_window_view(ones, k)[::s[0], ::s[1]].sum(axis=(-2, -1))
    return (win.sum(axis=(-2, -1)) / count[None, :, :, None]).astype(x.dtype)


def kernel_max_pool(value, ksize=REQUIRED, strides=REQUIRED, padding=REQUIRED,
                    data_format="NHWC"):
    return _pool(value, ksize, strides, padding, data_format, _max_reduce)


def kernel_avg_pool(value, ksize=REQUIRED, strides=REQUIRED, padding=REQUIRED,
                    data_format="NHWC"):
    return _pool(value, ksize, strides, padding, data_format, _avg_reduce)


_POOL_ATTRS = {"ksize": REQUIRED, "strides": REQUIRED, "padding": REQUIRED,
               "data_format": "NHWC"}
max_pool_op = defop("max_pool", "MaxPool", inputs=("input: T",),
                    attrs={"T": TypeAttr(REAL), **_POOL_ATTRS},
                    infer=infer_pool, kernel=kernel_max_pool, flags=_PURE,
                    onnx="MaxPool")
avg_pool_op = defop("avg_pool", "AvgPool", inputs=("value: T",),
                    attrs={"T": TypeAttr(FLOAT), **_POOL_ATTRS}, infer=infer_pool,
                    kernel=kernel_avg_pool, flags=_PURE, onnx="AveragePool")

# ---- losses -------------------------------------------------------------------------------------


def kernel_l2_loss(t):
    x = np.asarray(t)
    return (np.sum(np.square(x), dtype=x.dtype) / 2).astype(x.dtype)


l2_loss_op = defop("l2_loss", "L2Loss", inputs=("t: T",), attrs=_TF,
                   infer=lambda t: TensorType(t.dtype, ()), kernel=kernel_l2_loss, flags=_PURE)


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
                       flags=_PURE)


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
                kernel=kernel_xent, num_outputs=2, flags=_PURE)


@defgrad(l2_loss_op)
def _l2_loss_grad(op, g):
    return G.op("multiply", op.inputs[0], g)


@defgrad(sparse_xent_op)
def _sparse_xent_grad(op, g_loss, g_backprop):
    """The kernel's second output is the gradient of the loss w.r.t. the logits."""
    return G.op("multiply", G.op("expand_dims", g_loss, -1), op.outputs[1]), None


@defgrad(xent_op)
def _xent_grad(op, g_loss, g_backprop):
    features, labels = op.inputs
    scale = G.op("expand_dims", g_loss, -1)
    # softmax * sum(labels) - labels: the kernel's backprop output when labels sum to 1
    total = G.op("reduce_sum", labels, np.int32(-1), keep_dims=True)
    exact = G.op("subtract", G.op("multiply", G.op("softmax", features), total), labels)
    return (G.op("multiply", scale, exact),
            G.op("multiply", scale, G.op("negative", G.op("log_softmax", features))))

# ---- public functions ---------------------------------------------------------------------------


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
        from .math import cast
        features = cast(features, d.float32)
    return bind(leaky_relu_op, (features,), {"alpha": float(alpha)}, name)


def _on_last_axis(op, logits, axis, name):
    from .array import transpose
    logits = convert_to_tensor(logits)
    rank = logits.shape.rank
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


def _four(v, data_format, name):
    if isinstance(v, int):
        v = [v, v]
    v = list(v)
    if len(v) == 1:
        v = v * 2
    if len(v) == 2:
        return (1, v[0], v[1], 1) if data_format == "NHWC" else (1, 1, v[0], v[1])
    if len(v) == 4:
        return tuple(int(x) for x in v)
    raise ValueError(f"{name} should be of length 1, 2 or 4. Received: {name}={v} of length "
                     f"{len(v)}")


def conv2d(input, filters, strides, padding, data_format="NHWC", dilations=None,  # noqa: A002
           name=None):
    """2-D convolution; `padding` is "SAME", "VALID" or explicit [[0,0],[t,b],[l,r],[0,0]]."""
    if data_format not in ("NHWC", "NCHW"):
        raise ValueError(f"data_format must be 'NHWC' or 'NCHW', got {data_format!r}")
    attrs = {"strides": _four(strides, data_format, "strides"), "data_format": data_format,
             "dilations": _four(1 if dilations is None else dilations, data_format, "dilations")}
    if isinstance(padding, str):
        if padding.upper() not in ("SAME", "VALID"):
            raise ValueError(f"padding must be 'SAME', 'VALID' or explicit, got {padding!r}")
        attrs["padding"] = padding.upper()
    else:
        attrs["padding"] = "EXPLICIT"
        attrs["explicit_paddings"] = tuple(int(v) for pair in padding for v in pair)
    return bind(conv2d_op, (input, filters), attrs, name)


def _pool_attrs(ksize, strides, padding, data_format):
    fmt = "NHWC" if data_format in (None, "NHWC") else "NCHW"
    return {"ksize": _four(ksize, fmt, "ksize"), "strides": _four(strides, fmt, "strides"),
            "padding": padding.upper(), "data_format": fmt}


def max_pool2d(input, ksize, strides, padding, data_format="NHWC", name=None):  # noqa: A002
    return bind(max_pool_op, (input,), _pool_attrs(ksize, strides, padding, data_format), name)


def avg_pool2d(input, ksize, strides, padding, data_format="NHWC", name=None):  # noqa: A002
    return bind(avg_pool_op, (input,), _pool_attrs(ksize, strides, padding, data_format), name)


max_pool = max_pool2d
avg_pool = avg_pool2d


def l2_loss(t, name=None):
    return bind(l2_loss_op, (t,), NO_ATTRS, name)


def sparse_softmax_cross_entropy_with_logits(labels=None, logits=None, name=None):
    loss, _ = bind(sparse_xent_op, (logits, labels), NO_ATTRS, name)
    return loss


def softmax_cross_entropy_with_logits(labels, logits, axis=-1, name=None):
    """Cross entropy between `labels` and softmax(`logits`) along `axis` (classes)."""
    from .array import transpose
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
    from .math import abs as abs_
    from .math import add, exp, log1p, multiply, negative, subtract
    logits = convert_to_tensor(logits)
    labels = convert_to_tensor(labels, dtype=logits.dtype)
    relu_logits = relu(logits)
    return add(subtract(relu_logits, multiply(logits, labels)),
               log1p(exp(negative(abs_(logits)))), name=name)


def gelu(features, approximate=False, name=None):
    from .math import add, erf, multiply, pow, tanh  # noqa: A004
    x = convert_to_tensor(features)
    if approximate:
        c = np.sqrt(2.0 / np.pi)
        inner = multiply(c, add(x, multiply(0.044715, pow(x, 3.0))))
        return multiply(multiply(0.5, x), add(1.0, tanh(inner)), name=name)
    return multiply(multiply(0.5, x), add(1.0, erf(multiply(x, 1 / np.sqrt(2.0)))), name=name)


def silu(features, beta=1.0, name=None):
    from .math import multiply, sigmoid
    x = convert_to_tensor(features)
    return multiply(x, sigmoid(multiply(beta, x) if beta != 1.0 else x), name=name)


swish = silu


def moments(x, axes, shift=None, keepdims=False, name=None):
    from .array import squeeze
    from .math import squared_difference
    from .reduce import reduce_mean
    x = convert_to_tensor(x)
    mean = reduce_mean(x, axes, keepdims=True)
    variance = reduce_mean(squared_difference(x, mean), axes, keepdims=True)
    if not keepdims:
        mean = squeeze(mean, axes)
        variance = squeeze(variance, axes)
    return mean, variance


def batch_normalization(x, mean, variance, offset, scale, variance_epsilon, name=None):
    from .math import add, multiply, rsqrt, subtract
    inv = rsqrt(add(variance, variance_epsilon))
    if scale is not None:
        inv = multiply(inv, scale)
    shift = subtract(offset, multiply(mean, inv)) if offset is not None else \
        multiply(mean, -1.0 * inv)
    return add(multiply(x, inv), shift, name=name)


def l2_normalize(x, axis=None, epsilon=1e-12, name=None):
    from .math import maximum, multiply, rsqrt, square
    from .reduce import reduce_sum
    x = convert_to_tensor(x)
    square_sum = reduce_sum(square(x), axis, keepdims=True)
    return multiply(x, rsqrt(maximum(square_sum, epsilon)), name=name)


def dropout(x, rate, noise_shape=None, seed=None, name=None):
    from .array import shape
    from .indexing import where
    from .math import divide, greater_equal
    from .random import uniform
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
