"""`tf.meshgrid`: coordinate grids from 1-D vectors (a composite of reshape and broadcasting)."""

from __future__ import annotations

from ..ops.registry import convert_to_tensor
from .array import reshape, shape
from .join_split import stack
from .rearrange import broadcast_to

__all__ = ["meshgrid"]


def meshgrid(*args, **kwargs):
    """`tf.meshgrid(x, y, ..., indexing="xy")`: one N-D grid per input vector.

    With "xy" (Cartesian) indexing the first two output dims are swapped, as in NumPy.
    """
    indexing = kwargs.pop("indexing", "xy")
    kwargs.pop("name", None)
    if kwargs:
        key = next(iter(kwargs))
        raise TypeError(f"'{key}' is an invalid keyword argument for this function")
    if indexing not in ("xy", "ij"):
        raise ValueError(f"Argument `indexing` parameter must be either 'xy' or 'ij', got "
                         f"'{indexing}'")
    if not args:
        return []
    tensors = [convert_to_tensor(a) for a in args]
    n = len(tensors)
    sizes = [shape(t)[0] if t.shape.rank != 0 else 1 for t in
             (reshape(t, [-1]) for t in tensors)]
    order = list(range(n))
    if indexing == "xy" and n > 1:
        order[0], order[1] = 1, 0
    outputs = []
    for i, t in enumerate(tensors):
        target = [1] * n
        target[order.index(i)] = -1
        outputs.append(reshape(t, target))
    full = stack([sizes[k] for k in order])
    return [broadcast_to(o, full) for o in outputs]
