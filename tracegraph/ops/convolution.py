"""Convolution records: `Conv2D`, `Conv3D` (grouped when the input depth is a multiple of the
filter's), `DepthwiseConv2dNative`; the shared attr geometry and type inference their backprop
records (`convolution_backprop.py`) use too. The numerics are in `window_kernels.py`.
"""

from __future__ import annotations

import numpy as np

from .. import dtypes as d
from ..errors import InvalidArgumentError, UnimplementedError
from ..shapes import TensorType, format_dims
from . import window_kernels as W
from .geometry import channels_first, check_groups, explicit_pairs, out_size, padding_amounts
from .geometry import spatial as spatial_of
from .registry import PURE, REQUIRED, TypeAttr, defop

__all__ = ["conv2d_op", "conv3d_op", "depthwise_conv2d_op", "infer_conv2d", "kernel_conv2d",
           "window_geometry", "check_batch_and_depth", "CONV_FLOAT"]

CONV_FLOAT = frozenset({d.float16, d.bfloat16, d.float32, d.float64})


def window_geometry(spatial, kernel, strides, dilations, padding, explicit_paddings,
                    data_format):
    """(strides, dilations, pads) over the spatial dims, from a record's attrs; `spatial` and
    `kernel` are the spatial sizes of the input and of the filter."""
    s = spatial_of(strides, data_format)
    dl = spatial_of(dilations, data_format)
    explicit = explicit_pairs(explicit_paddings, data_format)
    pads = tuple(padding_amounts(n, k, ss, dd, padding, e)
                 for n, k, ss, dd, e in zip(spatial, kernel, s, dl, explicit))
    return s, dl, pads


def check_batch_and_depth(strides, dilations, data_format):
    batch_and_depth = (0, 1) if channels_first(data_format) else (0, len(strides) - 1)
    if any(strides[i] != 1 for i in batch_and_depth):
        raise UnimplementedError("Current implementation does not yet support strides in the "
                                 "batch and depth dimensions.")
    if any(dilations[i] != 1 for i in batch_and_depth):
        raise UnimplementedError("Current implementation does not yet support dilations in the "
                                 "batch and depth dimensions.")


def _check_rank(shape, rank, what):
    if shape is not None and len(shape) != rank:
        raise ValueError(f"{what} must be {rank}-dimensional: {format_dims(shape)}")


def _channels(shape, data_format):
    return shape[1] if channels_first(data_format) else shape[-1]


def _layout(n, spatial, c, data_format):
    return (n, c) + tuple(spatial) if channels_first(data_format) else (n,) + tuple(spatial) + (c,)


def infer_windowed(input, kernel, out_channels, strides, dilations, padding,  # noqa: A002
                   explicit_paddings, data_format, rank):
    """The output type of a convolution-like op: input `[N, *S, C]` (in `data_format`), a
    window of spatial size `kernel` (entries may be None), `out_channels` outputs."""
    if input.shape is None:
        return TensorType(input.dtype, (None,) * rank)
    _check_rank(input.shape, rank, "input")
    spatial = spatial_of(input.shape, data_format)
    s = spatial_of(strides, data_format)
    dl = spatial_of(dilations, data_format)
    explicit = explicit_pairs(explicit_paddings, data_format)
    out = tuple(None if n is None or k is None else out_size(
        n, k, ss, dd, padding_amounts(n, k, ss, dd, padding, e))
        for n, k, ss, dd, e in zip(spatial, kernel, s, dl, explicit))
    return TensorType(input.dtype, _layout(input.shape[0], out, out_channels, data_format))


def _infer_conv(rank):
    def infer(input, filter, strides=REQUIRED, padding=REQUIRED,  # noqa: A002
              explicit_paddings=(), data_format="NHWC", dilations=None, **_):
        _check_rank(filter.shape, rank, "filter")
        fshape = (None,) * rank if filter.shape is None else filter.shape
        if input.shape is not None and filter.shape is not None:
            _check_rank(input.shape, rank, "input")
            check_groups(_channels(input.shape, data_format), fshape[-2], fshape[-1])
        return infer_windowed(input, fshape[:-2], fshape[-1], strides,
                              dilations or (1,) * rank, padding, explicit_paddings,
                              data_format, rank)
    return infer


def _kernel_conv(rank):
    def kernel(input, filter, strides=REQUIRED, padding=REQUIRED,  # noqa: A002
               explicit_paddings=(), data_format="NHWC", dilations=None, **_):
        dilations = dilations or (1,) * rank
        x = W.to_channels_last(input, data_format)
        w = np.asarray(filter)
        if x.ndim != rank:
            raise InvalidArgumentError(f"input must be {rank}-dimensional"
                                       f"{format_dims(np.shape(input))}")
        if w.ndim != rank:
            raise InvalidArgumentError(f"filter must be {rank}-dimensional: "
                                       f"{format_dims(w.shape)}")
        check_batch_and_depth(strides, dilations, data_format)
        try:
            check_groups(x.shape[-1], w.shape[-2], w.shape[-1])
        except ValueError as e:
            raise InvalidArgumentError(str(e)) from None
        s, dl, pads = window_geometry(x.shape[1:-1], w.shape[:-2], strides, dilations, padding,
                                      explicit_paddings, data_format)
        return W.from_channels_last(W.conv(x, w, s, dl, pads), data_format)
    return kernel


infer_conv2d = _infer_conv(4)
_conv2d = _kernel_conv(4)


def kernel_conv2d(input, filter, strides=REQUIRED, padding=REQUIRED,  # noqa: A002
                  explicit_paddings=(), data_format="NHWC", dilations=(1, 1, 1, 1),
                  use_cudnn_on_gpu=True):
    return _conv2d(input, filter, strides=strides, padding=padding,
                   explicit_paddings=explicit_paddings, data_format=data_format,
                   dilations=dilations)


def kernel_conv3d(input, filter, strides=REQUIRED, padding=REQUIRED,  # noqa: A002
                  data_format="NDHWC", dilations=(1, 1, 1, 1, 1)):
    return _conv3d(input, filter, strides=strides, padding=padding, data_format=data_format,
                   dilations=dilations)


_conv3d = _kernel_conv(5)

conv2d_op = defop("conv2d", "Conv2D", inputs=("input: T", "filter: T"),
                  attrs={"T": TypeAttr({d.float16, d.float32, d.float64, d.int32}),
                         "strides": REQUIRED, "padding": REQUIRED, "explicit_paddings": (),
                         "data_format": "NHWC", "dilations": (1, 1, 1, 1),
                         "use_cudnn_on_gpu": True},
                  infer=infer_conv2d, kernel=kernel_conv2d,
                  flags=PURE | {"data_format", "float16_allowed"})
conv3d_op = defop("conv3d", "Conv3D", inputs=("input: T", "filter: T"),
                  attrs={"T": TypeAttr(CONV_FLOAT), "strides": REQUIRED, "padding": REQUIRED,
                         "data_format": "NDHWC", "dilations": (1, 1, 1, 1, 1)},
                  infer=_infer_conv(5), kernel=kernel_conv3d,
                  flags=PURE | {"float16_allowed"})


# ---- depthwise: filter [KH, KW, C, M], output depth C * M ---------------------------------------

def _check_depthwise(c, fc):
    if c is not None and fc is not None and c != fc:
        raise ValueError(f"input and filter must have the same depth: {c} vs {fc}")


def infer_depthwise_conv2d(input, filter, strides=REQUIRED, padding=REQUIRED,  # noqa: A002
                           explicit_paddings=(), data_format="NHWC", dilations=(1, 1, 1, 1)):
    _check_rank(filter.shape, 4, "filter")
    kh, kw, fc, m = (None,) * 4 if filter.shape is None else filter.shape
    c = None
    if input.shape is not None:
        _check_rank(input.shape, 4, "input")
        c = _channels(input.shape, data_format)
        _check_depthwise(c, fc)
    c = c if c is not None else fc
    return infer_windowed(input, (kh, kw), None if c is None or m is None else c * m, strides,
                          dilations, padding, explicit_paddings, data_format, 4)


def kernel_depthwise_conv2d(input, filter, strides=REQUIRED, padding=REQUIRED,  # noqa: A002
                            explicit_paddings=(), data_format="NHWC", dilations=(1, 1, 1, 1)):
    x = W.to_channels_last(input, data_format)
    w = np.asarray(filter)
    if x.ndim != 4:
        raise InvalidArgumentError(f"input must be 4-dimensional{format_dims(np.shape(input))}")
    if w.ndim != 4:
        raise InvalidArgumentError(f"filter must be 4-dimensional: {format_dims(w.shape)}")
    check_batch_and_depth(strides, dilations, data_format)
    try:
        _check_depthwise(x.shape[-1], w.shape[2])
    except ValueError as e:
        raise InvalidArgumentError(str(e)) from None
    s, dl, pads = window_geometry(x.shape[1:-1], w.shape[:2], strides, dilations, padding,
                                  explicit_paddings, data_format)
    return W.from_channels_last(W.depthwise_conv(x, w, s, dl, pads), data_format)


depthwise_conv2d_op = defop(
    "depthwise_conv2d", "DepthwiseConv2dNative", inputs=("input: T", "filter: T"),
    attrs={"T": TypeAttr(CONV_FLOAT), "strides": REQUIRED, "padding": REQUIRED,
           "explicit_paddings": (), "data_format": "NHWC", "dilations": (1, 1, 1, 1)},
    infer=infer_depthwise_conv2d, kernel=kernel_depthwise_conv2d,
    flags=PURE | {"data_format", "float16_allowed"})
