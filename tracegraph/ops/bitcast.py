"""`Bitcast` (`tf.bitcast`) and `XlaDynamicUpdateSlice` (`xla.dynamic_update_slice`): ops that
reinterpret or overwrite memory as TensorFlow defines them.

Bitcast reads the bytes of each element as another type: to a narrower type it adds a last
dimension (float32 -> int8: `[n]` -> `[n, 4]`), to a wider one it consumes the last dimension,
which must hold the ratio.

XlaDynamicUpdateSlice writes `update` into `operand` at `start_indices`, each clamped so that
the update fits (XLA's rule: a start past the end moves back, a negative start becomes 0).
"""

from __future__ import annotations

import numpy as np

from .. import dtypes as d
from ..errors import InvalidArgumentError
from ..shapes import TensorType
from .registry import ALL_TYPES, INDEX, NUMBER, REQUIRED, TypeAttr, defop

_BITCASTABLE = (NUMBER | frozenset({d.bool})) - frozenset({d.bfloat16})


def _sizes(src: d.DType, dst: d.DType):
    a, b = np.dtype(src.as_numpy_dtype).itemsize, np.dtype(dst.as_numpy_dtype).itemsize
    return a, b


def _cannot(src, dst):
    return InvalidArgumentError(f"Cannot bitcast from {src.as_datatype_enum} to "
                                f"{dst.as_datatype_enum}")


def infer_bitcast(input, type=REQUIRED):  # noqa: A002
    src_size, dst_size = _sizes(input.dtype, type)
    shape = input.shape
    if src_size == dst_size or shape is None:
        return TensorType(type, shape if src_size == dst_size else None)
    if src_size > dst_size:
        return TensorType(type, tuple(shape) + (src_size // dst_size,))
    if not shape or shape[-1] not in (None, dst_size // src_size):
        raise _cannot(input.dtype, type)
    return TensorType(type, tuple(shape[:-1]))


def kernel_bitcast(input, type=REQUIRED):  # noqa: A002
    x = np.asarray(input)
    if not x.flags.c_contiguous:
        x = x.copy()
    src = d.NUMPY_TO_DTYPE[x.dtype]
    src_size, dst_size = _sizes(src, type)
    target = np.dtype(type.as_numpy_dtype)
    if src_size > dst_size:
        return x.reshape(x.shape + (1,)).view(target).reshape(x.shape + (src_size // dst_size,))
    if src_size < dst_size and (x.ndim == 0 or x.shape[-1] != dst_size // src_size):
        raise _cannot(src, type)
    out = x.view(target)
    return out.reshape(x.shape[:-1]) if src_size < dst_size else out


bitcast_op = defop("bitcast", "Bitcast", inputs=("input: T",),
                   attrs={"T": TypeAttr(_BITCASTABLE), "type": REQUIRED},
                   infer=infer_bitcast, kernel=kernel_bitcast, flags={"pure"})


def infer_dynamic_update_slice(input, update, indices):  # noqa: A002
    return TensorType(input.dtype, input.shape)


def kernel_dynamic_update_slice(input, update, indices):  # noqa: A002
    x, u = np.asarray(input), np.asarray(update)
    starts = np.asarray(indices).reshape(-1)
    if len(starts) != x.ndim or u.ndim != x.ndim:
        raise InvalidArgumentError(f"update and start_indices must have the rank of the input "
                                   f"({x.ndim}); got {u.ndim} and {len(starts)}")
    out = x.copy()
    where = tuple(slice(int(min(max(s, 0), n - m)), int(min(max(s, 0), n - m)) + m)
                  for s, n, m in zip(starts, x.shape, u.shape))
    out[where] = u
    return out


dynamic_update_slice_op = defop(
    "xla_dynamic_update_slice", "XlaDynamicUpdateSlice",
    inputs=("input: T", "update: T", "indices: Tindices"),
    attrs={"T": TypeAttr(ALL_TYPES), "Tindices": TypeAttr(INDEX)},
    infer=infer_dynamic_update_slice, kernel=kernel_dynamic_update_slice,
    flags={"pure", "fresh_output"})
