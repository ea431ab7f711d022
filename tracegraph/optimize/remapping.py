"""Remapper: fuses matmul/conv2d + bias + activation into one op whose kernel works in place
(TensorFlow's `_FusedMatMul` / `_FusedConv2D`):

    relu(bias_add(matmul(a, b), bias))   -> _FusedMatMul(a, b, bias, fused_ops=(BiasAdd, Relu))
    matmul(a, b) + bias   (bias: a vector over the last dim) -> _FusedMatMul(BiasAdd)
    relu(bias_add(conv2d(x, f), bias))   -> _FusedConv2D(x, f, bias, ...)

with Relu, Relu6, Tanh or Sigmoid, or no activation. Only when each intermediate result has no
other consumer, and only for floating-point types.
"""

from __future__ import annotations

from ..ops.fused import ACTIVATIONS, fused_conv2d_op, fused_matmul_op
from .builder import GraphBuilder, consumers
from .passes import graph_pass


def _single_use(t, uses, outputs) -> bool:
    return len(uses.get(id(t), [])) == 1 and id(t) not in outputs and t.value_index == 0


def _bias_of(op):
    """(producer, bias) if `op` adds a bias vector to a matmul/conv2d output."""
    if op.type == "BiasAdd":
        return op.inputs[0], op.inputs[1], op.attrs.get("data_format", "NHWC")
    if op.type == "AddV2":
        for prod, bias in ((op.inputs[0], op.inputs[1]), (op.inputs[1], op.inputs[0])):
            if prod.op.type == "MatMul" and bias._shape is not None and len(bias._shape) == 1 \
                    and prod._shape is not None and bias._shape[0] == prod._shape[-1] and \
                    bias._shape[0] is not None:
                return prod, bias, "NHWC"
    return None


def _pattern(op, uses, outputs):
    """(root op, base op, bias, activation) for a fusable chain ending at `op`."""
    activation = None
    top = op
    if op.type in ACTIVATIONS:
        activation = op.type
        inner = op.inputs[0]
        if not _single_use(inner, uses, outputs):
            return None
        op = inner.op
    found = _bias_of(op)
    if found is None:
        return None
    product, bias, data_format = found
    if not _single_use(product, uses, outputs) or not product.dtype.is_floating:
        return None
    base = product.op
    if base.type == "MatMul" and data_format == "NHWC":
        return top, op, base, bias, activation
    if base.type == "Conv2D" and base.attrs.get("data_format") == data_format:
        return top, op, base, bias, activation
    return None


@graph_pass("remapping")
def remapping(graph, ctx):
    uses = consumers(graph)
    outputs = {id(t) for t in getattr(graph, "outputs", [])}
    fusions = {}
    absorbed = set()
    for op in reversed(graph.operations):
        if id(op) in absorbed:
            continue
        found = _pattern(op, uses, outputs)
        if found is not None and not any(o.control_inputs for o in found[:3] if o is not None):
            top, bias_op, base, bias, activation = found
            fusions[id(top)] = found
            absorbed.update({id(bias_op), id(base)} - {id(top)})
    if not fusions:
        return graph
    b = GraphBuilder(graph)
    for op in b.pending():
        if id(op) in absorbed:
            b.drop(op)
            continue
        found = fusions.get(id(op))
        if found is None:
            b.copy(op)
            continue
        top, bias_op, base, bias, activation = found
        fused_ops = ("BiasAdd",) + ((activation,) if activation else ())
        inputs = [b.tensor(t) for t in base.inputs] + [b.tensor(bias)]
        if base.type == "MatMul":
            attrs = {"transpose_a": base.attrs["transpose_a"],
                     "transpose_b": base.attrs["transpose_b"], "fused_ops": fused_ops}
            fused = fused_matmul_op
        else:
            attrs = {k: base.attrs[k] for k in ("strides", "padding", "explicit_paddings",
                                                "data_format", "dilations")}
            attrs["fused_ops"] = fused_ops
            fused = fused_conv2d_op
        out = b.apply(fused, inputs, attrs, top.name, top.source, b.controls(top))
        b.replace(top, [out])
        ctx.rewrote(f"fuse_{base.type.lower()}_{'_'.join(f.lower() for f in fused_ops)}",
                    [o for o in (top, bias_op, base) if o is not None], [out])
    return b.finish()
