"""`tf.clip_by_norm`, `tf.clip_by_global_norm`, `tf.linalg.global_norm`: gradient clipping,
composed from op records (TensorFlow's clip_ops)."""

from __future__ import annotations

import numpy as np

from ..ops.registry import convert_to_tensor
from .array import identity, ones_like
from .indexing import where
from .math import add_n, cast, divide, greater, maximum, minimum, multiply, sqrt
from .reduce import reduce_sum

__all__ = ["clip_by_norm", "clip_by_global_norm", "global_norm"]


def _all_axes(t):
    return np.arange(t.shape.rank, dtype=np.int32)


def clip_by_norm(t, clip_norm, axes=None, name=None):
    """`t * clip_norm / max(l2norm(t, axes), clip_norm)`: rescales when the norm is larger."""
    t = convert_to_tensor(t)
    clip_norm = convert_to_tensor(clip_norm, dtype=t.dtype)
    axes = _all_axes(t) if axes is None else axes
    l2sum = reduce_sum(multiply(t, t), axes, keepdims=True)
    positive = greater(l2sum, 0)
    safe = where(positive, l2sum, ones_like(l2sum))
    l2norm = where(positive, sqrt(safe), l2sum)
    scaled = multiply(t, clip_norm)
    return identity(divide(scaled, maximum(l2norm, clip_norm)))


def global_norm(t_list, name=None):
    """sqrt(sum of squares of every element of every tensor in `t_list`) (None skipped)."""
    sums = []
    for t in t_list:
        if t is None:
            continue
        t = convert_to_tensor(t)
        sums.append(reduce_sum(multiply(t, t), _all_axes(t)))
    if not sums:
        raise ValueError("global_norm needs at least one tensor")
    total = sums[0] if len(sums) == 1 else add_n(sums)
    return sqrt(total)


def clip_by_global_norm(t_list, clip_norm, use_norm=None, name=None):
    """Scales every tensor by clip_norm / max(global_norm, clip_norm); returns the clipped
    list and the global norm (as TensorFlow does)."""
    if not isinstance(t_list, (list, tuple)):
        raise TypeError("`t_list` should be a sequence of tensors. Received "
                        f"{type(t_list)}.")
    norm = global_norm(t_list) if use_norm is None else convert_to_tensor(use_norm)
    clip_norm = convert_to_tensor(clip_norm, dtype=norm.dtype)
    scale = multiply(clip_norm, minimum(divide(1.0, norm), divide(1.0, clip_norm)))
    clipped = []
    for t in t_list:
        if t is not None:
            t = convert_to_tensor(t)
            t = identity(multiply(t, cast(scale, t.dtype)))
        clipped.append(t)
    return clipped, norm
