"""`tf.space_to_batch_nd`, `tf.batch_to_space_nd` (and their v2 names `space_to_batch`,
`batch_to_space`), `tf.required_space_to_batch_paddings`, and `with_space_to_batch`: an op run
on the blocks of a dilated window's input, as TensorFlow runs dilated pooling;
`tf.nn.depth_to_space` and `tf.nn.space_to_depth`."""

from __future__ import annotations

import numpy as np

from ..ops.registry import bind, convert_to_tensor
from ..ops.space_batch import (
    batch_to_space_nd_op,
    depth_to_space_op,
    space_to_batch_nd_op,
    space_to_depth_op,
)
from .array import shape as shape_of
from .join_split import concat, stack
from .math import add, floormod, subtract

__all__ = ["space_to_batch_nd", "batch_to_space_nd", "space_to_batch", "batch_to_space",
           "required_space_to_batch_paddings", "with_space_to_batch", "depth_to_space",
           "space_to_depth"]


def space_to_batch_nd(input, block_shape, paddings, name=None):  # noqa: A002
    return bind(space_to_batch_nd_op, (input, block_shape, paddings), {}, name)


def batch_to_space_nd(input, block_shape, crops, name=None):  # noqa: A002
    return bind(batch_to_space_nd_op, (input, block_shape, crops), {}, name)


def space_to_batch(input, block_shape, paddings, name=None):  # noqa: A002
    return space_to_batch_nd(input, block_shape, paddings, name)


def batch_to_space(input, block_shape, crops, name=None):  # noqa: A002
    return batch_to_space_nd(input, block_shape, crops, name)


def required_space_to_batch_paddings(input_shape, block_shape, base_paddings=None, name=None):
    """(paddings, crops) making `input_shape` plus `base_paddings` divisible by `block_shape`:
    the extra padding goes at the end of each dim and is cropped off again."""
    values = [np.asarray(v) if isinstance(v, (list, tuple, np.ndarray)) else getattr(
        v, "known_value", None) for v in (input_shape, block_shape, base_paddings)]
    block = values[1]
    if all(v is not None for v in values[:2]) and (base_paddings is None or
                                                   values[2] is not None):
        shape = np.asarray(values[0], np.int64).reshape(-1)
        block = np.asarray(block, np.int64).reshape(-1)
        base = np.zeros((len(block), 2), np.int64) if base_paddings is None else \
            np.asarray(values[2], np.int64).reshape(-1, 2)
        full = shape + base[:, 0] + base[:, 1]
        extra = (block - full % block) % block
        paddings = np.stack([base[:, 0], base[:, 1] + extra], axis=1).astype(np.int32)
        crops = np.stack([np.zeros_like(extra), extra], axis=1).astype(np.int32)
        return convert_to_tensor(paddings, name=name), convert_to_tensor(crops)
    input_shape = convert_to_tensor(input_shape)
    block_shape = convert_to_tensor(block_shape, dtype=input_shape.dtype)
    if base_paddings is None:
        base_paddings = np.zeros((int(block_shape.shape[0]), 2), np.int32)
    base_paddings = convert_to_tensor(base_paddings, dtype=input_shape.dtype)
    start, end = base_paddings[:, 0], base_paddings[:, 1]
    full = add(add(input_shape, start), end)
    extra = floormod(subtract(block_shape, floormod(full, block_shape)), block_shape)
    paddings = stack([start, add(end, extra)], axis=1, name=name)
    crops = stack([subtract(extra, extra), extra], axis=1)
    return paddings, crops


def with_space_to_batch(x, dilations, padding, op, window_shape, spatial_start):
    """`op(value, padding)` for a window of `window_shape` dilated by `dilations`: on the
    space-to-batch blocks of `x` (spatial dims from `spatial_start`) with VALID padding, then
    back; `op(x, padding)` itself when nothing is dilated."""
    if all(v == 1 for v in dilations):
        return op(x, padding)
    n = len(dilations)
    if padding == "SAME":
        extra = [(k - 1) * r for k, r in zip(window_shape, dilations)]
        base = [[e // 2, e - e // 2] for e in extra]
    elif padding == "VALID":
        base = [[0, 0]] * n
    else:
        raise ValueError(f"padding must be either 'SAME' or 'VALID'. Received: "
                         f"padding={padding}")
    dims = x.shape.as_list()[spatial_start:spatial_start + n] if x.shape.rank else None
    spatial = dims if dims is not None and None not in dims else \
        shape_of(x)[spatial_start:spatial_start + n]
    paddings, crops = required_space_to_batch_paddings(spatial, list(dilations), base)
    lead = spatial_start - 1   # dims between the batch and the first spatial dim
    block = [1] * lead + list(dilations)
    if lead:
        zeros = np.zeros((lead, 2), np.int32)
        paddings = _prepend(zeros, paddings)
        crops = _prepend(zeros, crops)
    converted = space_to_batch_nd(x, block, paddings)
    return batch_to_space_nd(op(converted, "VALID"), block, crops)


def _prepend(rows, pairs):
    value = getattr(pairs, "known_value", None)
    if value is not None:
        return np.concatenate([rows, np.asarray(value, np.int32)])
    return concat([rows, pairs], 0)


def depth_to_space(input, block_size, data_format="NHWC", name=None):  # noqa: A002
    """Each pixel's channels spread over a block_size x block_size block of the image."""
    return bind(depth_to_space_op, (input,), {"block_size": int(block_size),
                                              "data_format": data_format}, name)


def space_to_depth(input, block_size, data_format="NHWC", name=None):  # noqa: A002
    """Each block_size x block_size block of the image gathered into one pixel's channels."""
    return bind(space_to_depth_op, (input,), {"block_size": int(block_size),
                                              "data_format": data_format}, name)
