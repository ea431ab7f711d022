"""Gradient rules of the elementwise math records (TensorFlow's math_grad): each is set as its
record's `gradient` field by `@defgrad`. Written with ops, so they run eagerly and record backward
ops while tracing; broadcasting is summed back to each input's shape."""

from __future__ import annotations

import numpy as np

from . import gradutil as G
from .math import (
    abs_op,
    acos_op,
    acosh_op,
    add_n_op,
    add_op,
    asin_op,
    asinh_op,
    atan2_op,
    atan_op,
    atanh_op,
    cast_op,
    ceil_op,
    conj_op,
    cos_op,
    cosh_op,
    div_no_nan_op,
    erf_op,
    exp_op,
    expm1_op,
    floor_div_op,
    floor_mod_op,
    floor_op,
    greater_equal_op,
    greater_op,
    less_equal_op,
    log1p_op,
    log_op,
    maximum_op,
    minimum_op,
    multiply_op,
    negative_op,
    pow_op,
    real_div_op,
    reciprocal_op,
    rint_op,
    round_op,
    rsqrt_op,
    sigmoid_op,
    sign_op,
    sin_op,
    sinh_op,
    softplus_op,
    softsign_op,
    sqrt_op,
    square_op,
    squared_difference_op,
    subtract_op,
    tan_op,
    tanh_op,
    truncate_div_op,
)
from .registry import bind, defgrad

# ---- gradient rules: the `gradient` field of the records above (TensorFlow's math_grad) --------


def _mul(a, b):
    return bind(multiply_op, (a, b))


def _div(a, b):
    return bind(real_div_op, (a, b))


def _neg(a):
    return bind(negative_op, (a,))


@defgrad(add_op)
def _add_grad(op, g):
    x, y = op.inputs
    return G.unbroadcast(g, x), G.unbroadcast(g, y)


@defgrad(subtract_op)
def _sub_grad(op, g):
    x, y = op.inputs
    return G.unbroadcast(g, x), G.unbroadcast(_neg(g), y)


@defgrad(multiply_op)
def _mul_grad(op, g):
    x, y = op.inputs
    return G.unbroadcast(_mul(g, G.conj(y)), x), G.unbroadcast(_mul(G.conj(x), g), y)


@defgrad(real_div_op)
def _div_grad(op, g):
    x, y = op.inputs
    return (G.unbroadcast(_div(g, G.conj(y)), x),
            G.unbroadcast(_mul(g, G.conj(_div(_div(_neg(x), y), y))), y))


@defgrad(div_no_nan_op)
def _div_no_nan_grad(op, g):
    x, y = op.inputs
    return (G.unbroadcast(bind(div_no_nan_op, (g, y)), x),
            G.unbroadcast(_mul(g, bind(div_no_nan_op, (bind(div_no_nan_op, (_neg(x), y)), y))),
                          y))


@defgrad(pow_op)
def _pow_grad(op, g):
    x, y = op.inputs
    z = op.outputs[0]
    gx = _mul(g, _mul(y, bind(pow_op, (x, bind(subtract_op, (y, 1))))))
    if x.dtype.is_complex:
        safe_log = bind(log_op, (x,))
    else:
        positive = bind(greater_op, (x, 0))
        safe_log = G.op("select", positive, bind(log_op, (G.op("select", positive, x,
                                                                 G.ones_like(x)),)),
                        G.zeros_like(x))
    gy = _mul(g, _mul(z, safe_log))
    return G.unbroadcast(gx, x), G.unbroadcast(gy, y)


def _select_grad(op, g, pick_x):
    x, y = op.inputs
    zeros = G.zeros_like(g)
    return (G.unbroadcast(G.op("select", pick_x, g, zeros), x),
            G.unbroadcast(G.op("select", pick_x, zeros, g), y))


@defgrad(maximum_op)
def _maximum_grad(op, g):
    return _select_grad(op, g, bind(greater_equal_op, tuple(op.inputs)))


@defgrad(minimum_op)
def _minimum_grad(op, g):
    return _select_grad(op, g, bind(less_equal_op, tuple(op.inputs)))


@defgrad(squared_difference_op)
def _squared_difference_grad(op, g):
    x, y = op.inputs
    gx = _mul(_mul(g, 2), bind(subtract_op, (x, y)))
    return G.unbroadcast(gx, x), G.unbroadcast(_neg(gx), y)


@defgrad(atan2_op)
def _atan2_grad(op, g):
    y, x = op.inputs
    scale = _div(g, bind(add_op, (bind(square_op, (x,)), bind(square_op, (y,)))))
    return G.unbroadcast(_mul(x, scale), y), G.unbroadcast(_neg(_mul(y, scale)), x)


@defgrad(floor_mod_op)
def _floor_mod_grad(op, g):
    x, y = op.inputs
    return G.unbroadcast(g, x), G.unbroadcast(_mul(_neg(g), bind(floor_div_op, (x, y))), y)


@defgrad(floor_div_op, truncate_div_op, floor_op, ceil_op, round_op, rint_op)
def _no_gradient(op, *grads):
    """Piecewise-constant ops: TensorFlow registers a gradient of None for them."""
    return [None] * len(op.inputs)


def _unary_grad(record, local):
    """Registers `g * local(x, y)` (times the conjugate for complex inputs) as the rule."""
    def rule(op, g):
        return _mul(g, G.conj(local(op.inputs[0], op.outputs[0])))
    rule.__name__ = f"_{record.name}_grad"
    defgrad(record)(rule)


def _un(record, x):
    return bind(record, (x,))


def _one_minus(a):
    return bind(subtract_op, (1, a))


_unary_grad(abs_op, lambda x, y: _un(sign_op, x))
_unary_grad(square_op, lambda x, y: _mul(x, 2))
_unary_grad(sqrt_op, lambda x, y: _div(0.5, y))
_unary_grad(rsqrt_op, lambda x, y: _mul(-0.5, _mul(y, _un(square_op, y))))
_unary_grad(exp_op, lambda x, y: y)
_unary_grad(expm1_op, lambda x, y: _un(exp_op, x))
_unary_grad(log_op, lambda x, y: _un(reciprocal_op, x))
_unary_grad(log1p_op, lambda x, y: _un(reciprocal_op, bind(add_op, (x, 1))))
_unary_grad(sin_op, lambda x, y: _un(cos_op, x))
_unary_grad(cos_op, lambda x, y: _neg(_un(sin_op, x)))
_unary_grad(tan_op, lambda x, y: bind(add_op, (_un(square_op, y), 1)))
_unary_grad(asin_op, lambda x, y: _un(rsqrt_op, _one_minus(_un(square_op, x))))
_unary_grad(acos_op, lambda x, y: _neg(_un(rsqrt_op, _one_minus(_un(square_op, x)))))
_unary_grad(atan_op, lambda x, y: _un(reciprocal_op, bind(add_op, (_un(square_op, x), 1))))
_unary_grad(sinh_op, lambda x, y: _un(cosh_op, x))
_unary_grad(cosh_op, lambda x, y: _un(sinh_op, x))
_unary_grad(tanh_op, lambda x, y: _one_minus(_un(square_op, y)))
_unary_grad(asinh_op, lambda x, y: _un(reciprocal_op, _un(cosh_op, y)))
_unary_grad(acosh_op, lambda x, y: _un(reciprocal_op, _un(sinh_op, y)))
_unary_grad(atanh_op, lambda x, y: _un(reciprocal_op, _one_minus(_un(square_op, x))))
_unary_grad(sigmoid_op, lambda x, y: _mul(y, _one_minus(y)))
_unary_grad(reciprocal_op, lambda x, y: _neg(_un(square_op, y)))
_unary_grad(softplus_op, lambda x, y: _un(sigmoid_op, x))
_unary_grad(softsign_op, lambda x, y: _un(reciprocal_op, _un(square_op, bind(
    add_op, (_un(abs_op, x), 1)))))
_unary_grad(erf_op, lambda x, y: _mul(2 / np.sqrt(np.pi), _un(exp_op, _neg(_un(square_op, x)))))


@defgrad(negative_op)
def _neg_grad(op, g):
    return _neg(g)


@defgrad(sign_op)
def _sign_grad(op, g):
    return G.zeros_like(op.inputs[0])


@defgrad(conj_op)
def _conj_grad(op, g):
    return G.conj(g)


@defgrad(cast_op)
def _cast_grad(op, g):
    src = op.inputs[0].dtype
    differentiable = (src.is_floating or src.is_complex) and (g.dtype.is_floating or
                                                              g.dtype.is_complex)
    return G.cast(g, src) if differentiable else None


@defgrad(add_n_op)
def _add_n_grad(op, g):
    return [g] * len(op.inputs)
