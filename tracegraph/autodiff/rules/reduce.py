"""Gradient rules of the reductions and scans (sum, mean, max, min, prod, cumsum, cumprod)."""

from __future__ import annotations

import numpy as np

from ... import dtypes as d
from ...library.array import expand_dims, ones_like, reshape, shape, size, transpose
from ...library.indexing import where
from ...library.math import cast, divide, divide_no_nan, equal, floormod, multiply, range_
from ...library.rearrange import broadcast_to
from ...library.reduce import cumprod, cumsum, reduce_any, reduce_prod, reduce_sum
from ..registry import defgrad
from ..static_shapes import axes_of, broadcast_back, dims, static_value


def _kept_shape(x, axes_t):
    """x's shape with the reduced axes set to 1, computed by ops (axes or rank not known at
    trace time: TensorFlow's reduced_shape)."""
    full = shape(x)
    rank = size(full)
    axes = floormod(reshape(cast(axes_t, d.int32), np.asarray([-1], np.int32)), rank)
    hit = reduce_any(equal(expand_dims(range_(rank), 1), expand_dims(axes, 0)), 1)
    return where(hit, ones_like(full), full), full


def _static_axes(x, axes_t) -> bool:
    return x.shape.rank is not None and static_value(axes_t) is not None


@defgrad("Sum")
def _sum_grad(op, g):                        # every summed element gets g
    x = op.inputs[0]
    if not _static_axes(x, op.inputs[1]):
        kept, full = _kept_shape(x, op.inputs[1])
        return broadcast_to(reshape(g, kept), full), None
    return broadcast_back(g, x, axes_of(op.inputs[1], x.shape.rank)), None


@defgrad("Mean")
def _mean_grad(op, g):                       # every element gets g / count
    x = op.inputs[0]
    if not _static_axes(x, op.inputs[1]):
        kept, full = _kept_shape(x, op.inputs[1])
        count = cast(divide(reduce_prod(full), reduce_prod(kept)), g.dtype)
        return divide(broadcast_to(reshape(g, kept), full), count), None
    axes = axes_of(op.inputs[1], x.shape.rank)
    count = 1
    for i, n in enumerate(dims(x)):
        if i in axes:
            count = count * (n if isinstance(n, int) else cast(n, x.dtype))
    return divide(broadcast_back(g, x, axes), count), None


@defgrad("Max", "Min")
def _extreme_grad(op, g):
    """The gradient goes to the elements equal to the result, shared among ties."""
    x, y = op.inputs[0], op.outputs[0]
    if not _static_axes(x, op.inputs[1]):
        kept, full = _kept_shape(x, op.inputs[1])

        def back(v):
            return broadcast_to(reshape(v, kept), full)
        picked = cast(equal(x, back(y)), g.dtype)
        count = back(reduce_sum(picked, op.inputs[1]))
        return divide(multiply(picked, back(g)), count), None
    axes = axes_of(op.inputs[1], x.shape.rank)
    picked = cast(equal(x, broadcast_back(y, x, axes)), g.dtype)
    count = broadcast_back(reduce_sum(picked, axes), x, axes)
    return divide(multiply(picked, broadcast_back(g, x, axes)), count), None


@defgrad("Prod")
def _prod_grad(op, g):
    """The product of the other elements, from exclusive cumulative products both ways (no
    division, so zeros are handled), as TensorFlow does."""
    x = op.inputs[0]
    rank = x.shape.rank
    axes = axes_of(op.inputs[1], rank)
    kept = [i for i in range(rank) if i not in axes]
    perm = np.asarray(kept + axes, np.int32)
    full = dims(x)
    if not all(isinstance(full[i], int) for i in axes):
        raise NotImplementedError("the gradient of reduce_prod needs static reduced dims")
    xt = transpose(x, perm)
    flat = reshape(xt, np.asarray([-1, int(np.prod([full[i] for i in axes]))], np.int32))
    others = multiply(cumprod(flat, 1, exclusive=True),
                      cumprod(flat, 1, exclusive=True, reverse=True))
    spread = transpose(broadcast_back(g, x, axes), perm)
    out = multiply(reshape(others, shape(xt)), spread)
    return transpose(out, np.argsort(perm).astype(np.int32)), None


@defgrad("Cumsum")
def _cumsum_grad(op, g):                     # a cumsum of g the other way
    return cumsum(g, op.inputs[1], exclusive=op.attrs["exclusive"],
                  reverse=not op.attrs["reverse"]), None


@defgrad("Cumprod")
def _cumprod_grad(op, g):                    # d cumprod: reverse cumsum of y*g, over x
    x, y = op.inputs[0], op.outputs[0]       # (TF: 0 where x is 0, finite, not the derivative)
    exclusive, reverse = op.attrs["exclusive"], op.attrs["reverse"]
    summed = cumsum(multiply(y, g), op.inputs[1], exclusive=exclusive, reverse=not reverse)
    return divide_no_nan(summed, x), None
