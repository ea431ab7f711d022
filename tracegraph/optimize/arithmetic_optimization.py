"""Arithmetic optimization: local simplifications written as a table of rules, plus one
whole-graph rewrite (left-deep chains of adds -> one AddN).

Two groups (rewrite_rules.py), and the report names the second:

- exact: every result bit for bit, NaNs, infinities and signs of zero included. IEEE safety: a
  rewrite never turns a NaN or Inf result into a finite one, so `x*0` stays. `x + 0 -> x` holds
  only for integer zeros and -0.0 (x + +0.0 turns -0.0 into +0.0), `x - 0 -> x` for integer
  zeros and +0.0. The negation of an ordering comparison is rewritten only for integers (NaN
  compares false both ways); `not (a == b) -> a != b` holds for every dtype. `pow(x, 0.5) ->
  sqrt(x)` only where x can be neither -inf nor -0.0, the two values where they part ways
  (pow gives +inf and +0.0, sqrt NaN and -0.0): x a square, an absolute value or an exp.
  Powers take a scalar exponent only: NumPy's power then takes its exact fast path (x*x, x,
  sqrt(x)); with an array exponent its float32 pow can be one ulp off.
- rounding-changing (option `arithmetic_rounding_changing`, on by default as in Grappler,
  whose involution removal includes Reciprocal): `1/(1/x) -> x` may change the last bit, and
  1/x overflows or underflows for the largest and smallest x.
"""

from __future__ import annotations

import numpy as np

from ..ops.registry import all_ops, get_op
from .builder import constant_value, consumers
from .passes import graph_pass
from .rewrite_rules import (
    EXACT,
    ROUNDING_CHANGING,
    AttrOf,
    Const,
    New,
    Op,
    Rule,
    Rules,
    Var,
    X,
    Y,
    named_like,
    rewrite,
)

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
    return x.dtype is out.dtype and x.known_shape is not None and x.dims == out.dims


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


def scalar_exponent(match) -> bool:
    """pow(x, 2) -> square(x) and pow(x, 1) -> x are bit for bit only for a scalar exponent:
    NumPy's power then takes its exact fast path (x*x, x); with an array of 2s its float32
    pow can be one ulp off x*x, and the rewrite would change that rounding."""
    return keeps_type(match) and np.size(constant_value(match.bindings["exponent"])) == 1


def half_power(match) -> bool:
    """pow(x, 0.5) -> sqrt(x): a scalar exponent on a floating-point x (the pattern has made
    sure x is neither -inf nor -0.0)."""
    # Only a 0-d exponent: NumPy takes its sqrt fast path for it, but computes powf for a
    # one-element array exponent against a one-element x (1.7320509 vs sqrt's 1.7320508 at 3).
    return scalar_exponent(match) and match.bindings["x"].dtype.is_floating and \
        np.ndim(constant_value(match.bindings["exponent"])) == 0


def composable_transposes(match) -> bool:
    return constant_value(match.bindings["p"]) is not None and \
        constant_value(match.bindings["q"]) is not None


def _composed(match) -> list:
    p, q = np.asarray(constant_value(match.bindings["p"])), \
        np.asarray(constant_value(match.bindings["q"]))
    return [int(p[i]) for i in q]


def _compose_transposes(builder, match, name, source, controls):
    """transpose(transpose(x, p), q) = transpose(x, p[q]), which is x when p[q] = identity."""
    perm = _composed(match)
    if perm == list(range(len(perm))):
        return match.bindings["x"]
    return builder.apply(match.ops[0].op_def, [match.bindings["x"], np.array(perm, np.int32)],
                         {}, name, source, controls)


ARITHMETIC = Rules(
    Rule("mul_one", Op("Mul", X, Const(1)), X, guard=keeps_type),                # x*1 -> x
    Rule("div_one", Op("RealDiv", X, Const(1)), X, guard=keeps_type),            # x/1 -> x
    Rule("add_zero", Op("AddV2", X, Const(0, bind="zero")), X, guard=add_zero_safe),  # x+0 -> x
    Rule("sub_zero", Op("Sub", X, Const(0, bind="zero")), X, guard=sub_zero_safe),    # x-0 -> x
    Rule("involution", Op(INVOLUTIONS, Op(INVOLUTIONS, X)), X, guard=same_op),   # f(f(x)) -> x
    Rule("reciprocal_reciprocal", Op("Reciprocal", Op("Reciprocal", X)), X,      # 1/(1/x) -> x
         group=ROUNDING_CHANGING),
    Rule("div_div", Op("RealDiv", Const(1), Op("RealDiv", Const(1), X)), X,     # 1/(1/x) -> x
         guard=keeps_type, group=ROUNDING_CHANGING),
    Rule("mul_self", Op("Mul", X, X), New("Square", X)),                         # x*x -> x^2
    Rule("pow_two", Op("Pow", X, Const(2, bind="exponent")), New("Square", X),   # x**2 -> x^2
         guard=scalar_exponent),
    Rule("pow_one", Op("Pow", X, Const(1, bind="exponent")), X,                  # x**1 -> x
         guard=scalar_exponent),
    Rule("pow_half_of_square",                                                   # (y^2)**.5 ->
         Op("Pow", Op("Square", Y, bind="x"), Const(0.5, bind="exponent")),     # sqrt(y^2)
         New("Sqrt", X), guard=half_power),
    Rule("pow_half_of_abs",                                                      # |y|**.5 ->
         Op("Pow", Op("Abs", Y, bind="x"), Const(0.5, bind="exponent")),        # sqrt(|y|)
         New("Sqrt", X), guard=half_power),
    Rule("pow_half_of_exp",                                                      # exp(y)**.5 ->
         Op("Pow", Op("Exp", Y, bind="x"), Const(0.5, bind="exponent")),        # sqrt(exp(y))
         New("Sqrt", X), guard=half_power),
    Rule("transpose_transpose",                                                  # T(T(x,p),q) =
         Op("Transpose", Op("Transpose", X, Var("p")), Var("q")),                # T(x, p[q])
         _compose_transposes, guard=composable_transposes),
    Rule("reshape_reshape",                                                      # R(R(x)) -> R(x)
         Op("Reshape", Op("Reshape", X, Var("s1")), Var("s2")),
         New("Reshape", X, Var("s2"))),
    Rule("not_equal",                                                            # !(a==b) -> a!=b
         Op("LogicalNot", Op("Equal", X, Y, bind="eq")),
         New("NotEqual", X, Y, incompatible_shape_error=AttrOf("eq", "incompatible_shape_error",
                                                               True))),
    Rule("not_not_equal",                                                        # !(a!=b) -> a==b
         Op("LogicalNot", Op("NotEqual", X, Y, bind="ne")),
         New("Equal", X, Y, incompatible_shape_error=AttrOf("ne", "incompatible_shape_error",
                                                            True))),
    Rule("not_less", Op("LogicalNot", Op("Less", X, Y)),                         # !(a<b) -> a>=b
         New("GreaterEqual", X, Y), guard=not_float),
    Rule("not_less_equal", Op("LogicalNot", Op("LessEqual", X, Y)),              # !(a<=b) -> a>b
         New("Greater", X, Y), guard=not_float),
    Rule("not_greater", Op("LogicalNot", Op("Greater", X, Y)),                   # !(a>b) -> a<=b
         New("LessEqual", X, Y), guard=not_float),
    Rule("not_greater_equal", Op("LogicalNot", Op("GreaterEqual", X, Y)),        # !(a>=b) -> a<b
         New("Less", X, Y), guard=not_float),
)

# ((a + b) + c) + d -> AddN(a, b, c, d): AddN sums its inputs left to right, so bit for bit
ADD_CHAIN = Rule("add_chain_to_add_n", Op("AddV2", X, Y), New("AddN"))


def _add_chain(op, uses) -> tuple[list, list] | None:
    """(leaves, inner adds) of a left-deep chain of adds ending at `op` (((a+b)+c)+d), when
    every inner add feeds only the next one and no operand is broadcast."""
    leaves, inner = [], []
    node = op
    out_shape = op.outputs[0].known_shape
    if out_shape is None or node.control_inputs:
        return None
    while True:
        left, right = node.inputs
        leaves.append(right)
        if left.op.type == ADD_CHAIN.pattern.type and uses.get(id(left), []) == [node] and \
                not left.op.control_inputs:
            node = left.op
            inner.append(node)
            continue
        leaves.append(left)
        break
    leaves.reverse()
    if len(leaves) < 3 or any(t.dims != out_shape for t in leaves):
        return None
    return leaves, inner


class _AddChains:
    """The whole-graph rewrite of `rules.rewrite`: plan finds the chains, apply builds them."""

    @staticmethod
    def plan(graph) -> dict:
        uses = consumers(graph)
        chains: dict = {}
        absorbed: set = set()
        for op in reversed(graph.operations):
            if op.type == ADD_CHAIN.pattern.type and id(op) not in absorbed and \
                    op.outputs[0].dtype.is_numeric:
                found = _add_chain(op, uses)
                if found is not None:
                    chains[id(op)] = found[0]
                    absorbed.update(id(o) for o in found[1])
        return {"chains": chains, "absorbed": absorbed} if chains else {}

    @staticmethod
    def apply(b, op, plan, ctx) -> bool:
        if id(op) in plan["absorbed"]:
            b.drop(op)
            return True
        chain = plan["chains"].get(id(op))
        if chain is None:
            return False
        out = b.apply(get_op(ADD_CHAIN.replacement.type), [[b.tensor(t) for t in chain]], {},
                      named_like(op.name, ADD_CHAIN.replacement.type), op.source,
                      b.controls(op))
        b.replace(op, [out])
        ctx.rewrote(ADD_CHAIN.name, [op], [out])
        return True


@graph_pass("arithmetic_optimization", rounding_option="arithmetic_rounding_changing")
def arithmetic_optimization(graph, ctx):
    """Sweeps the graph until nothing changes, so the pass is idempotent: one rewrite can make
    a match for an op the sweep already passed (x + 0 -> x turns ((x + 0) + y) + z into a
    chain of adds; x * 1 -> x can give an add a single reader). The rounding-changing group
    applies only when option `arithmetic_rounding_changing` is on."""
    groups = {EXACT, ROUNDING_CHANGING} if ctx.options.get("arithmetic_rounding_changing",
                                                           True) else {EXACT}
    rules = Rules(*[r for r in ARITHMETIC if r.group in groups])
    result = rewrite(graph, ctx, rules, whole_graph=_AddChains)
    changing = sum(not r.exact for r in ctx.rewrites)
    if changing:
        ctx.detail = f"{changing} {ROUNDING_CHANGING} rewrites (arithmetic_rounding_changing)"
    return result
