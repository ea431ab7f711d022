"""Gradient rules of the reductions and scans (sum, mean, max, min, prod, cumsum, cumprod)."""

from __future__ import annotations

import numpy as np

from ...library.array import reshape, shape, transpose
from ...library.math import cast, divide, equal, multiply
from ...library.reduce import cumprod, cumsum, reduce_sum
from ..registry import defgrad
from ..static_shapes import axes_of, broadcast_back, dims


@defgrad("Sum")
def _sum_grad(op, g):                        # every summed element gets g
    x = op.inputs[0]
    return broadcast_back(g, x, axes_of(op.inputs[1], x.shape.rank)), None


@defgrad("Mean")
def _mean_grad(op, g):                       # every element gets g / count
    x = op.inputs[0]
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
    x, y = op.inputs[0], op.outputs[0]
    exclusive, reverse = op.attrs["exclusive"], op.attrs["reverse"]
    summed = cumsum(multiply(y, g), op.inputs[1], exclusive=exclusive, reverse=not reverse)
    return divide(summed, x), None
