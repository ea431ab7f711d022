"""Gradient rules of strided_slice and of its backprop record StridedSliceGrad."""

from __future__ import annotations

import numpy as np

from ...library.slicing import strided_slice
from ...ops.slicing import strided_slice_grad_op
from ..registry import defgrad
from ..static_shapes import as_shape, dims

_MASKS = ("begin_mask", "end_mask", "ellipsis_mask", "new_axis_mask", "shrink_axis_mask")


@defgrad("StridedSlice")
def _strided_slice_grad(op, g):              # g written where the slice read, zeros elsewhere
    x, begin, end, strides = op.inputs
    masks = {k: op.attrs[k] for k in _MASKS}
    shape = as_shape(dims(x))
    if isinstance(shape, np.ndarray):
        shape = shape.astype(begin.dtype.as_numpy_dtype)
    return strided_slice_grad_op(shape, begin, end, strides, g, **masks), None, None, None


@defgrad("StridedSliceGrad")
def _strided_slice_grad_grad(op, g):         # the adjoint of the write is the slice
    _, begin, end, strides, _ = op.inputs
    masks = {k: op.attrs[k] for k in _MASKS}
    return None, None, None, None, strided_slice(g, begin, end, strides, **masks)
