"""`tf.math`'s special functions (lgamma, digamma, polygamma, zeta, erfinv, ndtri), the
x-weighted functions that are 0 where x is 0 (xlogy, xlog1py, xdivy) and log_sigmoid,
built from the special-function records (`ops/special.py`)."""

from __future__ import annotations

from ..ops.math import negative_op, softplus_op
from ..ops.registry import NO_ATTRS, bind, convert_to_tensor
from ..ops.scopes import op_scope
from ..ops.special import (
    digamma_op,
    erfinv_op,
    lgamma_op,
    ndtri_op,
    polygamma_op,
    xdivy_op,
    xlog1py_op,
    xlogy_op,
    zeta_op,
)

__all__ = ["lgamma", "digamma", "polygamma", "zeta", "erfinv", "ndtri", "xlogy", "xlog1py",
           "xdivy", "log_sigmoid"]


def _unary(op, doc):
    def fn(x, name=None):
        return bind(op, (x,), NO_ATTRS, name)
    fn.__name__, fn.__doc__ = op.name, doc
    return fn


def _binary(op, doc):
    def fn(x, y, name=None):
        return bind(op, (x, y), NO_ATTRS, name)
    fn.__name__, fn.__doc__ = op.name, doc
    return fn


lgamma = _unary(lgamma_op, "log|Gamma(x)|, elementwise (+inf at the poles).")
digamma = _unary(digamma_op, "psi(x) = d lgamma(x)/dx, elementwise (NaN at the poles).")
erfinv = _unary(erfinv_op, "The inverse error function, elementwise.")
ndtri = _unary(ndtri_op, "The inverse of the standard normal CDF, elementwise.")
xlogy = _binary(xlogy_op, "x * log(y), or 0 where x is 0.")
xlog1py = _binary(xlog1py_op, "x * log1p(y), or 0 where x is 0.")
xdivy = _binary(xdivy_op, "x / y, or 0 where x is 0.")


def polygamma(a, x, name=None):
    """The a-th derivative of digamma at x (a a non-negative integer, as a float tensor)."""
    return bind(polygamma_op, (a, x), NO_ATTRS, name)


def zeta(x, q, name=None):
    """The Hurwitz zeta function: sum over k >= 0 of (k + q)^-x."""
    return bind(zeta_op, (x, q), NO_ATTRS, name)


def log_sigmoid(x, name=None):
    """log(sigmoid(x)) = -softplus(-x), without overflow."""
    with op_scope(name or "LogSigmoid") as scope:
        x = convert_to_tensor(x, name="x")
        return bind(negative_op, (bind(softplus_op, (bind(negative_op, (x,)),)),), NO_ATTRS,
                    scope)
