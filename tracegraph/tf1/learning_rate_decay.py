"""TF1's learning-rate schedules of the global step (`tf.compat.v1.train.exponential_decay`,
`piecewise_constant`, `polynomial_decay`, `inverse_time_decay`, `natural_exp_decay`,
`cosine_decay`): in a TF1 graph a float tensor that each run recomputes from the step;
executing eagerly, as TensorFlow 2 does, a function of no arguments that computes it now.

| schedule           | value at step s (p = s / decay_steps, floored when `staircase`)      |
|--------------------|-----------------------------------------------------------------------|
| exponential_decay  | lr · rate^p                                                           |
| natural_exp_decay  | lr · e^(-rate·p)                                                      |
| inverse_time_decay | lr / (1 + rate·p)                                                     |
| polynomial_decay   | (lr - end)·(1 - min(s, N)/N)^power + end; `cycle`: N grows by N       |
| cosine_decay       | lr · ((1 - α)·½(1 + cos(π·min(s, N)/N)) + α)                          |
| piecewise_constant | values[i] for the first boundary b_i ≥ s, else values[-1]             |
"""

from __future__ import annotations

import math

from .. import dtypes as d
from ..framework.contexts import init_scope_context
from ..framework.name_scopes import name_scope_v2 as name_scope
from ..library.indexing import where
from ..library.math import (
    add,
    cast,
    ceil,
    cos,
    equal,
    exp,
    floor,
    less_equal,
    minimum,
    multiply,
    truediv,
)
from ..library.math import pow as pow_op
from ..ops.registry import convert_to_tensor

__all__ = ["exponential_decay", "natural_exp_decay", "inverse_time_decay", "polynomial_decay",
           "cosine_decay", "piecewise_constant"]


def _schedule(name: str, scope: str, global_step, compute):
    """The value now in a TF1 graph, else (eagerly) the function that computes it; its ops in
    name scope `scope`, the last one named after it (`ExponentialDecay:0`), as TF's."""
    if global_step is None:
        raise ValueError(f"global_step is required for {name}.")

    def scoped():
        with name_scope(scope) as opened:
            return compute(opened)
    if getattr(init_scope_context(), "graph", None) is not None:
        return scoped()
    return scoped


def _floats(learning_rate, global_step, *others):
    lr = convert_to_tensor(learning_rate, dtype=d.float32)
    return (lr, cast(global_step, lr.dtype), *(cast(o, lr.dtype) for o in others))


def _progress(step, decay_steps, staircase):
    p = step / decay_steps
    return floor(p) if staircase else p


def exponential_decay(learning_rate, global_step, decay_steps, decay_rate, staircase=False,
                      name=None):
    def compute(scope):
        lr, step, steps, rate = _floats(learning_rate, global_step, decay_steps, decay_rate)
        return multiply(lr, pow_op(rate, _progress(step, steps, staircase)), name=scope)
    return _schedule("exponential_decay", name or "ExponentialDecay", global_step, compute)


def natural_exp_decay(learning_rate, global_step, decay_steps, decay_rate, staircase=False,
                      name=None):
    def compute(scope):
        lr, step, steps, rate = _floats(learning_rate, global_step, decay_steps, decay_rate)
        return multiply(lr, exp(-rate * _progress(step, steps, staircase)), name=scope)
    return _schedule("natural_exp_decay", name or "ExponentialDecay", global_step, compute)


def inverse_time_decay(learning_rate, global_step, decay_steps, decay_rate, staircase=False,
                       name=None):
    def compute(scope):
        lr, step, steps, rate = _floats(learning_rate, global_step, decay_steps, decay_rate)
        return truediv(lr, 1.0 + rate * _progress(step, steps, staircase), name=scope)
    return _schedule("inverse_time_decay", name or "InverseTimeDecay", global_step, compute)


def polynomial_decay(learning_rate, global_step, decay_steps, end_learning_rate=0.0001,
                     power=1.0, cycle=False, name=None):
    def compute(scope):
        lr, step, steps, end, exponent = _floats(learning_rate, global_step, decay_steps,
                                                 end_learning_rate, power)
        if cycle:   # the horizon grows by decay_steps each time the step reaches it
            steps = steps * where(equal(step, 0.0), 1.0, ceil(step / steps))
        else:
            step = minimum(step, steps)
        return add((lr - end) * pow_op(1.0 - step / steps, exponent), end,
                   name=scope)
    return _schedule("polynomial_decay", name or "PolynomialDecay", global_step, compute)


def cosine_decay(learning_rate, global_step, decay_steps, alpha=0.0, name=None):
    def compute(scope):
        lr, step, steps, floor_value = _floats(learning_rate, global_step, decay_steps, alpha)
        step = minimum(step, steps)
        cosine = 0.5 * (1.0 + cos(math.pi * step / steps))
        return lr * ((1.0 - floor_value) * cosine + floor_value)
    return _schedule("cosine_decay", name or "CosineDecay", global_step, compute)


def piecewise_constant(x, boundaries, values, name=None):
    """values[0] up to boundaries[0] (inclusive), values[1] up to boundaries[1], ...,
    values[-1] after the last boundary."""
    if len(values) != len(boundaries) + 1:
        raise ValueError("The length of boundaries should be 1 less than the length of values")

    def compute(scope):
        step = convert_to_tensor(x)
        picked = convert_to_tensor(values[-1])
        for boundary, value in zip(reversed(boundaries), reversed(values[:-1])):
            picked = where(less_equal(step, cast(boundary, step.dtype)),
                           convert_to_tensor(value, dtype=picked.dtype), picked)
        return picked
    return _schedule("piecewise_constant", name or "PiecewiseConstant", x, compute)
