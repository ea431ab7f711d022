"""The gradient table: TensorFlow op type -> gradient rule, filled by `@defgrad` at import.

A rule is `rule(op, *output_grads)` returning one gradient per flat input of the op (None where
there is none). `op` has `inputs`, `outputs`, `attrs` and `type`; it is a tape entry, an
Operation of a graph (`tf.gradients`) or an Operation of a sub-graph seen from its caller
(`forward_values.py`). Rules are written with the library's functions, so they run eagerly and
record backward ops while tracing.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable

from ..library.math import conj, multiply, multiply_no_nan

__all__ = ["defgrad", "defgrad_unary", "defgrad_override", "gradient_of", "has_gradient",
           "needed", "OVERRIDE_ATTR"]

_RULES: dict[str, Callable] = {}


def defgrad(*op_types: str):
    """`@defgrad("MatMul")` registers the rule below it for those op types (once each, like
    TensorFlow's `RegisterGradient`)."""
    def register(rule):
        for op_type in op_types:
            if op_type in _RULES:
                raise ValueError(f"op type {op_type} already has a gradient rule")
            _RULES[op_type] = rule
        return rule
    return register


def defgrad_unary(op_type: str, *, x: Callable | None = None, y: Callable | None = None,
                  zero_for_zero_gradient: bool = False):
    """Registers the rule of a one-input elementwise op y = f(x) from its derivative f'
    written from its input (`x=lambda x: ...`) or from its output (`y=lambda y: ...`): the
    gradient is `g * conj(f')`. Only that value is read (a loop keeps only it for the
    gradient). `zero_for_zero_gradient`: 0 where g is 0 even where f' is inf or NaN
    (TensorFlow's SqrtGrad, RsqrtGrad and ReciprocalGrad kernels), so a branch a `tf.where`
    masks or a term scaled by 0 contributes nothing."""
    def rule(op, g):
        local = x(op.inputs[0]) if x is not None else y(op.outputs[0])
        local = conj(local) if local.dtype.is_complex else local
        return multiply_no_nan(local, g) if zero_for_zero_gradient else multiply(g, local)
    rule.__name__ = f"_{op_type.lower()}_grad"
    defgrad(op_type)(rule)


def gradient_of(op_type: str, attrs=None) -> Callable | None:
    """The rule registered for `op_type`, or None; an op whose attrs name a rule of its own in
    `_gradient_op_type` (TensorFlow's gradient override: `tf.custom_gradient` in a graph) has
    that one."""
    override = attrs.get(OVERRIDE_ATTR) if attrs else None
    return _RULES.get(override if override is not None else op_type)


OVERRIDE_ATTR = "_gradient_op_type"
_overrides = itertools.count(1)


def defgrad_override(rule: Callable) -> str:
    """Registers the rule of one op (TensorFlow's `gradient_override_map`): returns the name
    the op carries in its `_gradient_op_type` attr."""
    name = f"CustomGradient-{next(_overrides)}"
    _RULES[name] = rule
    return name


def has_gradient(op_def) -> bool:
    """Whether the op record has a gradient rule."""
    return op_def.tf_type in _RULES


def needed(op, index: int) -> bool:
    """Whether the gradient of input `index` is wanted (a rule may skip the work if not)."""
    return index not in getattr(op, "skip", ())
