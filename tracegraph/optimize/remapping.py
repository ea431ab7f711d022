"""Remapper: fuses matmul/conv2d + bias + activation into one op whose kernel works in place
(TensorFlow's `_FusedMatMul` / `_FusedConv2D`), as a table of patterns (rewrite_rules.py), one
row per product, bias form and activation (Relu, Relu6, Tanh, Sigmoid, or none):

    act(bias_add(matmul(a, b), bias))   -> _FusedMatMul(a, b, bias, fused_ops=(BiasAdd, act))
    act(matmul(a, b) + bias)            -> the same, when bias is a vector over the last dim
    act(bias_add(conv2d(x, f), bias))   -> _FusedConv2D(x, f, bias, fused_ops=(BiasAdd, act))

The fused kernel computes the same operations in the same order, so results are bit for bit.
A row's replacement names the fused op and its `fused_ops`. Patterns match the source graph;
a chain fuses only when every intermediate result has no other reader and is no output of the
graph, no op of it has control inputs, and the product is floating-point.
"""

from __future__ import annotations

from ..ops.fused import ACTIVATIONS
from ..ops.registry import get_op
from .builder import GraphBuilder, consumers
from .passes import graph_pass
from .rewrite_rules import New, Op, Rule, Rules, Var, X, Y


def _floating(match) -> bool:
    return match.bindings["product"].dtype.is_floating


def _bias_format(match) -> str:
    return match.bindings["biased"].op.attrs.get("data_format", "NHWC")


def matmul_bias_add(match) -> bool:
    """A matmul's bias is added in NHWC (over the last dim)."""
    return _floating(match) and _bias_format(match) == "NHWC"


def matmul_plus_bias_vector(match) -> bool:
    """matmul(a, b) + bias is a BiasAdd when bias is a vector as long as the last dim."""
    bias, product = match.bindings["bias"].dims, match.bindings["product"].dims
    return _floating(match) and bias is not None and len(bias) == 1 and \
        product is not None and bias[0] is not None and bias[0] == product[-1]


def conv2d_bias_add(match) -> bool:
    """The bias is added in the convolution's own data format."""
    conv = match.bindings["product"].op
    return _floating(match) and conv.attrs.get("data_format") == _bias_format(match)


def _rows() -> list[Rule]:
    rows = []
    for activation in (None,) + ACTIVATIONS:
        def act(pattern, activation=activation):
            return pattern if activation is None else Op(activation, pattern)
        suffix = "" if activation is None else f"_{activation.lower()}"
        activations = () if activation is None else (activation,)
        rows += [
            # act(bias_add(a @ b, bias)) = _FusedMatMul(a, b, bias)
            Rule(f"fuse_matmul_biasadd{suffix}",
                 act(Op("BiasAdd", Op("MatMul", X, Y, bind="product"), Var("bias"),
                        bind="biased")),
                 New("_FusedMatMul", fused_ops=("BiasAdd",) + activations),
                 guard=matmul_bias_add),
            # act((a @ b) + bias) = act(bias_add(a @ b, bias)) for a bias over the last dim
            Rule(f"fuse_matmul_biasadd{suffix}",
                 act(Op("AddV2", Op("MatMul", X, Y, bind="product"), Var("bias"),
                        bind="biased")),
                 New("_FusedMatMul", fused_ops=("BiasAdd",) + activations),
                 guard=matmul_plus_bias_vector),
            # act(bias_add(conv2d(x, f), bias)) = _FusedConv2D(x, f, bias)
            Rule(f"fuse_conv2d_biasadd{suffix}",
                 act(Op("BiasAdd", Op("Conv2D", X, Y, bind="product"), Var("bias"),
                        bind="biased")),
                 New("_FusedConv2D", fused_ops=("BiasAdd",) + activations),
                 guard=conv2d_bias_add),
        ]
    return rows


FUSIONS = Rules(*_rows())


def _fusable(match, uses, outputs) -> bool:
    """Every intermediate result is read only by the next op of the chain and is no graph
    output; no op of the chain waits for a control input."""
    if any(op.control_inputs for op in match.ops):
        return False
    return all(len(uses.get(id(op.outputs[0]), [])) == 1 and id(op.outputs[0]) not in outputs
               for op in match.ops[1:])


def _fused_attrs(match) -> dict:
    """The row's attrs, plus the product's own attrs that the fused op takes too."""
    fused = get_op(match.rule.replacement.type)
    base = match.bindings["product"].op
    attrs = {k: v for k, v in base.attrs.items()
             if k in fused.attr_defaults and k not in match.rule.replacement.attrs}
    attrs.update(match.rule.replacement.attrs)
    return attrs


@graph_pass("remapping")
def remapping(graph, ctx):
    uses = consumers(graph)
    outputs = {id(t) for t in getattr(graph, "outputs", [])}
    fusions = {}
    absorbed = set()
    for op in reversed(graph.operations):
        if id(op) in absorbed or not FUSIONS.could_match(op) or len(op.outputs) != 1:
            continue
        match = FUSIONS.match(op.outputs[0])
        if match is not None and _fusable(match, uses, outputs):
            fusions[id(op)] = match
            absorbed.update(id(o) for o in match.ops[1:])
    if not fusions:
        return graph
    b = GraphBuilder(graph)
    for op in b.pending():
        if id(op) in absorbed:
            b.drop(op)
            continue
        match = fusions.get(id(op))
        if match is None:
            b.copy(op)
            continue
        base = match.bindings["product"].op
        inputs = [b.tensor(t) for t in base.inputs] + [b.tensor(match.bindings["bias"])]
        out = b.apply(get_op(match.rule.replacement.type), inputs, _fused_attrs(match), op.name,
                      op.source, b.controls(op))
        b.replace(op, [out])
        ctx.rewrote(match.rule.name, match.ops, [out])
    return b.finish()
