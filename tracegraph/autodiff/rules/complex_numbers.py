"""Gradient rules of the complex-number records: Complex, Real, Imag, ComplexAbs (TensorFlow's
math_grad: the gradient of a real-valued function of z is dL/dRe + i dL/dIm)."""

from __future__ import annotations

from ...library.array import zeros_like
from ...library.math import complex as complex_
from ...library.math import divide_no_nan, imag, multiply, real
from ..registry import defgrad
from ..static_shapes import unbroadcast


@defgrad("Complex")
def _complex_grad(op, g):                    # the parts of g, back to each part
    x, y = op.inputs
    return unbroadcast(real(g), x), unbroadcast(imag(g), y)


@defgrad("Real")
def _real_grad(op, g):
    if not op.inputs[0].dtype.is_complex:
        return g
    return complex_(g, zeros_like(g))


@defgrad("Imag")
def _imag_grad(op, g):
    if not op.inputs[0].dtype.is_complex:
        return zeros_like(g)
    return complex_(zeros_like(g), g)


@defgrad("ComplexAbs")
def _complex_abs_grad(op, g):                # g * z / |z| (0 at z = 0)
    z, magnitude = op.inputs[0], op.outputs[0]
    return divide_no_nan(multiply(complex_(g, zeros_like(g)), z),
                         complex_(magnitude, zeros_like(magnitude)))
