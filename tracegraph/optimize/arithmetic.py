"""Arithmetic optimization: local simplifications written as a table of rules, plus one
whole-graph rewrite (left-deep chains of adds -> one AddN).

IEEE safety: a rewrite never turns a NaN or Inf result into a finite one, so `x*0` stays. Rules
marked `exact=False` may change the last bit (1/(1/x) -> x, pow(x, 0.5) -> sqrt(x), which also
differs on -inf and -0.0); all other rules are bit for bit. `x + 0 -> x` holds only for integer
zeros and -0.0 (x + +0.0 turns -0.0 into +0.0), `x - 0 -> x` for integer zeros and +0.0. The
negation of an ordering comparison is rewritten only for integers (NaN compares false both
ways); `not (a == b) -> a != b` holds for every dtype.
"""

from __future__ import annotations

import numpy as np

from ..ops.registry import all_ops, get_op
from .builder import GraphBuilder, constant_value, consumers
from .passes import graph_pass
from .rules import Const, New, Op, Rule, Rules, Var, X, Y, build

# The op types whose records carry the `involution` flag (f(f(x)) == x bit for bit: Neg,
# LogicalNot, Invert): one rule covers them all.
INVOLUTIONS = tuple(sorted(op.tf_type for op in all_ops() if "involution" in op.flags))


def same_op(match) -> bool:
    """Both matched ops are the same op (f(f(x)), not f(g(x)))."""
    return match.ops[0].type == match.ops[1].type


def _output(match):
    return match.ops[0].outputs[0]


def keeps_type(match) -> bool:
    """The result has exactly x's dtype and static shape (no broadcasting to a bigger one)."""
    x, out = match.bindings["x"], _output(match)
    return x.dtype is out.dtype and x._shape == out._shape and x._shape is not None and \
        all(s is not None for s in x._shape)


def _zero_kind(match, negative_zero_ok: bool) -> bool:
    if not keeps_type(match):
        return False
    zero = np.asarray(constant_value(match.bindings["zero"]))
    if zero.dtype.kind in "iub":
        return True
    if zero.dtype.kind == "f":
        return bool(np.all(np.signbit(zero) == negative_zero_ok))
    return False


def add_zero_safe(match) -> bool:
    """x + 0 -> x: exact for integer zeros and -0.0 only."""
    return _zero_kind(match, negative_zero_ok=True)


def sub_zero_safe(match) -> bool:
    """x - 0 -> x: exact for integer zeros and +0.0 only."""
    return _zero_kind(match, negative_zero_ok=False)


def not_float(match) -> bool:
    return not match.bindings["x"].dtype.is_floating and not match.bindings["x"].dtype.is_complex


def is_floating(match) -> bool:
    return match.bindings["x"].dtype.is_floating


def scalar_exponent(match) -> bool:
    """pow(x, 2) -> square(x) and pow(x, 1) -> x are bit for bit only for a scalar exponent:
    NumPy's power then takes its exact fast path (x*x, x); with an array of 2s its float32
    pow can be one ulp off x*x, and the rewrite would change that rounding."""
    return keeps_type(match) and np.size(constant_value(match.bindings["exponent"])) == 1


def _compose_transposes(builder, match, name, source):
    """transpose(transpose(x, p), q) -> transpose(x, p[q]), or x when that is the identity."""
    p = constant_value(match.bindings["p"])
    q = constant_value(match.bindings["q"])
    if p is None or q is None:
        return None
    perm = [int(np.asarray(p)[i]) for i in np.asarray(q)]
    if perm == list(range(len(perm))):
        return match.bindings["x"]
    return builder.apply(get_op("Transpose"), [match.bindings["x"], np.array(perm, np.int32)],
                         {}, name, source)


def _reshape_of_reshape(builder, match, name, source):
    return builder.apply(get_op("Reshape"), [match.bindings["x"], match.bindings["s2"]], {},
                         name, source)


def _negated(comparison: str):
    def make(builder, match, name, source):
        return builder.apply(get_op(comparison), [match.bindings["x"], match.bindings["y"]],
                             {}, name, source)
    return make


def _not_equal(builder, match, name, source):
    inner = match.ops[1]
    flag = inner.attrs.get("incompatible_shape_error", True)
    return builder.apply(get_op("NotEqual" if inner.type == "Equal" else "Equal"),
                         [match.bindings["x"], match.bindings["y"]],
                         {"incompatible_shape_error": flag}, name, source)


ARITHMETIC = Rules(
    Rule("mul_one", Op("Mul", X, Const(1)), X, guard=keeps_type),                # x*1 -> x
    Rule("div_one", Op("RealDiv", X, Const(1)), X, guard=keeps_type),            # x/1 -> x
    Rule("add_zero", Op("AddV2", X, Const(0, bind="zero")), X, guard=add_zero_safe),  # x+0 -> x
    Rule("sub_zero", Op("Sub", X, Const(0, bind="zero")), X, guard=sub_zero_safe),    # x-0 -> x
    Rule("involution", Op(INVOLUTIONS, Op(INVOLUTIONS, X)), X, guard=same_op),   # f(f(x)) -> x
    Rule("reciprocal_reciprocal", Op("Reciprocal", Op("Reciprocal", X)), X,      # 1/(1/x) -> x
         exact=False),
    Rule("div_div", Op("RealDiv", Const(1), Op("RealDiv", Const(1), X)), X,     # 1/(1/x) -> x
         guard=keeps_type, exact=False),
    Rule("mul_self", Op("Mul", X, X), New("Square", X)),                         # x*x -> x^2
    Rule("pow_two", Op("Pow", X, Const(2, bind="exponent")), New("Square", X),   # x**2 -> x^2
         guard=scalar_exponent),
    Rule("pow_one", Op("Pow", X, Const(1, bind="exponent")), X,                  # x**1 -> x
         guard=scalar_exponent),
    Rule("pow_half", Op("Pow", X, Const(0.5)), New("Sqrt", X),                  # x**.5 -> sqrt
         guard=lambda m: keeps_type(m) and is_floating(m), exact=False),
    Rule("transpose_transpose",                                                  # T(T(x)) -> T(x)
         Op("Transpose", Op("Transpose", X, Var("p")), Var("q")),
         _compose_transposes),
    Rule("reshape_reshape",                                                      # R(R(x)) -> R(x)
         Op("Reshape", Op("Reshape", X, Var("s1")), Var("s2")),
         _reshape_of_reshape),
    Rule("not_equal", Op("LogicalNot", Op("Equal", X, Y)), _not_equal),         # !(a==b) -> a!=b
    Rule("not_not_equal", Op("LogicalNot", Op("NotEqual", X, Y)), _not_equal),  # !(a!=b) -> a==b
    Rule("not_less", Op("LogicalNot", Op("Less", X, Y)),                         # !(a<b) -> a>=b
         _negated("GreaterEqual"), guard=not_float),
    Rule("not_less_equal", Op("LogicalNot", Op("LessEqual", X, Y)),              # !(a<=b) -> a>b
         _negated("Greater"), guard=not_float),
    Rule("not_greater", Op("LogicalNot", Op("Greater", X, Y)),                   # !(a>b) -> a<=b
         _negated("LessEqual"), guard=not_float),
    Rule("not_greater_equal", Op("LogicalNot", Op("GreaterEqual", X, Y)),        # !(a>=b) -> a<b
         _negated("Less"), guard=not_float),
)


def _add_chain(op, uses) -> tuple[list, list] | None:
    """(leaves, inner adds) of a left-deep chain of adds ending at `op` (((a+b)+c)+d), when
    every inner add feeds only the next one and no operand is broadcast: AddN sums the leaves
    in the same order, so the result is bit for bit the same."""
    leaves, inner = [], []
    node = op
    out_shape = op.outputs[0]._shape
    if out_shape is None or any(s is None for s in out_shape) or node.control_inputs:
        return None
    while True:
        left, right = node.inputs
        leaves.append(right)
        if left.op.type == "AddV2" and uses.get(id(left), []) == [node] and \
                not left.op.control_inputs:
            node = left.op
            inner.append(node)
            continue
        leaves.append(left)
        break
    leaves.reverse()
    if len(leaves) < 3 or any(t._shape != out_shape for t in leaves):
        return None
    return leaves, inner


# Sweeps until no rule applies. Each sweep only removes ops or specializes them, so a few reach
# the fixed point; the cap only bounds the work on a pathological graph.
MAX_SWEEPS = 8


@graph_pass("arithmetic_optimization")
def arithmetic_optimization(graph, ctx):
    """Sweeps the graph until nothing changes, so the pass is idempotent: one rewrite can make
    a match for an op the sweep already passed (x + 0 -> x turns ((x + 0) + y) + z into a
    chain of adds; x * 1 -> x can give an add a single reader)."""
    exact_only = ctx.options.get("_exact_only", False)
    rules = Rules(*[r for r in ARITHMETIC if r.exact or not exact_only])
    result = graph
    for _ in range(MAX_SWEEPS):
        swept = _sweep(result, ctx, rules)
        if swept is result:
            break
        result = swept
    return result


def _sweep(graph, ctx, rules):
    uses = consumers(graph)
    chains: dict = {}
    absorbed: set = set()
    for op in reversed(graph.operations):
        if op.type == "AddV2" and id(op) not in absorbed and op.outputs[0].dtype.is_numeric:
            found = _add_chain(op, uses)
            if found is not None:
                chains[id(op)] = found[0]
                absorbed.update(id(o) for o in found[1])
    if not chains and not any(rules.could_match(op) for op in graph.operations):
        return graph
    b = GraphBuilder(graph)
    changed = False
    for op in b.pending():
        if id(op) in absorbed:
            b.drop(op)
            continue
        chain = chains.get(id(op))
        if chain is not None:
            out = b.apply(get_op("AddN"), [[b.tensor(t) for t in chain]], {}, op.name,
                          op.source, b.controls(op))
            b.replace(op, [out])
            ctx.rewrote("add_chain_to_add_n", [op], [out])
            changed = True
            continue
        new = b.copy(op)
        if len(new.outputs) != 1 or not rules.could_match(op):
            continue
        match = rules.match(new.outputs[0])
        if match is None:
            continue
        b.discard(new)
        out = build(match.rule.replacement, match, b, op.name, op.source)
        if out is None:  # the rule declined after all: keep the copy
            b._discarded.discard(id(new))
            b.dst._name_counts[new.name.lower()] = 1
            continue
        b.replace(op, [out])
        ctx.rewrote(match.rule.name, [op] + list(match.ops[1:]), [out])
        changed = True
    return b.finish() if changed else graph
