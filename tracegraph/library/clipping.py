"""`tf.clip_by_norm`, `tf.clip_by_global_norm`, `tf.linalg.global_norm`: gradient clipping,
composed from op records (TensorFlow's clip_ops)."""

from __future__ import annotations

from ..ops import gradutil as G
from ..ops.registry import convert_to_tensor

__all__ = ["clip_by_norm", "clip_by_global_norm", "global_norm"]


def _all_axes(t):
    import numpy as np
    return np.arange(t.shape.rank, dtype=np.int32)


def clip_by_norm(t, clip_norm, axes=None, name=None):
    """`t * clip_norm / max(l2norm(t, axes), clip_norm)`: rescales when the norm is larger."""
    t = convert_to_tensor(t)
    clip_norm = convert_to_tensor(clip_norm, dtype=t.dtype)
    axes = _all_axes(t) if axes is None else axes
    l2sum = G.op("reduce_sum", G.op("multiply", t, t), axes, keep_dims=True)
    positive = G.op("greater", l2sum, 0)
    safe = G.op("select", positive, l2sum, G.ones_like(l2sum))
    l2norm = G.op("select", positive, G.op("sqrt", safe), l2sum)
    scaled = G.op("multiply", t, clip_norm)
    return G.op("identity", G.op("real_div", scaled, G.op("maximum", l2norm, clip_norm)))


def global_norm(t_list, name=None):
    """sqrt(sum of squares of every element of every tensor in `t_list`) (None skipped)."""
    sums = []
    for t in t_list:
        if t is None:
            continue
        t = convert_to_tensor(t)
        sums.append(G.op("reduce_sum", G.op("multiply", t, t), _all_axes(t)))
    if not sums:
        raise ValueError("global_norm needs at least one tensor")
    total = sums[0] if len(sums) == 1 else G.op("add_n", sums)
    return G.op("sqrt", total)


def clip_by_global_norm(t_list, clip_norm, use_norm=None, name=None):
    """Scales every tensor by clip_norm / max(global_norm, clip_norm); returns the clipped
    list and the global norm (as TensorFlow does)."""
    if not isinstance(t_list, (list, tuple)):
        raise TypeError("`t_list` should be a sequence of tensors. Received "
                        f"{type(t_list)}.")
    norm = global_norm(t_list) if use_norm is None else convert_to_tensor(use_norm)
    clip_norm = convert_to_tensor(clip_norm, dtype=norm.dtype)
    scale = G.op("multiply", clip_norm, G.op("minimum", G.op("real_div", 1.0, norm),
                                             G.op("real_div", 1.0, clip_norm)))
    clipped = [None if t is None else G.op("identity", G.op("multiply", convert_to_tensor(t),
                                                             G.cast(scale, convert_to_tensor(
                                                                 t).dtype)))
               for t in t_list]
    return clipped, norm
