"""ONNX lowerings of convolutions and pooling, 2-D and 3-D: TensorFlow's channels-last layouts
are kept by transposing around ONNX's channels-first ops; filters `[*K, Cin, Cout]` become
ONNX's `[Cout, Cin, *K]` (grouped convolutions set `group`; a depthwise filter `[KH, KW, C, M]`
is a convolution of C groups); a transposed convolution (`Conv2DBackpropInput`,
`Conv3DBackpropInputV2` with a constant output shape) is `ConvTranspose` with the padding and
output padding that give TensorFlow's output size."""

from __future__ import annotations

import numpy as np

from ... import dtypes as d
from ...ops.geometry import explicit_pairs, out_size, padding_amounts
from .elementwise_lowerings import lower_relu6
from .lowering_table import onnx_lowering
from .matrix_lowerings import FUSED_ACTIVATIONS

# ---- layout and padding --------------------------------------------------------------------------


def _format(ctx):
    return ctx.attrs.get("data_format", "NHWC")


def _to_channels_first(ctx, x, fmt, rank):
    if fmt.startswith("NC"):
        return x
    return ctx.node("Transpose", [x], perm=[0, rank - 1] + list(range(1, rank - 1)))


def _back(ctx, y, fmt, rank):
    if fmt.startswith("NC"):
        return y
    return ctx.node("Transpose", [y], perm=[0] + list(range(2, rank)) + [1])


def _spatial(values, data_format):
    values = list(values)
    return values[2:] if data_format.startswith("NC") else values[1:-1]


def _padding(ctx, kernel=None):
    padding = ctx.attrs["padding"]
    fmt = _format(ctx)
    dilations = _spatial(ctx.attrs.get("dilations", (1,) * 5), fmt)
    if padding == "SAME" and kernel is not None and any(v != 1 for v in dilations):
        # onnxruntime takes no SAME padding with dilations: the amounts, from known sizes
        shape = ctx.input_types[0].shape
        spatial = _spatial(shape.as_list(), fmt) if shape.rank else [None]
        if None in spatial or None in kernel:
            ctx.fail("a dilated SAME convolution needs its spatial sizes known")
        strides = _spatial(ctx.attrs["strides"], fmt)
        pairs = [padding_amounts(n, k, st, dl, "SAME", None)
                 for n, k, st, dl in zip(spatial, kernel, strides, dilations)]
        return {"pads": [a for a, _ in pairs] + [b for _, b in pairs]}
    if padding == "SAME":
        return {"auto_pad": "SAME_UPPER"}
    if padding == "VALID":
        return {"auto_pad": "VALID"}
    if padding == "EXPLICIT":
        pairs = explicit_pairs(ctx.attrs["explicit_paddings"], _format(ctx))
        return {"pads": [int(a) for a, _ in pairs] + [int(b) for _, b in pairs]}
    ctx.fail(f"padding {padding!r} does not lower")


def _filter_to_onnx(ctx, filters, rank):
    """[*K, Cin, Cout] -> [Cout, Cin, *K]."""
    return ctx.node("Transpose", [filters], perm=[rank - 1, rank - 2] + list(range(rank - 2)))


def _groups(ctx, fmt):
    x, w = ctx.input_types[0].shape, ctx.input_types[1].shape
    c = x.as_list()[1 if fmt.startswith("NC") else -1] if x.rank else None
    cin = w.as_list()[-2] if w.rank else None
    if c is None or cin is None:
        ctx.fail("needs the input's and the filter's depths known to set ONNX's group")
    return c // cin


# ---- convolution ---------------------------------------------------------------------------------

def _conv(ctx, x, weights, bias, rank, group):
    fmt = _format(ctx)
    kernel = ctx.input_types[1].shape.as_list()[:2 if rank == 4 else 3] \
        if ctx.input_types[1].shape.rank else [None]
    inputs = [_to_channels_first(ctx, x, fmt, rank), weights] + ([] if bias is None else [bias])
    y = ctx.node("Conv", inputs, strides=_spatial(ctx.attrs["strides"], fmt),
                 dilations=_spatial(ctx.attrs.get("dilations", (1,) * rank), fmt),
                 group=group, **_padding(ctx, kernel))
    return _back(ctx, y, fmt, rank)


@onnx_lowering("Conv2D", "Conv3D")
def lower_conv(ctx, x, filters, bias=None):
    rank = 5 if ctx.op.type.startswith("Conv3D") else 4
    return _conv(ctx, x, _filter_to_onnx(ctx, filters, rank), bias, rank,
                 _groups(ctx, _format(ctx)))


@onnx_lowering("_FusedConv2D")
def lower_fused_conv2d(ctx, x, filters, bias):
    out = lower_conv(ctx, x, filters, bias)
    for name in ctx.attrs.get("fused_ops", ())[1:]:
        out = lower_relu6(ctx, out) if name == "Relu6" else ctx.node(FUSED_ACTIVATIONS[name], [out])
    return out


@onnx_lowering("DepthwiseConv2dNative")
def lower_depthwise_conv2d(ctx, x, filters):
    shape = ctx.input_types[1].shape
    if shape.rank is None or None in shape.as_list():
        ctx.fail("needs the filter's shape known")
    kh, kw, c, m = shape.as_list()
    # [KH, KW, C, M] -> [KH, KW, 1, C*M] -> [C*M, 1, KH, KW]: output channel c*M + m
    flat = ctx.node("Reshape", [filters, ctx.const(np.array([kh, kw, 1, c * m], np.int64))])
    return _conv(ctx, x, ctx.node("Transpose", [flat], perm=[3, 2, 0, 1]), None, 4, c)


@onnx_lowering("Conv2DBackpropInput", "Conv3DBackpropInputV2")
def lower_conv_transpose(ctx, input_sizes, filters, out_backprop):
    rank = 5 if ctx.op.type.startswith("Conv3D") else 4
    fmt = _format(ctx)
    sizes = [int(v) for v in ctx.known(0, "output shape")]
    kernel = ctx.input_types[1].shape.as_list()[:-2]
    if None in kernel:
        ctx.fail("needs the filter's spatial shape known")
    strides = _spatial(ctx.attrs["strides"], fmt)
    dilations = _spatial(ctx.attrs.get("dilations", (1,) * rank), fmt)
    explicit = explicit_pairs(ctx.attrs.get("explicit_paddings", ()), fmt)
    begin, end, extra = [], [], []
    for n, k, s, dl, e in zip(_spatial(sizes, fmt), kernel, strides, dilations, explicit):
        a, z = padding_amounts(n, k, s, dl, ctx.attrs["padding"], e)
        o = out_size(n, k, s, dl, (a, z))
        begin.append(a)
        end.append(z)
        extra.append(n - (s * (o - 1) + (k - 1) * dl + 1 - a - z))
    y = ctx.node("ConvTranspose", [_to_channels_first(ctx, out_backprop, fmt, rank),
                                   _filter_to_onnx(ctx, filters, rank)],
                 strides=strides, dilations=dilations, pads=begin + end, output_padding=extra)
    return _back(ctx, y, fmt, rank)


# ---- pooling -------------------------------------------------------------------------------------

_POOLS = {"MaxPool": "MaxPool", "AvgPool": "AveragePool", "MaxPool3D": "MaxPool",
          "AvgPool3D": "AveragePool"}


@onnx_lowering(*_POOLS)
def lower_pool(ctx, x):
    op_type = _POOLS[ctx.op.type]
    rank = 5 if ctx.op.type.endswith("3D") else 4
    fmt = _format(ctx)
    extra = {"count_include_pad": 0} if op_type == "AveragePool" else {}
    y = ctx.node(op_type, [_to_channels_first(ctx, x, fmt, rank)],
                 kernel_shape=_spatial(ctx.attrs["ksize"], fmt),
                 strides=_spatial(ctx.attrs["strides"], fmt), **_padding(ctx), **extra)
    return _back(ctx, y, fmt, rank)


@onnx_lowering("MaxPoolWithArgmax")
def lower_max_pool_with_argmax(ctx, x):
    """ONNX's MaxPool gives the index of each maximum in the NCHW input, ((n C + c) H + h) W +
    w; TensorFlow's is NHWC's, (h W + w) C + c, with n H W C added by include_batch_in_index."""
    dims = ctx.input_types[0].shape.as_list() if ctx.input_types[0].shape.rank else None
    if dims is None or None in dims[1:]:
        ctx.fail("max_pool_with_argmax needs the image's height, width and channels known")
    _, h, w, c = dims
    y, onnx_index = ctx.node("MaxPool", [_to_channels_first(ctx, x, "NHWC", 4)], outputs=2,
                             kernel_shape=_spatial(ctx.attrs["ksize"], "NHWC"),
                             strides=_spatial(ctx.attrs["strides"], "NHWC"), **_padding(ctx))
    plane = ctx.const(h * w, np.int64)
    pixel = ctx.node("Mod", [onnx_index, plane])
    image_channel = ctx.node("Div", [onnx_index, plane])
    channel = ctx.node("Mod", [image_channel, ctx.const(c, np.int64)])
    if ctx.attrs.get("include_batch_in_index"):
        image = ctx.node("Div", [image_channel, ctx.const(c, np.int64)])
        pixel = ctx.node("Add", [ctx.node("Mul", [image, plane]), pixel])
    index = ctx.node("Add", [ctx.node("Mul", [pixel, ctx.const(c, np.int64)]), channel])
    return _back(ctx, y, "NHWC", 4), ctx.cast_back(_back(ctx, index, "NHWC", 4),
                                                   ctx.attrs.get("Targmax", d.int64))


# ---- normalization and blocks over the channels --------------------------------------------------

@onnx_lowering("LRN")
def lower_lrn(ctx, x):
    """ONNX's LRN sums `size` channels and divides alpha by size: TensorFlow's radius r is
    size 2r + 1 and its alpha is ONNX's alpha / size."""
    size = 2 * int(ctx.attrs["depth_radius"]) + 1
    y = ctx.node("LRN", [_to_channels_first(ctx, x, "NHWC", 4)], size=size,
                 alpha=float(ctx.attrs["alpha"]) * size, beta=float(ctx.attrs["beta"]),
                 bias=float(ctx.attrs["bias"]))
    return _back(ctx, y, "NHWC", 4)


@onnx_lowering("DepthToSpace", "SpaceToDepth")
def lower_depth_blocks(ctx, x):
    """TensorFlow orders a block's pixels before the channels: ONNX's DCR order."""
    fmt = _format(ctx)
    extra = {"mode": "DCR"} if ctx.op.type == "DepthToSpace" else {}
    y = ctx.node(ctx.op.type, [_to_channels_first(ctx, x, fmt, 4)],
                 blocksize=int(ctx.attrs["block_size"]), **extra)
    return _back(ctx, y, fmt, 4)


# ---- blocks of space moved into the batch and back (dilated pooling) ----------------------------

def _static_blocks(ctx):
    shape = ctx.input_types[0].shape
    block = ctx.known(1, "block shape").reshape(-1).astype(int).tolist()
    pairs = ctx.known(2, "padding or crops").reshape(-1, 2).astype(int).tolist()
    dims = shape.as_list() if shape.rank is not None else None
    if dims is None or None in dims:
        ctx.fail("moving blocks between space and batch needs the input's shape known")
    return dims, block, pairs


@onnx_lowering("SpaceToBatchND")
def lower_space_to_batch(ctx, x, block_shape, paddings):
    """Pad, split each spatial dim into (blocks, block), move the blocks before the batch."""
    dims, block, pads = _static_blocks(ctx)
    m, rest = len(block), dims[1 + len(block):]
    before = [0] + [a for a, _ in pads] + [0] * len(rest)
    after = [0] + [b for _, b in pads] + [0] * len(rest)
    padded = ctx.node("Pad", [x, ctx.const(before + after, np.int64)], mode="constant")
    sizes = [n + a + b for n, (a, b) in zip(dims[1:1 + m], pads)]
    split = [dims[0]] + [v for n, b in zip(sizes, block) for v in (n // b, b)] + rest
    y = ctx.node("Reshape", [padded, ctx.const(split, np.int64)])
    perm = [2 + 2 * i for i in range(m)] + [0] + [1 + 2 * i for i in range(m)] + \
        list(range(1 + 2 * m, 1 + 2 * m + len(rest)))
    y = ctx.node("Transpose", [y], perm=perm)
    out = [dims[0] * int(np.prod(block))] + [n // b for n, b in zip(sizes, block)] + rest
    return ctx.node("Reshape", [y, ctx.const(out, np.int64)])


@onnx_lowering("BatchToSpaceND")
def lower_batch_to_space(ctx, x, block_shape, crops):
    """The blocks out of the batch, interleaved back into each spatial dim, then cropped."""
    dims, block, crops = _static_blocks(ctx)
    m, rest = len(block), dims[1 + len(block):]
    batch = dims[0] // int(np.prod(block))
    y = ctx.node("Reshape", [x, ctx.const(block + [batch] + dims[1:], np.int64)])
    perm = [m] + [v for i in range(m) for v in (m + 1 + i, i)] + \
        list(range(2 * m + 1, 2 * m + 1 + len(rest)))
    y = ctx.node("Transpose", [y], perm=perm)
    full = [n * b for n, b in zip(dims[1:1 + m], block)]
    y = ctx.node("Reshape", [y, ctx.const([batch] + full + rest, np.int64)])
    return ctx.node("Slice", [y, ctx.const([a for a, _ in crops], np.int64),
                              ctx.const([n - b for n, (_, b) in zip(full, crops)], np.int64),
                              ctx.const(list(range(1, 1 + m)), np.int64)])
