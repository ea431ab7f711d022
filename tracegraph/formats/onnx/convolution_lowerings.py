"""ONNX lowerings of convolutions and pooling: TensorFlow's NHWC is kept by transposing
around ONNX's NCHW ops."""

from __future__ import annotations

import numpy as np

from .elementwise_lowerings import lower_relu6
from .lowering_table import onnx_lowering
from .matrix_lowerings import FUSED_ACTIVATIONS

# ---- layout and padding --------------------------------------------------------------------------

def _nchw(ctx, x, attrs_format):
    return x if attrs_format == "NCHW" else ctx.node("Transpose", [x], perm=[0, 3, 1, 2])


def _back(ctx, y, attrs_format):
    return y if attrs_format == "NCHW" else ctx.node("Transpose", [y], perm=[0, 2, 3, 1])


def _spatial(values, data_format):
    return list(values[2:4] if data_format == "NCHW" else values[1:3])


def _padding(ctx):
    padding = ctx.attrs["padding"]
    if padding == "SAME":
        return {"auto_pad": "SAME_UPPER"}
    if padding == "VALID":
        return {"auto_pad": "VALID"}
    if padding == "EXPLICIT":
        pairs = np.asarray(ctx.attrs["explicit_paddings"]).reshape(4, 2)
        h, w = _spatial(list(pairs), ctx.attrs.get("data_format", "NHWC"))
        return {"pads": [int(h[0]), int(w[0]), int(h[1]), int(w[1])]}
    ctx.fail(f"padding {padding!r} does not lower")


# ---- convolution ---------------------------------------------------------------------------------

@onnx_lowering("Conv2D")
def lower_conv2d(ctx, x, filters, bias=None):
    fmt = ctx.attrs.get("data_format", "NHWC")
    weights = ctx.node("Transpose", [filters], perm=[3, 2, 0, 1])
    y = ctx.node("Conv", [_nchw(ctx, x, fmt), weights] + ([] if bias is None else [bias]),
                 strides=_spatial(ctx.attrs["strides"], fmt),
                 dilations=_spatial(ctx.attrs.get("dilations", (1, 1, 1, 1)), fmt),
                 **_padding(ctx))
    return _back(ctx, y, fmt)


@onnx_lowering("_FusedConv2D")
def lower_fused_conv2d(ctx, x, filters, bias):
    out = lower_conv2d(ctx, x, filters, bias)
    for name in ctx.attrs.get("fused_ops", ())[1:]:
        out = lower_relu6(ctx, out) if name == "Relu6" else ctx.node(FUSED_ACTIVATIONS[name], [out])
    return out


# ---- pooling -------------------------------------------------------------------------------------

_POOLS = {"MaxPool": "MaxPool", "AvgPool": "AveragePool"}


@onnx_lowering(*_POOLS)
def lower_pool(ctx, x):
    op_type = _POOLS[ctx.op.type]
    fmt = ctx.attrs.get("data_format", "NHWC")
    extra = {"count_include_pad": 0} if op_type == "AveragePool" else {}
    y = ctx.node(op_type, [_nchw(ctx, x, fmt)],
                 kernel_shape=_spatial(ctx.attrs["ksize"], fmt),
                 strides=_spatial(ctx.attrs["strides"], fmt), **_padding(ctx), **extra)
    return _back(ctx, y, fmt)
