"""Pooling records, 2-D and 3-D (1-D pooling is 2-D pooling of a height-1 image, as in
TensorFlow): `MaxPool`, `AvgPool`, `MaxPool3D`, `AvgPool3D`, `MaxPoolWithArgmax`, and the
backprop records their gradient rules use (`MaxPoolGrad`, `AvgPoolGrad`, `MaxPool3DGrad`,
`AvgPool3DGrad`). The numerics are in `window_kernels.py`.
"""

from __future__ import annotations

import numpy as np

from .. import dtypes as d
from ..errors import InvalidArgumentError, UnimplementedError
from ..shapes import TensorType
from . import window_kernels as W
from .convolution import infer_windowed
from .geometry import channels_first, explicit_pairs, padding_amounts
from .geometry import spatial as spatial_of
from .registry import FLOAT, PURE, REAL, REQUIRED, TypeAttr, defop

__all__ = ["max_pool_op", "avg_pool_op", "max_pool3d_op", "avg_pool3d_op",
           "max_pool_with_argmax_op", "max_pool_grad_op", "avg_pool_grad_op",
           "max_pool3d_grad_op", "avg_pool3d_grad_op", "POOL_ATTRS"]

POOL_ATTRS = {"ksize": REQUIRED, "strides": REQUIRED, "padding": REQUIRED,
              "data_format": "NHWC"}
POOL3D_ATTRS = {**POOL_ATTRS, "data_format": "NDHWC"}
_HALF_FLOAT = frozenset({d.float16, d.bfloat16, d.float32})


def _geometry(spatial, ksize, strides, padding, data_format, explicit_paddings=()):
    """(window, strides, pads) over the spatial dims."""
    k = spatial_of(ksize, data_format)
    s = spatial_of(strides, data_format)
    explicit = explicit_pairs(explicit_paddings, data_format)
    pads = tuple(padding_amounts(n, kk, ss, 1, padding, e)
                 for n, kk, ss, e in zip(spatial, k, s, explicit))
    return k, s, pads


def _check_window(ksize, strides, data_format, rank):
    if len(ksize) != rank or len(strides) != rank:
        raise InvalidArgumentError(f"Sliding window ksize and strides fields must specify "
                                   f"{rank} dimensions")
    depth = 1 if channels_first(data_format) else rank - 1
    if ksize[0] != 1 or strides[0] != 1:
        raise UnimplementedError("Pooling is not yet supported on the batch dimension.")
    if ksize[depth] != 1 or strides[depth] != 1:
        raise UnimplementedError("Pooling is not yet supported on the depth dimension.")


def _infer_pool(rank):
    def infer(input, ksize=REQUIRED, strides=REQUIRED, padding=REQUIRED,  # noqa: A002
              data_format="NHWC", explicit_paddings=(), **_):
        if input.shape is not None and len(input.shape) != rank:
            raise ValueError(f"Shape must be rank {rank} but is rank {len(input.shape)}")
        channels = None if input.shape is None else (
            input.shape[1] if channels_first(data_format) else input.shape[-1])
        return infer_windowed(input, spatial_of(ksize, data_format), channels, strides,
                              (1,) * rank, padding, explicit_paddings, data_format, rank)
    return infer


def _pool_kernel(rank, reduce):
    def kernel(input, ksize=REQUIRED, strides=REQUIRED, padding=REQUIRED,  # noqa: A002
               data_format="NHWC", explicit_paddings=()):
        x = W.to_channels_last(input, data_format)
        if x.ndim != rank:
            raise InvalidArgumentError(f"input must be {rank}-dimensional")
        _check_window(ksize, strides, data_format, rank)
        k, s, pads = _geometry(x.shape[1:-1], ksize, strides, padding, data_format,
                               explicit_paddings)
        return W.from_channels_last(reduce(x, k, s, pads), data_format)
    return kernel


def _pool3d_kernel(reduce):
    inner = _pool_kernel(5, reduce)

    def kernel(input, ksize=REQUIRED, strides=REQUIRED, padding=REQUIRED,  # noqa: A002
               data_format="NDHWC"):
        return inner(input, ksize=ksize, strides=strides, padding=padding,
                     data_format=data_format)
    return kernel


_max_pool2d = _pool_kernel(4, W.max_pool)
_avg_pool2d = _pool_kernel(4, W.avg_pool)


def kernel_max_pool(input, ksize=REQUIRED, strides=REQUIRED, padding=REQUIRED,  # noqa: A002
                    data_format="NHWC", explicit_paddings=()):
    return _max_pool2d(input, ksize=ksize, strides=strides, padding=padding,
                       data_format=data_format, explicit_paddings=explicit_paddings)


def kernel_avg_pool(input, ksize=REQUIRED, strides=REQUIRED, padding=REQUIRED,  # noqa: A002
                    data_format="NHWC"):
    return _avg_pool2d(input, ksize=ksize, strides=strides, padding=padding,
                       data_format=data_format)


_DATA_FORMAT = PURE | {"data_format"}
MAX_POOL_ATTRS = {**POOL_ATTRS, "explicit_paddings": ()}

max_pool_op = defop("max_pool", "MaxPool", inputs=("input: T",),
                    attrs={"T": TypeAttr(REAL), **MAX_POOL_ATTRS},
                    infer=_infer_pool(4), kernel=kernel_max_pool, flags=_DATA_FORMAT)
avg_pool_op = defop("avg_pool", "AvgPool", inputs=("value: T",),
                    attrs={"T": TypeAttr(FLOAT), **POOL_ATTRS}, infer=_infer_pool(4),
                    kernel=kernel_avg_pool, flags=_DATA_FORMAT)
max_pool3d_op = defop("max_pool3d", "MaxPool3D", inputs=("input: T",),
                      attrs={"T": TypeAttr(_HALF_FLOAT), **POOL3D_ATTRS},
                      infer=_infer_pool(5), kernel=_pool3d_kernel(W.max_pool), flags=PURE)
avg_pool3d_op = defop("avg_pool3d", "AvgPool3D", inputs=("input: T",),
                      attrs={"T": TypeAttr(FLOAT), **POOL3D_ATTRS},
                      infer=_infer_pool(5), kernel=_pool3d_kernel(W.avg_pool), flags=PURE)


# ---- max pool with argmax: the flat index of each max, as TensorFlow numbers it ------------------

def kernel_max_pool_with_argmax(input, ksize=REQUIRED, strides=REQUIRED,  # noqa: A002
                                Targmax=d.int64, padding=REQUIRED,  # noqa: N803
                                include_batch_in_index=False):
    x = np.asarray(input)
    if x.ndim != 4:
        raise InvalidArgumentError("input must be 4-dimensional")
    _check_window(ksize, strides, "NHWC", 4)
    k, s, pads = _geometry(x.shape[1:-1], ksize, strides, padding, "NHWC")
    flat, padded_shape = W.max_pool_argmax(x, k, s, pads)
    n, y, xx, c = np.unravel_index(flat, padded_shape)   # back to unpadded positions
    y, xx = y - pads[0][0], xx - pads[1][0]
    h, w, depth = x.shape[1:]
    index = (y * w + xx) * depth + c
    if include_batch_in_index:
        index = index + n * (h * w * depth)
    return [W.max_pool(x, k, s, pads), index.astype(d.as_dtype(Targmax).as_numpy_dtype)]


def infer_max_pool_with_argmax(input, ksize=REQUIRED, strides=REQUIRED,  # noqa: A002
                               Targmax=d.int64, padding=REQUIRED,  # noqa: N803
                               include_batch_in_index=False):
    out = _infer_pool(4)(input, ksize=ksize, strides=strides, padding=padding)
    return (out, TensorType(d.as_dtype(Targmax), out.shape))


max_pool_with_argmax_op = defop(
    "max_pool_with_argmax", "MaxPoolWithArgmax", inputs=("input: T",),
    attrs={"T": TypeAttr(REAL), "ksize": REQUIRED, "strides": REQUIRED, "Targmax": d.int64,
           "padding": REQUIRED, "include_batch_in_index": False},
    infer=infer_max_pool_with_argmax, kernel=kernel_max_pool_with_argmax, num_outputs=2,
    flags=PURE)


# ---- backprop records --------------------------------------------------------------------------

def _sizes_type(sizes, dtype, rank):
    if sizes.value is None:
        return TensorType(dtype, (None,) * rank)
    return TensorType(dtype, tuple(int(v) for v in np.asarray(sizes.value).reshape(-1)))


def _max_grad_kernel(rank):
    def kernel(orig_input, orig_output, grad, ksize=REQUIRED, strides=REQUIRED,
               padding=REQUIRED, data_format="NHWC", explicit_paddings=(), **_):
        x = W.to_channels_last(orig_input, data_format)
        g = W.to_channels_last(grad, data_format)
        k, s, pads = _geometry(x.shape[1:-1], ksize, strides, padding, data_format,
                               explicit_paddings)
        return W.from_channels_last(W.max_pool_grad(x, g, k, s, pads), data_format)
    return kernel


def _avg_grad_kernel(rank):
    def kernel(orig_input_shape, grad, ksize=REQUIRED, strides=REQUIRED, padding=REQUIRED,
               data_format="NHWC", **_):
        shape = tuple(int(v) for v in np.asarray(orig_input_shape).reshape(-1))
        if len(shape) != rank:
            raise InvalidArgumentError(f"orig_input_shape must have {rank} elements")
        if channels_first(data_format):
            shape = (shape[0],) + shape[2:] + (shape[1],)
        g = W.to_channels_last(grad, data_format)
        k, s, pads = _geometry(shape[1:-1], ksize, strides, padding, data_format)
        return W.from_channels_last(W.avg_pool_grad(shape, g, k, s, pads), data_format)
    return kernel


def kernel_max_pool_grad(orig_input, orig_output, grad, ksize=REQUIRED, strides=REQUIRED,
                         padding=REQUIRED, data_format="NHWC", explicit_paddings=()):
    """Each window's gradient goes to its (first) largest input."""
    return _max_grad_kernel(4)(orig_input, orig_output, grad, ksize=ksize, strides=strides,
                               padding=padding, data_format=data_format,
                               explicit_paddings=explicit_paddings)


def kernel_avg_pool_grad(orig_input_shape, grad, ksize=REQUIRED, strides=REQUIRED,
                         padding=REQUIRED, data_format="NHWC"):
    """Each window's gradient is shared by the inputs it averaged (padding not counted)."""
    return _avg_grad_kernel(4)(orig_input_shape, grad, ksize=ksize, strides=strides,
                               padding=padding, data_format=data_format)


def kernel_max_pool3d_grad(orig_input, orig_output, grad, ksize=REQUIRED, strides=REQUIRED,
                           padding=REQUIRED, data_format="NDHWC", TInput=d.float32):  # noqa: N803
    return _max_grad_kernel(5)(orig_input, orig_output, grad, ksize=ksize, strides=strides,
                               padding=padding, data_format=data_format)


def kernel_avg_pool3d_grad(orig_input_shape, grad, ksize=REQUIRED, strides=REQUIRED,
                           padding=REQUIRED, data_format="NDHWC"):
    return _avg_grad_kernel(5)(orig_input_shape, grad, ksize=ksize, strides=strides,
                               padding=padding, data_format=data_format)


def _infer_max_grad(orig_input, orig_output, grad, **_):
    return TensorType(grad.dtype, orig_input.shape)


def _infer_avg_grad(rank):
    def infer(orig_input_shape, grad, **_):
        return _sizes_type(orig_input_shape, grad.dtype, rank)
    return infer


_GRAD_FLOAT = frozenset({d.float16, d.float32, d.float64})
max_pool_grad_op = defop(
    "max_pool_grad", "MaxPoolGrad", inputs=("orig_input: T", "orig_output: T", "grad: T"),
    attrs={"T": TypeAttr(_GRAD_FLOAT), **MAX_POOL_ATTRS},
    infer=_infer_max_grad, kernel=kernel_max_pool_grad, flags=PURE)
avg_pool_grad_op = defop(
    "avg_pool_grad", "AvgPoolGrad", inputs=("orig_input_shape: int32", "grad: T"),
    attrs={"T": TypeAttr(_GRAD_FLOAT), **POOL_ATTRS},
    infer=_infer_avg_grad(4), kernel=kernel_avg_pool_grad, flags=PURE)
max_pool3d_grad_op = defop(
    "max_pool3d_grad", "MaxPool3DGrad",
    inputs=("orig_input: TInput", "orig_output: TInput", "grad: T"),
    attrs={"T": TypeAttr(_HALF_FLOAT, d.float32), "TInput": TypeAttr(_HALF_FLOAT, d.float32),
           **POOL3D_ATTRS},
    infer=_infer_max_grad, kernel=kernel_max_pool3d_grad, flags=PURE)
avg_pool3d_grad_op = defop(
    "avg_pool3d_grad", "AvgPool3DGrad", inputs=("orig_input_shape: int32", "grad: T"),
    attrs={"T": TypeAttr(FLOAT), **POOL3D_ATTRS},
    infer=_infer_avg_grad(5), kernel=kernel_avg_pool3d_grad, flags=PURE)

