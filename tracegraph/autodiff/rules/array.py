"""Gradient rules of the array records (TensorFlow's array_grad): identity, stop_gradient,
reshape and its kin, transpose, fill."""

from __future__ import annotations

import numpy as np

from ...library.array import reshape, transpose
from ...library.reduce import reduce_sum
from ..registry import defgrad
from ..static_shapes import as_shape, dims, static_value


@defgrad("Identity", "EnsureShape")
def _identity_grad(op, g):                   # d id(x) = dx
    return g


@defgrad("IdentityN")
def _identity_n_grad(op, *grads):            # each input gets its output's gradient
    return list(grads)


@defgrad("StopGradient", "ZerosLike", "OnesLike")
def _stopped_grad(op, g):                    # no gradient flows through
    return None


@defgrad("Reshape", "Squeeze", "ExpandDims")
def _reshape_grad(op, g):                    # reshape g back to x's shape
    return (reshape(g, as_shape(dims(op.inputs[0]))),) + (None,) * (len(op.inputs) - 1)


@defgrad("Transpose")
def _transpose_grad(op, g):                  # transpose back by the inverse permutation
    perm = static_value(op.inputs[1])
    if perm is None:
        raise NotImplementedError("the gradient of transpose needs a permutation known at "
                                  "trace time")
    return transpose(g, np.argsort(perm).astype(np.int32)), None


@defgrad("Fill")
def _fill_grad(op, g):                       # every element came from the one value
    return None, reduce_sum(g, np.arange(g.shape.rank, dtype=np.int32))
