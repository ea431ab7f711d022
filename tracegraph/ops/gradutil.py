"""Small pieces the gradient rules of the op records share, written with ops (through `bind`).

Records are looked up by name when a rule runs, so this module imports no op family and every
family can use it. Static shapes and values are used when known (eager tensors always know
them; graph edges often do), so the backward pass of a traced function has no shape arithmetic
left when shapes are static.
"""

from __future__ import annotations

import numpy as np

from .registry import bind, get_op

__all__ = ["op", "needed", "static_shape", "static_value", "unbroadcast", "reduce_sum", "reshape",
           "shape_of", "reshape_like", "conj", "zeros_like", "ones_like", "cast"]


def needed(op, index: int) -> bool:
    """Whether the gradient of input `index` is wanted (a rule may skip the work if not)."""
    return index not in getattr(op, "skip", ())


def op(name: str, *inputs, **attrs):
    """Binds the record `name` (its op name or TensorFlow type) on `inputs`."""
    return bind(get_op(name), inputs, attrs)


def static_shape(x) -> tuple | None:
    """The shape as a tuple of ints when fully known, else None."""
    shape = x.shape
    if shape.rank is None:
        return None
    dims = tuple(shape.as_list())
    return None if any(v is None for v in dims) else dims


def static_value(x):
    """The NumPy value of a tensor when known now (eager, or a small graph constant)."""
    if isinstance(x, (np.ndarray, np.generic, int, float, list, tuple)):
        return np.asarray(x)
    v = getattr(x, "_value", None)
    return None if v is None else np.asarray(v)


def shape_of(x):
    s = static_shape(x)
    if s is not None:
        return np.asarray(s, dtype=np.int32)
    return op("shape", x)


def reshape(x, shape):
    return op("reshape", x, shape)


def reshape_like(g, x):
    """`g` reshaped to `x`'s shape (skipped when they already agree statically)."""
    gs, xs = static_shape(g), static_shape(x)
    if gs is not None and gs == xs:
        return g
    return reshape(g, shape_of(x))


def reduce_sum(x, axes, keepdims=False):
    return op("reduce_sum", x, np.asarray(axes, dtype=np.int32), keep_dims=keepdims)


def unbroadcast(g, x):
    """Sums `g` (the gradient of a broadcast result) back down to `x`'s shape."""
    if g is None:
        return None
    gs, xs = g.shape, x.shape
    if gs.rank is None or xs.rank is None:
        return reshape(g, shape_of(x)) if static_shape(x) is not None else g
    gd, xd = gs.as_list(), xs.as_list()
    if gd == xd and None not in gd:
        return g
    lead = len(gd) - len(xd)
    axes = list(range(lead))
    for i, n in enumerate(xd):
        if n == 1 and gd[lead + i] != 1:
            axes.append(lead + i)
    inner = [a for a in axes if a >= lead]   # x's own size-1 dims stay (x's rank is kept
    if inner:                                # even when some dims are unknown)
        g = reduce_sum(g, inner, keepdims=True)
    if lead:
        g = reduce_sum(g, list(range(lead)), keepdims=False)
    if static_shape(x) is not None:
        return reshape_like(g, x)
    return g


def conj(x):
    return op("conj", x) if x.dtype.is_complex else x


def zeros_like(x):
    return op("zeros_like", x)


def ones_like(x):
    return op("ones_like", x)


def cast(x, dtype):
    return x if x.dtype is dtype else op("cast", x, DstT=dtype)


def dims(x) -> list:
    """x's dims: ints where statically known, scalar int32 tensors where not."""
    known = x.shape.as_list()
    if None not in known:
        return known
    dynamic = op("shape", x)
    return [n if n is not None else op("gather", dynamic, i, 0) for i, n in enumerate(known)]


def as_shape(values: list):
    """A shape vector from a list of ints and scalar tensors."""
    if all(isinstance(v, (int, np.integer)) for v in values):
        return np.asarray(values, dtype=np.int32)
    return op("pack", list(values), axis=0)


def axes_of(axes_tensor, rank: int) -> list[int]:
    """The reduction axes (normalized) from a known axis tensor."""
    value = static_value(axes_tensor)
    if value is None:
        raise NotImplementedError("the gradient of a reduction needs axes known at trace time")
    return sorted({int(a) % rank for a in value.reshape(-1).tolist()}) if rank else []


def broadcast_back(g, x, axes: list[int]):
    """The gradient of a reduction over `axes` (keep_dims or not) spread over `x`'s shape."""
    full = dims(x)
    kept = [1 if i in axes else n for i, n in enumerate(full)]
    if g.shape.rank == 0:  # a scalar broadcasts as it is
        return op("broadcast_to", g, as_shape(full)) if full else g
    static = all(isinstance(n, (int, np.integer)) for n in kept)
    if not (static and g.shape.rank is not None and g.shape.as_list() == kept):
        g = reshape(g, as_shape(kept))
    if all(isinstance(n, (int, np.integer)) for n in full) and kept == full:
        return g
    return op("broadcast_to", g, as_shape(full))
