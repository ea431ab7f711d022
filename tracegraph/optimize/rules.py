"""A small pattern-rule engine for local rewrites (STYLE rule 4: rewrites are data).

    ARITHMETIC = Rules(
        Rule("mul_one", Op("Mul", X, Const(1)), X, guard=same_type),    # x*1 -> x
        Rule("neg_neg", Op("Neg", Op("Neg", X)), X),                     # --x -> x
    )

Patterns match tensors of the graph being built (so a rewrite sees what earlier rewrites made):
`Op(type, *args)` an op's output by TensorFlow type (commutative ops match either order; a
tuple of types matches any of them, e.g. the types a record flag selects),
`Const(v)` a constant whose every element equals v, `X`/`Y` any tensor (bound by name). A
replacement is a bound variable or `New(type_name, *args, **attrs)`, built through the op
record. A guard sees the bindings and the matched op and may veto.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from ..ops.registry import get_op
from .builder import constant_value

__all__ = ["Var", "X", "Y", "Z", "Op", "Const", "New", "Rule", "Rules", "Match"]


@dataclass(frozen=True)
class Var:
    name: str


X, Y, Z = Var("x"), Var("y"), Var("z")


@dataclass(frozen=True)
class Op:
    type: str | tuple
    args: tuple = ()
    bind: str | None = None   # bind the matched op's output under this name

    def __init__(self, type_, *args, bind=None):
        object.__setattr__(self, "type", type_)
        object.__setattr__(self, "args", args)
        object.__setattr__(self, "bind", bind)


@dataclass(frozen=True)
class Const:
    value: object
    bind: str | None = None


@dataclass(frozen=True)
class New:
    type: str
    args: tuple = ()
    attrs: dict = field(default_factory=dict)

    def __init__(self, type_, *args, **attrs):
        object.__setattr__(self, "type", type_)
        object.__setattr__(self, "args", args)
        object.__setattr__(self, "attrs", attrs)


@dataclass
class Match:
    rule: Rule
    bindings: dict
    ops: list            # matched ops (outermost first)


@dataclass(frozen=True)
class Rule:
    name: str
    pattern: Op
    replacement: object              # a Var, a New, or a function(builder, match) -> tensor
    guard: Callable | None = None    # guard(match) -> bool
    exact: bool = True               # False: may change rounding (documented per rule)
    note: str = ""


class Rules:
    def __init__(self, *rules: Rule):
        self.rules = list(rules)
        self.by_type: dict[str, list] = {}
        for rule in self.rules:
            for type_ in _types(rule.pattern.type):
                self.by_type.setdefault(type_, []).append(rule)

    def __iter__(self):
        return iter(self.rules)

    def could_match(self, op) -> bool:
        """Whether any rule's pattern is rooted at an op of this type (a cheap pre-check)."""
        return op.type in self.by_type

    def match(self, tensor) -> Match | None:
        for rule in self.by_type.get(tensor.op.type, ()):
            bindings, ops = {}, []
            if _match(rule.pattern, tensor, bindings, ops):
                m = Match(rule, bindings, ops)
                if rule.guard is None or rule.guard(m):
                    return m
        return None


def _types(type_) -> tuple:
    return type_ if isinstance(type_, tuple) else (type_,)


def _all_equal(value, target) -> bool:
    arr = np.asarray(value)
    if arr.size == 0 or arr.dtype == object:
        return False
    with np.errstate(all="ignore"):
        same = arr == target
    if isinstance(target, float) and target == 0.0:  # the sign of zero matters to x + 0
        same = same & (np.signbit(arr) == np.signbit(np.float64(target)))
    return bool(np.all(same))


def _match(pattern, tensor, bindings: dict, ops: list) -> bool:
    if isinstance(pattern, Var):
        bound = bindings.get(pattern.name)
        if bound is None:
            bindings[pattern.name] = tensor
            return True
        return bound is tensor
    if isinstance(pattern, Const):
        value = constant_value(tensor)
        if value is None or not _all_equal(value, pattern.value):
            return False
        if pattern.bind:
            bindings[pattern.bind] = tensor
        return True
    op = tensor.op
    if op.type not in _types(pattern.type) or tensor.value_index != 0:
        return False
    if len(pattern.args) != len(op.inputs):
        return False
    orders = [list(op.inputs)]
    if "commutative" in op.op_def.flags and len(op.inputs) == 2:
        orders.append(list(reversed(op.inputs)))
    for inputs in orders:
        trial, trial_ops = dict(bindings), list(ops) + [op]
        if all(_match(p, t, trial, trial_ops) for p, t in zip(pattern.args, inputs)):
            if pattern.bind:
                trial[pattern.bind] = tensor
            bindings.clear()
            bindings.update(trial)
            ops[:] = trial_ops
            return True
    return False


def build(replacement, match: Match, builder, name: str, source=None):
    """The replacement tensor of a match, built in the new graph."""
    if isinstance(replacement, Var):
        return match.bindings[replacement.name]
    if isinstance(replacement, New):
        args = [build(a, match, builder, name, source) for a in replacement.args]
        out = builder.apply(get_op(replacement.type), args, dict(replacement.attrs), name,
                            source)
        return out
    return replacement(builder, match, name, source)
