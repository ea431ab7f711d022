"""Backprop records of the convolutions: TensorFlow's ops that compute a convolution's gradient
w.r.t. its input (`Conv2DBackpropInput`, `Conv3DBackpropInputV2`,
`DepthwiseConv2dNativeBackpropInput`: also the transposed convolutions' forward op) and w.r.t.
its filter (`...BackpropFilter`). They take the forward op's geometry attrs, so each is the exact
adjoint of its forward kernel. The gradient rules using them are in `autodiff/rules/`.
"""

from __future__ import annotations

import numpy as np

from .. import dtypes as d
from ..errors import InvalidArgumentError
from ..shapes import TensorType
from . import window_kernels as W
from .convolution import CONV_FLOAT, check_batch_and_depth, window_geometry
from .geometry import channels_first, check_groups, out_size
from .registry import INDEX, REQUIRED, TypeAttr, defop

__all__ = ["conv2d_backprop_input_op", "conv2d_backprop_filter_op",
           "conv3d_backprop_input_op", "conv3d_backprop_filter_op",
           "depthwise_conv2d_backprop_input_op", "depthwise_conv2d_backprop_filter_op"]


def _sizes(value, rank, what):
    sizes = tuple(int(v) for v in np.asarray(value).reshape(-1))
    if len(sizes) != rank:
        raise InvalidArgumentError(f"{what} must be a {rank}-element vector, got "
                                   f"{len(sizes)} elements")
    return sizes


def _channels_last_shape(shape, data_format):
    return (shape[0],) + tuple(shape[2:]) + (shape[1],) if channels_first(data_format) else shape


def _infer_from_sizes(sizes, dtype, rank):
    """The output type from a shape input: known when its value is, else of known rank."""
    if sizes.value is None:
        return TensorType(dtype, (None,) * rank)
    return TensorType(dtype, tuple(int(v) for v in np.asarray(sizes.value).reshape(-1)))


def _make_input_kernel(rank, adjoint, *, grouped):
    def kernel(input_sizes, filter, out_backprop, strides=REQUIRED, padding=REQUIRED,  # noqa: A002
               explicit_paddings=(), data_format="NHWC", dilations=None, **_):
        dilations = dilations or (1,) * rank
        check_batch_and_depth(strides, dilations, data_format)
        shape = _channels_last_shape(_sizes(input_sizes, rank, "input_sizes"), data_format)
        w = np.asarray(filter)
        g = W.to_channels_last(out_backprop, data_format)
        if grouped:
            _groups_or_error(shape[-1], w.shape[-2], w.shape[-1])
        s, dl, pads = window_geometry(shape[1:-1], w.shape[:-2], strides, dilations, padding,
                                      explicit_paddings, data_format)
        _check_out_backprop(shape, w.shape[:-2], s, dl, pads, g.shape,
                            w.shape[-1] if grouped else w.shape[-1] * w.shape[-2])
        return W.from_channels_last(adjoint(shape, w, g, s, dl, pads), data_format)
    return kernel


def _make_filter_kernel(rank, adjoint, *, grouped):
    def kernel(input, filter_sizes, out_backprop, strides=REQUIRED, padding=REQUIRED,  # noqa: A002
               explicit_paddings=(), data_format="NHWC", dilations=None, **_):
        dilations = dilations or (1,) * rank
        check_batch_and_depth(strides, dilations, data_format)
        x = W.to_channels_last(input, data_format)
        fshape = _sizes(filter_sizes, rank, "filter_sizes")
        g = W.to_channels_last(out_backprop, data_format)
        if grouped:
            _groups_or_error(x.shape[-1], fshape[-2], fshape[-1])
        s, dl, pads = window_geometry(x.shape[1:-1], fshape[:-2], strides, dilations, padding,
                                      explicit_paddings, data_format)
        _check_out_backprop(x.shape, fshape[:-2], s, dl, pads, g.shape,
                            fshape[-1] if grouped else fshape[-1] * fshape[-2])
        return adjoint(x, fshape, g, s, dl, pads)
    return kernel


def _groups_or_error(c, cin, cout):
    try:
        check_groups(c, cin, cout)
    except ValueError as e:
        raise InvalidArgumentError(str(e)) from None


def _check_out_backprop(shape, kernel, s, dl, pads, got, out_depth=None):
    """The upstream gradient has the forward output's shape (TensorFlow's message)."""
    if out_depth is not None and got[-1] != out_depth:
        raise InvalidArgumentError(f"Conv backprop: filter and out_backprop must have the same "
                                   f"out_depth ({out_depth} vs {got[-1]})")
    if got[0] != shape[0]:
        raise InvalidArgumentError(f"Conv backprop: input and out_backprop must have the same "
                                   f"batch size, input batch: {shape[0]} outbackprop batch: "
                                   f"{got[0]} batch_dim: 0")
    for i, (n, k, ss, dd, p) in enumerate(zip(shape[1:-1], kernel, s, dl, pads)):
        want = out_size(n, k, ss, dd, p)
        if got[1 + i] != want:
            raise InvalidArgumentError(
                f"Conv backprop: Size of out_backprop doesn't match computed: actual = "
                f"{got[1 + i]}, computed = {want} spatial_dim: {1 + i} input: {n} filter: {k} "
                f"output: {got[1 + i]} stride: {ss} dilation: {dd}")


_kernel_conv2d_input = _make_input_kernel(4, W.conv_backprop_input, grouped=True)
_kernel_conv2d_filter = _make_filter_kernel(4, W.conv_backprop_filter, grouped=True)


def kernel_conv2d_backprop_input(input_sizes, filter, out_backprop,  # noqa: A002
                                 strides=REQUIRED, padding=REQUIRED, explicit_paddings=(),
                                 data_format="NHWC", dilations=(1, 1, 1, 1),
                                 use_cudnn_on_gpu=True):
    return _kernel_conv2d_input(input_sizes, filter, out_backprop, strides=strides,
                                padding=padding, explicit_paddings=explicit_paddings,
                                data_format=data_format, dilations=dilations)


def kernel_conv2d_backprop_filter(input, filter_sizes, out_backprop,  # noqa: A002
                                  strides=REQUIRED, padding=REQUIRED, explicit_paddings=(),
                                  data_format="NHWC", dilations=(1, 1, 1, 1),
                                  use_cudnn_on_gpu=True):
    return _kernel_conv2d_filter(input, filter_sizes, out_backprop, strides=strides,
                                 padding=padding, explicit_paddings=explicit_paddings,
                                 data_format=data_format, dilations=dilations)


def _input_infer(rank):
    def infer(input_sizes, filter, out_backprop, **_):  # noqa: A002
        return _infer_from_sizes(input_sizes, out_backprop.dtype, rank)
    return infer


def _filter_infer(rank):
    def infer(input, filter_sizes, out_backprop, **_):  # noqa: A002
        return _infer_from_sizes(filter_sizes, out_backprop.dtype, rank)
    return infer


_CONV2D_ATTRS = {"T": TypeAttr(CONV_FLOAT - {d.bfloat16}), "strides": REQUIRED,
                 "padding": REQUIRED, "explicit_paddings": (), "data_format": "NHWC",
                 "dilations": (1, 1, 1, 1), "use_cudnn_on_gpu": True}
conv2d_backprop_input_op = defop(
    "conv2d_backprop_input", "Conv2DBackpropInput",
    inputs=("input_sizes: int32", "filter: T", "out_backprop: T"), attrs=_CONV2D_ATTRS,
    infer=_input_infer(4), kernel=kernel_conv2d_backprop_input,
    flags={"pure", "float16_allowed"})
conv2d_backprop_filter_op = defop(
    "conv2d_backprop_filter", "Conv2DBackpropFilter",
    inputs=("input: T", "filter_sizes: int32", "out_backprop: T"), attrs=_CONV2D_ATTRS,
    infer=_filter_infer(4), kernel=kernel_conv2d_backprop_filter,
    flags={"pure", "float16_allowed"})

# ---- 3-D -----------------------------------------------------------------------------------------

_kernel_conv3d_input = _make_input_kernel(5, W.conv_backprop_input, grouped=True)
_kernel_conv3d_filter = _make_filter_kernel(5, W.conv_backprop_filter, grouped=True)


def kernel_conv3d_backprop_input(input_sizes, filter, out_backprop,  # noqa: A002
                                 strides=REQUIRED, padding=REQUIRED, data_format="NDHWC",
                                 dilations=(1, 1, 1, 1, 1)):
    return _kernel_conv3d_input(input_sizes, filter, out_backprop, strides=strides,
                                padding=padding, data_format=data_format, dilations=dilations)


def kernel_conv3d_backprop_filter(input, filter_sizes, out_backprop,  # noqa: A002
                                  strides=REQUIRED, padding=REQUIRED, data_format="NDHWC",
                                  dilations=(1, 1, 1, 1, 1)):
    return _kernel_conv3d_filter(input, filter_sizes, out_backprop, strides=strides,
                                 padding=padding, data_format=data_format, dilations=dilations)


_CONV3D_ATTRS = {"T": TypeAttr(CONV_FLOAT), "strides": REQUIRED, "padding": REQUIRED,
                 "data_format": "NDHWC", "dilations": (1, 1, 1, 1, 1)}
conv3d_backprop_input_op = defop(
    "conv3d_backprop_input", "Conv3DBackpropInputV2",
    inputs=("input_sizes: Tshape", "filter: T", "out_backprop: T"),
    attrs={**_CONV3D_ATTRS, "Tshape": TypeAttr(INDEX, d.int32)},
    infer=_input_infer(5), kernel=kernel_conv3d_backprop_input,
    flags={"pure", "float16_allowed"})
conv3d_backprop_filter_op = defop(
    "conv3d_backprop_filter", "Conv3DBackpropFilterV2",
    inputs=("input: T", "filter_sizes: int32", "out_backprop: T"), attrs=_CONV3D_ATTRS,
    infer=_filter_infer(5), kernel=kernel_conv3d_backprop_filter,
    flags={"pure", "float16_allowed"})

# ---- depthwise -----------------------------------------------------------------------------------

_DEPTHWISE_ATTRS = {"T": TypeAttr(CONV_FLOAT), "strides": REQUIRED, "padding": REQUIRED,
                    "explicit_paddings": (), "data_format": "NHWC",
                    "dilations": (1, 1, 1, 1)}
_kernel_depthwise_input = _make_input_kernel(4, W.depthwise_backprop_input, grouped=False)
_kernel_depthwise_filter = _make_filter_kernel(4, W.depthwise_backprop_filter, grouped=False)


def kernel_depthwise_conv2d_backprop_input(input_sizes, filter, out_backprop,  # noqa: A002
                                           strides=REQUIRED, padding=REQUIRED,
                                           explicit_paddings=(), data_format="NHWC",
                                           dilations=(1, 1, 1, 1)):
    return _kernel_depthwise_input(input_sizes, filter, out_backprop, strides=strides,
                                   padding=padding, explicit_paddings=explicit_paddings,
                                   data_format=data_format, dilations=dilations)


def kernel_depthwise_conv2d_backprop_filter(input, filter_sizes, out_backprop,  # noqa: A002
                                            strides=REQUIRED, padding=REQUIRED,
                                            explicit_paddings=(), data_format="NHWC",
                                            dilations=(1, 1, 1, 1)):
    return _kernel_depthwise_filter(input, filter_sizes, out_backprop, strides=strides,
                                    padding=padding, explicit_paddings=explicit_paddings,
                                    data_format=data_format, dilations=dilations)


depthwise_conv2d_backprop_input_op = defop(
    "depthwise_conv2d_backprop_input", "DepthwiseConv2dNativeBackpropInput",
    inputs=("input_sizes: int32", "filter: T", "out_backprop: T"), attrs=_DEPTHWISE_ATTRS,
    infer=_input_infer(4), kernel=kernel_depthwise_conv2d_backprop_input,
    flags={"pure", "float16_allowed"})
depthwise_conv2d_backprop_filter_op = defop(
    "depthwise_conv2d_backprop_filter", "DepthwiseConv2dNativeBackpropFilter",
    inputs=("input: T", "filter_sizes: int32", "out_backprop: T"), attrs=_DEPTHWISE_ATTRS,
    infer=_filter_infer(4), kernel=kernel_depthwise_conv2d_backprop_filter,
    flags={"pure", "float16_allowed"})
