"""Gradient rules of the elementwise math records (TensorFlow's math_grad). Broadcasting is
summed back to each input's shape; complex inputs take the conjugate of the local derivative."""

from __future__ import annotations

import numpy as np

from ...library.array import ones_like, zeros_like
from ...library.indexing import where
from ...library.math import abs as abs_
from ...library.math import (
    add,
    cast,
    cos,
    cosh,
    divide,
    divide_no_nan,
    exp,
    floordiv,
    greater,
    greater_equal,
    less_equal,
    log,
    multiply,
    multiply_no_nan,
    negative,
    reciprocal,
    rsqrt,
    sigmoid,
    sign,
    sin,
    sinh,
    square,
    subtract,
)
from ...library.math import pow as pow_
from ..registry import defgrad, defgrad_unary
from ..static_shapes import conj, unbroadcast


@defgrad("AddV2")
def _add_grad(op, g):                        # d(x+y) = dx + dy
    x, y = op.inputs
    return unbroadcast(g, x), unbroadcast(g, y)


@defgrad("Sub")
def _sub_grad(op, g):                        # d(x-y) = dx - dy
    x, y = op.inputs
    return unbroadcast(g, x), unbroadcast(negative(g), y)


@defgrad("Mul")
def _mul_grad(op, g):                        # d(x*y) = y dx + x dy
    x, y = op.inputs
    return unbroadcast(multiply(g, conj(y)), x), unbroadcast(multiply(conj(x), g), y)


@defgrad("RealDiv")
def _div_grad(op, g):                        # d(x/y) = dx/y - x/y^2 dy
    x, y = op.inputs
    return (unbroadcast(divide(g, conj(y)), x),
            unbroadcast(multiply(g, conj(divide(divide(negative(x), y), y))), y))


@defgrad("DivNoNan")
def _div_no_nan_grad(op, g):                 # as RealDiv, 0 where y == 0
    x, y = op.inputs
    return (unbroadcast(divide_no_nan(g, y), x),
            unbroadcast(multiply(g, divide_no_nan(divide_no_nan(negative(x), y), y)), y))


@defgrad("Pow")
def _pow_grad(op, g):                        # d(x^y) = y x^(y-1) dx + x^y log(x) dy
    x, y = op.inputs
    z = op.outputs[0]
    gx = multiply(g, multiply(y, pow_(x, subtract(y, 1))))
    if x.dtype.is_complex:
        safe_log = log(x)
    else:                                    # log(x) where x > 0, else 0
        positive = greater(x, 0)
        safe_log = where(positive, log(where(positive, x, ones_like(x))), zeros_like(x))
    return unbroadcast(gx, x), unbroadcast(multiply(g, multiply(z, safe_log)), y)


def _select_grad(op, g, pick_x):
    x, y = op.inputs
    zeros = zeros_like(g)
    return (unbroadcast(where(pick_x, g, zeros), x), unbroadcast(where(pick_x, zeros, g), y))


@defgrad("MulNoNan")
def _mul_no_nan_grad(op, g):                 # as Mul, 0 where the other factor or g is 0
    x, y = op.inputs
    return unbroadcast(multiply_no_nan(g, y), x), unbroadcast(multiply_no_nan(x, g), y)


@defgrad("Maximum")
def _maximum_grad(op, g):                    # to x where x >= y, else to y
    return _select_grad(op, g, greater_equal(*op.inputs))


@defgrad("Minimum")
def _minimum_grad(op, g):                    # to x where x <= y, else to y
    return _select_grad(op, g, less_equal(*op.inputs))


@defgrad("SquaredDifference")
def _squared_difference_grad(op, g):         # d(x-y)^2 = 2(x-y)(dx - dy)
    x, y = op.inputs
    gx = multiply(multiply(g, 2), subtract(x, y))
    return unbroadcast(gx, x), unbroadcast(negative(gx), y)


@defgrad("Atan2")
def _atan2_grad(op, g):                      # d atan2(y, x) = (x dy - y dx) / (x^2 + y^2)
    y, x = op.inputs
    scale = divide(g, add(square(x), square(y)))
    return unbroadcast(multiply(x, scale), y), unbroadcast(negative(multiply(y, scale)), x)


@defgrad("FloorMod")
def _floor_mod_grad(op, g):                  # d(x mod y) = dx - floor(x/y) dy
    x, y = op.inputs
    return unbroadcast(g, x), unbroadcast(multiply(negative(g), floordiv(x, y)), y)


@defgrad("FloorDiv", "TruncateDiv", "Floor", "Ceil", "Round", "Rint")
def _no_gradient(op, *grads):
    """Piecewise-constant ops: TensorFlow registers a gradient of None for them."""
    return [None] * len(op.inputs)


# ---- one-input ops: g * conj(f'(x)), f' written from x or from y = f(x) ---------------------

def _one_minus(a):
    return subtract(1, a)


defgrad_unary("Abs", x=lambda x: sign(x))                                  # |x|' = sign(x)
defgrad_unary("Square", x=lambda x: multiply(x, 2))                        # (x^2)' = 2x
# Sqrt, Rsqrt and Reciprocal give 0 where g is 0, even at x = 0 (TensorFlow's kernels do)
defgrad_unary("Sqrt", y=lambda y: divide(0.5, y), zero_for_zero_gradient=True)  # 1/(2y)
defgrad_unary("Rsqrt", y=lambda y: multiply(-0.5, multiply(y, square(y))),      # -y^3/2
              zero_for_zero_gradient=True)
defgrad_unary("Exp", y=lambda y: y)                                        # exp' = y
defgrad_unary("Expm1", x=lambda x: exp(x))                                 # expm1' = e^x
defgrad_unary("Log", x=lambda x: reciprocal(x))                            # log' = 1/x
defgrad_unary("Log1p", x=lambda x: reciprocal(add(x, 1)))                  # log1p' = 1/(1+x)
defgrad_unary("Sin", x=lambda x: cos(x))                                   # sin' = cos
defgrad_unary("Cos", x=lambda x: negative(sin(x)))                         # cos' = -sin
defgrad_unary("Tan", y=lambda y: add(square(y), 1))                        # tan' = 1 + y^2
defgrad_unary("Asin", x=lambda x: rsqrt(_one_minus(square(x))))            # 1/sqrt(1-x^2)
defgrad_unary("Acos", x=lambda x: negative(rsqrt(_one_minus(square(x)))))  # -1/sqrt(1-x^2)
defgrad_unary("Atan", x=lambda x: reciprocal(add(square(x), 1)))           # 1/(1+x^2)
defgrad_unary("Sinh", x=lambda x: cosh(x))                                 # sinh' = cosh
defgrad_unary("Cosh", x=lambda x: sinh(x))                                 # cosh' = sinh
defgrad_unary("Tanh", y=lambda y: _one_minus(square(y)))                   # tanh' = 1 - y^2
defgrad_unary("Atanh", x=lambda x: reciprocal(_one_minus(square(x))))      # 1/(1-x^2)
defgrad_unary("Sigmoid", y=lambda y: multiply(y, _one_minus(y)))           # y(1-y)
defgrad_unary("Reciprocal", y=lambda y: negative(square(y)),              # (1/x)' = -y^2
              zero_for_zero_gradient=True)
defgrad_unary("Softplus", x=lambda x: sigmoid(x))                          # sigmoid(x)
defgrad_unary("Softsign", x=lambda x: reciprocal(square(add(abs_(x), 1))))  # 1/(1+|x|)^2
defgrad_unary("Erf", x=lambda x: multiply(2 / np.sqrt(np.pi), exp(negative(square(x)))))
#                                                                  erf' = 2/sqrt(pi) e^(-x^2)
defgrad_unary("Erfc", x=lambda x: multiply(-2 / np.sqrt(np.pi), exp(negative(square(x)))))
#                                                                erfc' = -2/sqrt(pi) e^(-x^2)


@defgrad("Asinh")
def _asinh_grad(op, g):                      # asinh' = 1/cosh(y), as g / cosh(y)
    return divide(g, conj(cosh(op.outputs[0])))


@defgrad("Acosh")
def _acosh_grad(op, g):                      # acosh' = 1/sinh(y), as g / sinh(y)
    return divide(g, conj(sinh(op.outputs[0])))


@defgrad("Neg")
def _neg_grad(op, g):                        # d(-x) = -dx
    return negative(g)


@defgrad("Sign")
def _sign_grad(op, g):                       # sign is flat almost everywhere
    return zeros_like(op.inputs[0])


@defgrad("Conj")
def _conj_grad(op, g):                       # d conj(x) = conj(dx)
    return conj(g)


@defgrad("Cast")
def _cast_grad(op, g):                       # cast back, between float or complex types only
    src = op.inputs[0].dtype
    differentiable = (src.is_floating or src.is_complex) and (g.dtype.is_floating or
                                                              g.dtype.is_complex)
    return cast(g, src) if differentiable else None


@defgrad("AddN")
def _add_n_grad(op, g):                      # d(sum xi) = sum dxi
    return [g] * len(op.inputs)
