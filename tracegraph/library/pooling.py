"""`tf.nn`'s pooling as TensorFlow 2.21 writes it: `max_pool`/`avg_pool` pick the 1-D
(`ExpandDims`, `MaxPool`/`AvgPool`, `Squeeze`), 2-D or 3-D (`MaxPool3D`/`AvgPool3D`) form from
the input's rank; `pool` takes a window shape and a pooling type; `max_pool_with_argmax` also
returns where each maximum came from. Global pooling is a reduction (`reduce_max`,
`reduce_mean`), as Keras writes it.
"""

from __future__ import annotations

from .. import dtypes as d
from ..ops.pooling import (
    avg_pool3d_op,
    avg_pool_op,
    max_pool3d_op,
    max_pool_op,
    max_pool_with_argmax_op,
)
from ..ops.registry import bind, convert_to_tensor
from .array import expand_dims, squeeze
from .convolution import padding_arg, sequence_arg
from .space_batch import with_space_to_batch

__all__ = ["max_pool", "max_pool1d", "max_pool2d", "max_pool3d", "avg_pool", "avg_pool1d",
           "avg_pool2d", "avg_pool3d", "pool", "max_pool_with_argmax"]


def _rank_and_channel(x, data_format):
    rank = x.shape.rank
    if rank is not None:
        n = rank - 2
    elif data_format is not None:
        n = len(data_format) - 2
    else:
        raise ValueError(f"`input` must have a static shape or `data_format` must be given. "
                         f"Received: input.shape={x.shape} and data_format={data_format}")
    if not 1 <= n <= 3:
        raise ValueError(f"`input.shape.rank` must be 3, 4 or 5. Received: "
                         f"input.shape={x.shape} of rank {n + 2}.")
    channel_index = n + 1 if data_format is None or not data_format.startswith("NC") else 1
    return n, channel_index


def _pool1d(op, input, ksize, strides, padding, data_format, name, explicit_ok):  # noqa: A002
    data_format = data_format or "NWC"
    channel_index = 1 if data_format.startswith("NC") else 2
    ksize = [1] + sequence_arg(ksize, 1, channel_index, "ksize")
    strides = [1] + sequence_arg(strides, 1, channel_index, "strides")
    attrs = {"ksize": tuple(ksize), "strides": tuple(strides)}
    if explicit_ok:
        padding, explicit = padding_arg(padding, 3)
        if padding == "EXPLICIT":
            attrs["explicit_paddings"] = (0, 0) + tuple(explicit)
    attrs["padding"] = padding
    expanding = 1 if data_format == "NWC" else 2
    attrs["data_format"] = "NHWC" if data_format == "NWC" else "NCHW"
    out = bind(op, (expand_dims(input, expanding),), attrs, None)
    return squeeze(out, [expanding], name=name)


def _pool2d(op, input, ksize, strides, padding, data_format, name, explicit_ok):  # noqa: A002
    data_format = data_format or "NHWC"
    channel_index = 1 if data_format.startswith("NC") else 3
    attrs = {"ksize": tuple(sequence_arg(ksize, 2, channel_index, "ksize")),
             "strides": tuple(sequence_arg(strides, 2, channel_index, "strides")),
             "data_format": data_format}
    if explicit_ok:
        padding, explicit = padding_arg(padding)
        if explicit:
            attrs["explicit_paddings"] = tuple(explicit)
    attrs["padding"] = padding
    return bind(op, (input,), attrs, name)


def _pool3d(op, input, ksize, strides, padding, data_format, name):  # noqa: A002
    data_format = data_format or "NDHWC"
    channel_index = 1 if data_format.startswith("NC") else 4
    if isinstance(padding, (list, tuple)):
        raise ValueError(f"Explicit padding is not supported with an input of rank 5. "
                         f"Received: padding={padding}")
    attrs = {"ksize": tuple(sequence_arg(ksize, 3, channel_index, "ksize")),
             "strides": tuple(sequence_arg(strides, 3, channel_index, "strides")),
             "padding": padding, "data_format": data_format}
    return bind(op, (input,), attrs, name)


def max_pool1d(input, ksize, strides, padding, data_format="NWC", name=None):  # noqa: A002
    return _pool1d(max_pool_op, input, ksize, strides, padding, data_format, name, True)


def max_pool2d(input, ksize, strides, padding, data_format="NHWC", name=None):  # noqa: A002
    return _pool2d(max_pool_op, input, ksize, strides, padding, data_format, name, True)


def max_pool3d(input, ksize, strides, padding, data_format="NDHWC", name=None):  # noqa: A002
    return _pool3d(max_pool3d_op, input, ksize, strides, padding, data_format, name)


def avg_pool1d(input, ksize, strides, padding, data_format="NWC", name=None):  # noqa: A002
    return _pool1d(avg_pool_op, input, ksize, strides, padding, data_format, name, False)


def avg_pool2d(input, ksize, strides, padding, data_format="NHWC", name=None):  # noqa: A002
    return _pool2d(avg_pool_op, input, ksize, strides, padding, data_format, name, False)


def avg_pool3d(input, ksize, strides, padding, data_format="NDHWC", name=None):  # noqa: A002
    return _pool3d(avg_pool3d_op, input, ksize, strides, padding, data_format, name)


def max_pool(input, ksize, strides, padding, data_format=None, name=None):  # noqa: A002
    """N-D max pooling, N = rank - 2 (1, 2 or 3)."""
    x = convert_to_tensor(input)
    n, _ = _rank_and_channel(x, data_format)
    if isinstance(padding, (list, tuple)) and n == 3:
        raise ValueError(f"Explicit padding is not supported with an input of rank 5. "
                         f"Received: padding={padding}")
    fn = (max_pool1d, max_pool2d, max_pool3d)[n - 1]
    return fn(x, ksize, strides, padding, data_format=data_format, name=name)


def avg_pool(input, ksize, strides, padding, data_format=None, name=None):  # noqa: A002
    """N-D average pooling, N = rank - 2 (1, 2 or 3)."""
    x = convert_to_tensor(input)
    n, _ = _rank_and_channel(x, data_format)
    fn = (avg_pool1d, avg_pool2d, avg_pool3d)[n - 1]
    return fn(x, ksize, strides, padding, data_format=data_format, name=name)


def pool(input, window_shape, pooling_type, strides=None, padding="VALID",  # noqa: A002
         data_format=None, dilations=None, name=None):
    """`tf.nn.pool`: "MAX" or "AVG" pooling over windows of `window_shape` (N = 1, 2, 3)."""
    x = convert_to_tensor(input)
    n = len(window_shape)
    if not 1 <= n <= 3:
        raise ValueError(f"`len(window_shape)` must be 1, 2, or 3. Received: "
                         f"window_shape={window_shape} of length {len(window_shape)}")
    if x.shape.rank is not None and x.shape.rank != n + 2:
        raise ValueError(f"Shape {x.shape} must have rank {n + 2}")
    strides, dilations = _strides_and_dilations(n, strides, dilations)
    if padding == "SAME" and any(v > 1 for v in dilations):
        raise ValueError(f"pooling with 'SAME' padding is not implemented for `dilation_rate` > "
                         f"1. Received: padding={padding} and dilation_rate={dilations}")
    if any(s > w for s, w in zip(strides, window_shape)):
        raise ValueError(f"`strides` > `window_shape` not supported due to inconsistency "
                         f"between CPU and GPU implementations. Received: strides={strides} "
                         f"and window_shape={list(window_shape)}")
    if pooling_type not in ("MAX", "AVG"):
        raise ValueError(f"{n}-D {pooling_type} pooling is not supported.")
    channels_first = data_format is not None and data_format.startswith("NC")
    if n == 1 and data_format not in (None, "NWC", "NCW"):
        raise ValueError(f"data_format must be either 'NWC' or 'NCW'. Received: "
                         f"data_format={data_format}")
    by_rank = {"MAX": (max_pool1d, max_pool2d, max_pool3d),
               "AVG": (avg_pool1d, avg_pool2d, avg_pool3d)}[pooling_type]

    def op(value, converted_padding):
        return by_rank[n - 1](value, list(window_shape), list(strides), converted_padding,
                              data_format=data_format, name=name)

    spatial_start = 2 if channels_first else 1
    return with_space_to_batch(x, dilations, padding, op, window_shape, spatial_start)


def _strides_and_dilations(n, strides, dilations):
    dilations = [1] * n if dilations is None else [int(v) for v in dilations]
    if len(dilations) != n:
        raise ValueError(f"`len(dilation_rate)` should be {n}. Received: "
                         f"dilation_rate={dilations} of length {len(dilations)}")
    if any(v < 1 for v in dilations):
        raise ValueError(f"all values of `dilation_rate` must be positive. Received: "
                         f"dilation_rate={dilations}")
    strides = [1] * n if strides is None else [int(v) for v in strides]
    if len(strides) != n:
        raise ValueError(f"`len(strides)` should be {n}. Received: strides={strides} of length "
                         f"{len(strides)}")
    if any(v < 1 for v in strides):
        raise ValueError(f"all values of `strides` must be positive. Received: "
                         f"strides={strides}")
    if any(s > 1 for s in strides) and any(v > 1 for v in dilations):
        raise ValueError(f"`strides > 1` not supported in conjunction with `dilation_rate > 1`. "
                         f"Received: strides={strides} and dilation_rate={dilations}")
    return strides, dilations


def max_pool_with_argmax(input, ksize, strides, padding, data_format="NHWC",  # noqa: A002
                         output_dtype=d.int64, include_batch_in_index=False, name=None):
    """Max pooling, and the flat index of each maximum in the input
    (`(y * width + x) * channels + c`, plus the batch when `include_batch_in_index`)."""
    if data_format != "NHWC":
        raise ValueError(f"`data_format` values other  than 'NHWC' are not supported. "
                         f"Received: data_format={data_format}")
    attrs = {"ksize": tuple(sequence_arg(ksize, 2, 3, "ksize")),
             "strides": tuple(sequence_arg(strides, 2, 3, "strides")), "padding": padding,
             "Targmax": d.as_dtype(output_dtype),
             "include_batch_in_index": bool(include_batch_in_index)}
    return tuple(bind(max_pool_with_argmax_op, (input,), attrs, name))
