"""A small pattern-rule engine for local rewrites (STYLE rule 4: rewrites are data).

    ARITHMETIC = Rules(
        Rule("mul_one", Op("Mul", X, Const(1)), X, guard=same_type),    # x*1 -> x
        Rule("neg_neg", Op("Neg", Op("Neg", X)), X),                     # --x -> x
    )

Patterns match tensors of the graph being built (so a rewrite sees what earlier rewrites made):
`Op(type, *args)` an op's output by TensorFlow type (commutative ops match either order; a
tuple of types matches any of them, e.g. the types a record flag selects),
`Const(v)` a constant whose every element equals v, `X`/`Y` any tensor (bound by name). A
replacement is a bound variable, `New(type_name, *args, **attrs)` built through the op record
(an attr may be `AttrOf(bound, attr)` or `DTypeOf(bound)`, read from the match), or a function
`(builder, match, name, source, controls) -> tensor`. A guard sees the match and may veto; a
replacement never declines once the guard accepted.

A new op is named after what it is: `New("Sqrt", X)` replacing `f/Pow` is `f/Sqrt` (an op of
the root's own type keeps the root's name), so the report reads `pow_half: f/Pow -> f/Sqrt`.

Every rule is in a group: `EXACT` rules keep every result bit for bit (NaNs, infinities and
signs of zero included); `ROUNDING_CHANGING` rules may change the last bit of a result and are
applied only when the pass's rounding option is on (the report names the group).

`rewrite(graph, ctx, rules)` is the sweep every table-driven pass runs: copy each op, match its
output in the new graph (so a rewrite sees what earlier rewrites made), replace it when a rule
applies, until nothing changes.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from ..ops.registry import get_op
from .builder import GraphBuilder, constant_value

__all__ = ["Var", "X", "Y", "Z", "Op", "Const", "New", "AttrOf", "DTypeOf", "Rule", "Rules",
           "Match", "EXACT", "ROUNDING_CHANGING", "named_like", "rewrite"]

EXACT = "exact"
ROUNDING_CHANGING = "rounding-changing"


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


@dataclass(frozen=True)
class AttrOf:
    """An attr of a replacement: attr `attr` of the op whose output is bound as `bound`."""
    bound: str
    attr: str
    default: object = None


@dataclass(frozen=True)
class DTypeOf:
    """An attr of a replacement: the dtype of the tensor bound as `bound`."""
    bound: str


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
    group: str = EXACT               # or ROUNDING_CHANGING (documented per rule)
    note: str = ""

    @property
    def exact(self) -> bool:
        return self.group == EXACT


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
    if isinstance(value, (np.ndarray, np.generic)) and value.ndim == 0 and \
            value.dtype.kind in "biuf":   # the common case, a scalar: no array arithmetic
        v = value.item()
        if v != target:
            return False
        return not (isinstance(target, float) and target == 0.0) or \
            math.copysign(1.0, v) == math.copysign(1.0, target)
    arr = np.asarray(value)
    if arr.size == 0 or arr.dtype == object:
        return False
    with np.errstate(all="ignore"):
        same = arr == target
    if isinstance(target, float) and target == 0.0:  # the sign of zero matters to x + 0
        same = same & (np.signbit(arr) == np.signbit(np.float64(target)))
    return bool(np.all(same))


def _may_match(pattern, tensor) -> bool:
    """A shallow check that rules out most failing matches before any bindings are copied."""
    if isinstance(pattern, Var):
        return True
    if isinstance(pattern, Const):
        return "constant" in tensor.op.op_def.flags
    return tensor.op.type in _types(pattern.type)


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
    orders = [op.inputs]
    if "commutative" in op.op_def.flags and len(op.inputs) == 2:
        orders.append(op.inputs[::-1])
    for inputs in orders:
        if not all(_may_match(p, t) for p, t in zip(pattern.args, inputs)):
            continue
        trial, trial_ops = dict(bindings), list(ops) + [op]
        if all(_match(p, t, trial, trial_ops) for p, t in zip(pattern.args, inputs)):
            if pattern.bind:
                trial[pattern.bind] = tensor
            bindings.clear()
            bindings.update(trial)
            ops[:] = trial_ops
            return True
    return False


def _attr(value, match: Match):
    if isinstance(value, AttrOf):
        return match.bindings[value.bound].op.attrs.get(value.attr, value.default)
    if isinstance(value, DTypeOf):
        return match.bindings[value.bound].dtype
    return value


def named_like(root_name: str, type_: str) -> str:
    """`type_` in the name scope of `root_name` (`f/Pow`, Sqrt -> `f/Sqrt`)."""
    scope = root_name.rpartition("/")[0]
    return f"{scope}/{type_}" if scope else type_


def build(replacement, match: Match, builder, name: str, source=None, controls=()):
    """The replacement tensor of a match, built in the new graph (`name`: the root's)."""
    if isinstance(replacement, Var):
        return match.bindings[replacement.name]
    if isinstance(replacement, New):
        args = [build(a, match, builder, name, source, controls) for a in replacement.args]
        attrs = {k: _attr(v, match) for k, v in replacement.attrs.items()}
        own = name if replacement.type == match.ops[0].type else \
            named_like(name, replacement.type)
        return builder.apply(get_op(replacement.type), args, attrs, own, source, controls)
    return replacement(builder, match, name, source, controls)


# Sweeps until no rule applies. Each sweep only removes ops or specializes them, so a few reach
# the fixed point; the cap only bounds the work on a pathological graph.
MAX_SWEEPS = 8


def rewrite(graph, ctx, rules: Rules, *, replacements_wait: bool = False, whole_graph=None):
    """Applies `rules` until none matches (so the pass is idempotent: one rewrite can make a
    match for an op the sweep already passed). `replacements_wait`: the ops a replacement makes
    wait for the matched op's control inputs (else only the replacement's readers do, through
    the stand-ins). `whole_graph` adds a rewrite that is not a local pattern: `plan(graph)`
    finds its sites (falsy: none) and `apply(builder, op, plan, ctx)` builds `op` when it is
    one, returning True (see arithmetic_optimization's add chains)."""
    result = graph
    for _ in range(MAX_SWEEPS):
        swept = _sweep(result, ctx, rules, replacements_wait, whole_graph)
        if swept is result:
            break
        result = swept
    return result


def _sweep(graph, ctx, rules, replacements_wait, whole_graph):
    plan = whole_graph.plan(graph) if whole_graph is not None else None
    # Matching only reads the graph: when no rule matches the graph as it is, a rebuild would
    # copy every op and change nothing, so a pass with nothing to do costs only the matching.
    if not plan and not any(len(op.outputs) == 1 and rules.could_match(op) and
                            rules.match(op.outputs[0]) is not None for op in graph.operations):
        return graph
    b = GraphBuilder(graph)
    changed = False
    for op in b.pending():
        if plan and whole_graph.apply(b, op, plan, ctx):
            changed = True
            continue
        if not rules.could_match(op):
            b.copy(op)
            continue
        new = b.copy(op)
        if len(new.outputs) != 1:
            continue
        match = rules.match(new.outputs[0])
        if match is None:
            continue
        b.discard(new)
        controls = b.controls(op) if replacements_wait else ()
        out = build(match.rule.replacement, match, b, op.name, op.source, controls)
        b.replace(op, [out])
        ctx.rewrote(match.rule.name, [op] + list(match.ops[1:]), [out], group=match.rule.group)
        changed = True
    return b.finish() if changed else graph
