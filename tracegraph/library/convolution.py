"""`tf.nn`'s convolutions as TensorFlow 2.21 writes them: `convolution` picks `conv1d`
(`ExpandDims`, `Conv2D`, `Squeeze`), `conv2d` (`Conv2D`) or `conv3d` (`Conv3D`) from the filter's
rank; transposed convolutions are the backprop-input records (`Conv2DBackpropInput`,
`Conv3DBackpropInputV2`); `depthwise_conv2d` is `DepthwiseConv2dNative`, `separable_conv2d` a
depthwise then a 1x1 `Conv2D`. Inputs with more than one batch dim are reshaped to one and back.

A dilated convolution is the record with its `dilations` attr (TensorFlow's Python routes it
through SpaceToBatchND / BatchToSpaceND around an undilated op: same values, one op here).
"""

from __future__ import annotations

import numpy as np

from ..ops.convolution import conv2d_op, conv3d_op, depthwise_conv2d_op
from ..ops.convolution_backprop import (
    conv2d_backprop_input_op,
    conv3d_backprop_input_op,
    depthwise_conv2d_backprop_filter_op,
    depthwise_conv2d_backprop_input_op,
)
from ..ops.registry import bind, convert_to_tensor
from .array import expand_dims, reshape, shape, squeeze
from .join_split import concat, stack

__all__ = ["convolution", "conv1d", "conv2d", "conv3d", "conv1d_transpose", "conv2d_transpose",
           "conv3d_transpose", "conv_transpose", "depthwise_conv2d", "separable_conv2d",
           "depthwise_conv2d_backprop_input", "depthwise_conv2d_backprop_filter",
           "atrous_conv2d", "atrous_conv2d_transpose", "sequence_arg", "padding_arg"]

CHANNELS_LAST = {"NWC", "NHWC", "NDHWC", "NWHC", "NDWHC", "NHDWC", "NHWDC", "NCHW_VECT_C"}


def sequence_arg(value, n, channel_index, name):
    """TensorFlow's per-dimension argument: an int or a sequence of length 1, n or n + 2, as the
    n + 2 entries the records take (1 for the batch and channel dims)."""
    if value is None:
        return [1] * (n + 2)
    if isinstance(value, (list, tuple)):
        value = list(value)
    elif isinstance(value, (int, np.integer)) or not hasattr(value, "__len__"):
        value = [value]
    else:
        value = list(value)
    value = [int(v) for v in value]
    if len(value) == n + 2:
        return value
    if len(value) == 1:
        value = value * n
    elif len(value) != n:
        raise ValueError(f"{name} should be of length 1, {n} or {n + 2}. Received: "
                         f"{name}={value} of length {len(value)}")
    return [1, 1] + value if channel_index == 1 else [1] + value + [1]


def padding_arg(padding, expected_length=4):
    """("SAME" | "VALID" | "EXPLICIT", explicit_paddings) from a padding string or list of
    [before, after] pairs, one per dim."""
    if isinstance(padding, str):
        if padding == "EXPLICIT":
            raise ValueError("'EXPLICIT' is not a valid value for `padding`. To use explicit "
                             "padding, `padding` must be a list.")
        if padding.upper() not in ("SAME", "VALID"):
            raise ValueError(f"padding must be 'SAME', 'VALID' or explicit, got {padding!r}")
        return padding.upper(), []
    explicit = []
    for i, pair in enumerate(padding):
        if not isinstance(pair, (list, tuple)):
            raise ValueError(f"When `padding` is a list, each element of `padding` must be a "
                             f"list/tuple of size 2. Received: padding={padding} with element "
                             f"at index {i} of type {type(pair)}")
        if len(pair) != 2:
            raise ValueError(f"When `padding` is a list, each element of `padding` must be a "
                             f"list/tuple of size 2. Received: padding={padding} with element "
                             f"at index {i} of size {len(pair)}")
        explicit.extend(int(v) for v in pair)
    if len(padding) != expected_length:
        raise ValueError(f"When padding is a list, it must be of size {expected_length}. "
                         f"Received: padding={padding} of size {len(padding)}")
    return "EXPLICIT", explicit


def _check_strides_and_dilations(strides, dilations):
    if any(s > 1 for s in strides) and any(d > 1 for d in dilations):
        raise ValueError(f"`strides > 1` not supported in conjunction with `dilation_rate > 1`. "
                         f"Received: strides={np.array(strides, np.int32)} and "
                         f"dilation_rate={np.array(dilations, np.int32)}")


def _spatial(values, channel_index):
    return values[2:] if channel_index == 1 else values[1:-1]


def _with_one_batch_dim(x, inner_rank, fn):
    """`fn` on `x` whose leading batch dims are folded into one (TensorFlow's
    squeeze_batch_dims): ranks up to `inner_rank + 1` go straight to `fn`."""
    rank = x.shape.rank
    if rank is None or rank <= inner_rank + 1:
        return fn(x)
    outer = shape(x)[:rank - inner_rank]
    y = fn(reshape(x, concat([[-1], shape(x)[rank - inner_rank:]], 0)))
    return reshape(y, concat([outer, shape(y)[1:]], 0))


# ---- forward convolutions ------------------------------------------------------------------------

def conv2d(input, filters, strides, padding, data_format="NHWC", dilations=None,  # noqa: A002
           name=None):
    """2-D convolution; `padding` is "SAME", "VALID" or explicit [[0,0],[t,b],[l,r],[0,0]]."""
    if data_format not in ("NHWC", "NCHW"):
        raise ValueError(f"data_format must be 'NHWC' or 'NCHW', got {data_format!r}")
    channel_index = 1 if data_format.startswith("NC") else 3
    padding, explicit = padding_arg(padding)
    attrs = {"strides": tuple(sequence_arg(strides, 2, channel_index, "strides")),
             "padding": padding, "explicit_paddings": tuple(explicit),
             "data_format": data_format,
             "dilations": tuple(sequence_arg(dilations, 2, channel_index, "dilations"))}
    x = convert_to_tensor(input)
    return _with_one_batch_dim(x, 3, lambda x: bind(conv2d_op, (x, filters), attrs, name))


def conv1d(input, filters, stride, padding, data_format="NWC", dilations=None,  # noqa: A002
           name=None):
    """1-D convolution as TensorFlow computes it: a 2-D convolution of a height-1 image."""
    if data_format in (None, "NHWC", "NWC"):
        fmt, spatial_start, channel_index = "NHWC", -3, 2
    elif data_format in ("NCHW", "NCW"):
        fmt, spatial_start, channel_index = "NCHW", -2, 1
    else:
        raise ValueError(f"`data_format` must be 'NWC' or 'NCW'. Received: "
                         f"data_format={data_format}")
    strides = [1] + sequence_arg(stride, 1, channel_index, "stride")
    dilations = [1] + sequence_arg(dilations, 1, channel_index, "dilations")
    if isinstance(padding, str):
        padding = padding.upper()
    x = expand_dims(input, spatial_start)
    w = expand_dims(filters, 0)
    attrs = {"strides": tuple(strides), "padding": padding, "data_format": fmt,
             "dilations": tuple(dilations)}
    out = _with_one_batch_dim(x, 3, lambda x: bind(conv2d_op, (x, w), attrs, None))
    return squeeze(out, [spatial_start], name=name)


def conv3d(input, filters, strides, padding, data_format="NDHWC", dilations=None,  # noqa: A002
           name=None):
    """3-D convolution (`Conv3D`); `strides` and `dilations` have 5 entries as TensorFlow's."""
    attrs = {"strides": tuple(int(s) for s in strides), "padding": padding,
             "data_format": data_format,
             "dilations": (1,) * 5 if dilations is None else tuple(int(v) for v in dilations)}
    x = convert_to_tensor(input)
    return _with_one_batch_dim(x, 4, lambda x: bind(conv3d_op, (x, filters), attrs, name))


def convolution(input, filters, strides=None, padding="VALID", data_format=None,  # noqa: A002
                dilations=None, name=None):
    """N-D convolution (N = 1, 2, 3 from the filter's rank), TensorFlow's `tf.nn.convolution`."""
    filters = convert_to_tensor(filters)
    x = convert_to_tensor(input, dtype_hint=filters.dtype)
    n = _num_spatial_dims(x, filters)
    rank = x.shape.rank
    batch_dims = rank - n - 1 if rank is not None else 1
    channels_last = data_format is None or data_format in CHANNELS_LAST
    channel_index = batch_dims + n if channels_last else batch_dims
    dilations = sequence_arg(dilations, n, channel_index, "dilations")
    strides = sequence_arg(strides, n, channel_index, "strides")
    _check_strides_and_dilations(_spatial(strides, 1 if not channels_last else 0),
                                 _spatial(dilations, 1 if not channels_last else 0))
    if n == 2:
        return conv2d(x, filters, strides, padding, data_format or "NHWC", dilations, name)
    if n == 3:
        if isinstance(padding, (list, tuple)):
            raise ValueError("Explicit padding is not supported with an input of rank 5.")
        return conv3d(x, filters, strides, padding, data_format or "NDHWC", dilations, name)
    return conv1d(x, filters, strides, padding, data_format or "NWC", dilations, name)


def _num_spatial_dims(x, filters):
    if filters.shape.rank:
        n = filters.shape.rank - 2
    elif x.shape.rank:
        n = x.shape.rank - 2
    else:
        raise ValueError(f"When `num_spatial_dims` is not set, one of `input.shape.rank` or "
                         f"`filters.shape.rank` must be known. Received: input.shape="
                         f"{x.shape} of rank {x.shape.rank} and filters.shape={filters.shape} "
                         f"of rank {filters.shape.rank}")
    if n not in (1, 2, 3):
        raise ValueError(f"`num_spatial_dims` must be 1, 2, or 3. Received: "
                         f"num_spatial_dims={n}.")
    return n


# ---- transposed convolutions: the gradient of a convolution w.r.t. its input ---------------------

def _static_dims(output_shape):
    """The output's dims known now (ints), for the static shape of a transposed convolution
    whose `output_shape` mixes ints and tensors (TensorFlow infers those from the shape tensor)."""
    if isinstance(output_shape, (list, tuple)):
        return [int(v) if isinstance(v, (int, np.integer)) else None for v in output_shape]
    return None


def _set_static(y, dims):
    if dims is not None and y.shape.rank is not None and None in y.shape.as_list():
        y.set_shape([a if a is not None else b for a, b in zip(y.shape.as_list(), dims)])
    return y


def _shape_vector(output_shape):
    if isinstance(output_shape, (list, tuple)) and any(
            not isinstance(v, (int, np.integer)) for v in output_shape):
        return stack([convert_to_tensor(v, dtype_hint=np.int32) for v in output_shape])
    return output_shape


def conv2d_transpose(input, filters, output_shape, strides, padding="SAME",  # noqa: A002
                     data_format="NHWC", dilations=None, name=None):
    """The transpose (gradient) of `conv2d`: `Conv2DBackpropInput` of `output_shape`."""
    data_format = data_format or "NHWC"
    channel_index = 1 if data_format.startswith("NC") else 3
    padding, explicit = padding_arg(padding)
    attrs = {"strides": tuple(sequence_arg(strides, 2, channel_index, "strides")),
             "padding": padding, "explicit_paddings": tuple(explicit),
             "data_format": data_format,
             "dilations": tuple(sequence_arg(dilations, 2, channel_index, "dilations"))}
    y = bind(conv2d_backprop_input_op, (_shape_vector(output_shape), filters, input), attrs,
             name)
    return _set_static(y, _static_dims(output_shape))


def conv1d_transpose(input, filters, output_shape, strides, padding="SAME",  # noqa: A002
                     data_format="NWC", dilations=None, name=None):
    """The transpose of `conv1d`: a 2-D transpose of a height-1 image."""
    if data_format in (None, "NWC"):
        fmt, spatial_start, channel_index = "NHWC", 1, 2
    elif data_format == "NCW":
        fmt, spatial_start, channel_index = "NCHW", 2, 1
    else:
        raise ValueError(f"`data_format` must be 'NWC' or 'NCW'. Received: "
                         f"data_format={data_format}")
    strides = [1] + sequence_arg(strides, 1, channel_index, "stride")
    dilations = [1] + sequence_arg(dilations, 1, channel_index, "dilations")
    dims = _static_dims(output_shape)
    if isinstance(output_shape, (list, tuple)):
        sizes = list(output_shape[:spatial_start]) + [1] + list(output_shape[spatial_start:])
    else:
        sizes = concat([output_shape[:spatial_start], [1], output_shape[spatial_start:]], 0)
    y = bind(conv2d_backprop_input_op,
             (_shape_vector(sizes), expand_dims(filters, 0), expand_dims(input, spatial_start)),
             {"strides": tuple(strides), "padding": padding.upper(), "data_format": fmt,
              "dilations": tuple(dilations)}, None)
    return _set_static(squeeze(y, [spatial_start], name=name), dims)


def conv3d_transpose(input, filters, output_shape, strides, padding="SAME",  # noqa: A002
                     data_format="NDHWC", dilations=None, name=None):
    """The transpose of `conv3d`: `Conv3DBackpropInputV2` of `output_shape`."""
    data_format = data_format or "NDHWC"
    channel_index = 1 if data_format.startswith("NC") else 4
    attrs = {"strides": tuple(sequence_arg(strides, 3, channel_index, "strides")),
             "padding": padding, "data_format": data_format,
             "dilations": tuple(sequence_arg(dilations, 3, channel_index, "dilations"))}
    y = bind(conv3d_backprop_input_op, (_shape_vector(output_shape), filters, input), attrs,
             name)
    return _set_static(y, _static_dims(output_shape))


def conv_transpose(input, filters, output_shape, strides, padding="SAME",  # noqa: A002
                   data_format=None, dilations=None, name=None):
    """N-D transposed convolution, N from the length of `output_shape`."""
    if hasattr(output_shape, "shape") and not isinstance(output_shape, np.ndarray):
        n = output_shape.shape[0] - 2
    elif hasattr(output_shape, "__len__"):
        n = len(output_shape) - 2
    else:
        raise ValueError(f"`output_shape` must be a tensor or sized collection. Received: "
                         f"output_shape={output_shape}")
    if not 1 <= n <= 3:
        raise ValueError(f"`output_shape` must be of length 3, 4 or 5. Received: "
                         f"output_shape={output_shape} of length {n + 2}.")
    fn = (conv1d_transpose, conv2d_transpose, conv3d_transpose)[n - 1]
    return fn(input, filters, output_shape, strides, padding=padding, data_format=data_format,
              dilations=dilations, name=name)


# ---- depthwise and separable ---------------------------------------------------------------------

def _depthwise_attrs(strides, padding, data_format, dilations):
    data_format = data_format or "NHWC"
    if len(strides) != 4:
        raise ValueError(f"strides should be of length 4. Received: strides={list(strides)}")
    rate = [1, 1] if dilations is None else [int(v) for v in dilations]
    if len(rate) != 2:
        raise ValueError(f"`len(dilation_rate)` should be 2. Received: dilation_rate={rate} of "
                         f"length {len(rate)}")
    _check_strides_and_dilations(_spatial(list(strides), 1 if data_format == "NCHW" else 0),
                                 rate)
    padding, explicit = padding_arg(padding)
    full = [1, 1] + rate if data_format == "NCHW" else [1] + rate + [1]
    return {"strides": tuple(int(s) for s in strides), "padding": padding,
            "explicit_paddings": tuple(explicit), "data_format": data_format,
            "dilations": tuple(full)}


def depthwise_conv2d(input, filter, strides, padding, data_format=None,  # noqa: A002
                     dilations=None, name=None):
    """Each input channel convolved with its own `channel_multiplier` filters:
    `DepthwiseConv2dNative` (filter [KH, KW, C, M], output depth C * M)."""
    return bind(depthwise_conv2d_op, (input, filter),
                _depthwise_attrs(strides, padding, data_format, dilations), name)


def _native_depthwise_attrs(strides, padding, data_format, dilations):
    padding, explicit = padding_arg(padding)
    return {"strides": tuple(int(s) for s in strides), "padding": padding,
            "explicit_paddings": tuple(explicit), "data_format": data_format,
            "dilations": tuple(int(v) for v in dilations)}


def depthwise_conv2d_backprop_input(input_sizes, filter, out_backprop, strides,  # noqa: A002
                                    padding, data_format="NHWC", dilations=(1, 1, 1, 1),
                                    name=None):
    """The gradient of `depthwise_conv2d` w.r.t. its input of shape `input_sizes` (TensorFlow's
    `DepthwiseConv2dNativeBackpropInput`, its strides and dilations given in full)."""
    return bind(depthwise_conv2d_backprop_input_op, (input_sizes, filter, out_backprop),
                _native_depthwise_attrs(strides, padding, data_format, dilations), name)


def depthwise_conv2d_backprop_filter(input, filter_sizes, out_backprop, strides,  # noqa: A002
                                     padding, data_format="NHWC", dilations=(1, 1, 1, 1),
                                     name=None):
    """The gradient of `depthwise_conv2d` w.r.t. its filter of shape `filter_sizes`
    (`DepthwiseConv2dNativeBackpropFilter`)."""
    return bind(depthwise_conv2d_backprop_filter_op, (input, filter_sizes, out_backprop),
                _native_depthwise_attrs(strides, padding, data_format, dilations), name)


def separable_conv2d(input, depthwise_filter, pointwise_filter, strides, padding,  # noqa: A002
                     data_format=None, dilations=None, name=None):
    """A depthwise convolution, then a 1x1 convolution mixing its channels."""
    pointwise_filter = convert_to_tensor(pointwise_filter)
    depthwise_filter = convert_to_tensor(depthwise_filter)
    pw, dw = pointwise_filter.shape, depthwise_filter.shape
    if pw.rank is not None and pw.rank != 4:
        raise ValueError(f"Shape must be rank 4 but is rank {pw.rank}")
    if pw.rank == 4 and pw.as_list()[:2] not in ([1, 1], [None, None], [1, None], [None, 1]):
        raise ValueError(f"Dimensions must be equal, but are {pw.as_list()[0]} and 1")
    if dw.rank is not None and dw.rank != 4:
        raise ValueError(f"Shape must be rank 4 but is rank {dw.rank}")
    depthwise = depthwise_conv2d(input, depthwise_filter, strides, padding, data_format,
                                 dilations)
    return conv2d(depthwise, pointwise_filter, [1, 1, 1, 1], "VALID",
                  data_format=data_format or "NHWC", name=name)


def atrous_conv2d(value, filters, rate, padding, name=None):
    """2-D convolution with holes: `convolution` with `dilations=rate`."""
    return convolution(value, filters, padding=padding,
                       dilations=list(np.broadcast_to(rate, (2,))), name=name)


def atrous_conv2d_transpose(value, filters, output_shape, rate, padding, name=None):
    """The transpose of `atrous_conv2d`."""
    if rate < 1:
        raise ValueError(f"`rate` cannot be less than one. Received: rate={rate}")
    if padding not in ("SAME", "VALID"):
        raise ValueError(f"`padding` must be either 'VALID' or 'SAME'. Received: "
                         f"padding={padding}")
    return conv2d_transpose(value, filters, output_shape, [1, 1, 1, 1], padding=padding,
                            dilations=[1, rate, rate, 1], name=name)
