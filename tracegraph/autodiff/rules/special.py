"""Gradient rules of the special-function records (TensorFlow's math_grad): lgamma, digamma,
polygamma, zeta, erfinv, ndtri, and xlogy/xlog1py/xdivy, whose x-gradient is 0 where x is 0."""

from __future__ import annotations

import numpy as np

from ...library.array import ones_like
from ...library.math import add, cast, exp, multiply, negative, not_equal, square
from ...library.special import digamma, polygamma, xdivy, xlog1py, xlogy, zeta
from ..registry import defgrad
from ..static_shapes import unbroadcast


@defgrad("Lgamma")
def _lgamma_grad(op, g):                     # lgamma' = digamma
    return multiply(g, digamma(op.inputs[0]))


@defgrad("Digamma")
def _digamma_grad(op, g):                    # digamma' = polygamma(1, x)
    x = op.inputs[0]
    return multiply(g, polygamma(ones_like(x), x))


@defgrad("Polygamma")
def _polygamma_grad(op, g):                  # d polygamma(a, x)/dx = polygamma(a + 1, x)
    a, x = op.inputs
    return None, unbroadcast(multiply(g, polygamma(add(a, 1), x)), x)


@defgrad("Zeta")
def _zeta_grad(op, g):                       # d zeta(x, q)/dq = -x zeta(x + 1, q)
    x, q = op.inputs
    return None, unbroadcast(multiply(g, negative(multiply(x, zeta(add(x, 1), q)))), q)


@defgrad("Erfinv")
def _erfinv_grad(op, g):                     # sqrt(pi)/2 exp(y^2)
    return multiply(multiply(g, np.sqrt(np.pi) / 2), exp(square(op.outputs[0])))


@defgrad("Ndtri")
def _ndtri_grad(op, g):                      # sqrt(2 pi) exp(y^2 / 2)
    return multiply(multiply(g, np.sqrt(2 * np.pi)), exp(multiply(square(op.outputs[0]), 0.5)))


def _not_zero(x):
    return cast(not_equal(x, 0), x.dtype)


@defgrad("Xlogy")
def _xlogy_grad(op, g):                      # (log y where x != 0, x / y)
    x, y = op.inputs
    return (unbroadcast(multiply(xlogy(_not_zero(x), y), g), x),
            unbroadcast(multiply(xdivy(x, y), g), y))


@defgrad("Xlog1py")
def _xlog1py_grad(op, g):                    # (log1p y where x != 0, x / (y + 1))
    x, y = op.inputs
    return (unbroadcast(multiply(xlog1py(_not_zero(x), y), g), x),
            unbroadcast(multiply(xdivy(x, add(y, 1)), g), y))


@defgrad("Xdivy")
def _xdivy_grad(op, g):                      # (1 / y where x != 0, -x / y^2)
    x, y = op.inputs
    return (unbroadcast(multiply(xdivy(_not_zero(x), y), g), x),
            unbroadcast(multiply(xdivy(negative(x), square(y)), g), y))
