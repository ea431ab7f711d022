"""Layout optimizer: convolutions, pooling and bias adds in NCHW run as NHWC (the layout the
NumPy kernels compute in) between a transpose in and a transpose out; then transpose pairs
that cancel are removed, looking through layout-agnostic elementwise ops, so a chain of NCHW
layers keeps one transpose at each end. Values are unchanged bit for bit."""

from __future__ import annotations

import numpy as np

from ..ops.registry import get_op
from .builder import GraphBuilder, constant_value, consumers
from .passes import graph_pass
from .pruning import pruning
from .rewrite_rules import New

TO_NHWC = np.array([0, 2, 3, 1], np.int32)
TO_NCHW = np.array([0, 3, 1, 2], np.int32)


def _nhwc(values) -> tuple:
    v = list(values)
    return (v[0], v[2], v[3], v[1]) if len(v) == 4 else tuple(v)


def _nchw_op(op) -> bool:
    if "data_format" not in op.op_def.flags or op.attrs.get("data_format") != "NCHW":
        return False
    x = op.inputs[0]
    return x.ndim == 4


def _converted_attrs(op) -> dict:
    attrs = {k: v for k, v in op.kernel_attrs.items()}
    attrs["data_format"] = "NHWC"
    for key in ("strides", "dilations", "ksize"):
        if key in attrs:
            attrs[key] = _nhwc(attrs[key])
    if attrs.get("explicit_paddings"):
        p = list(attrs["explicit_paddings"])
        pairs = [p[i:i + 2] for i in range(0, 8, 2)]
        attrs["explicit_paddings"] = tuple(v for pair in _nhwc(pairs) for v in pair)
    return attrs


# transpose(x, TO_NHWC) in and transpose(y, TO_NCHW) out of a converted op; a pair of
# transposes whose permutations compose to the identity cancels: T(T(x, p), q) = x
TRANSPOSE = New("Transpose")


def _convert(graph, ctx):
    if not any(_nchw_op(op) for op in graph.operations):
        return graph
    b = GraphBuilder(graph)
    transpose = get_op(TRANSPOSE.type)
    for op in b.pending():
        if not _nchw_op(op):
            b.copy(op)
            continue
        x = b.apply(transpose, [b.tensor(op.inputs[0]), TO_NHWC], {}, f"{op.name}/to_nhwc",
                    op.source)
        rest = [b.tensor(t) for t in op.inputs[1:]]
        y = b.apply(op.op_def, [x] + rest, _converted_attrs(op), op.name, op.source,
                    b.controls(op))
        out = b.apply(transpose, [y, TO_NCHW], {}, f"{op.name}/to_nchw", op.source)
        b.replace(op, [out])
        ctx.rewrote("nchw_to_nhwc", [op], [x, y, out])
    return b.finish()


def _perm(t):
    if t.op.type != TRANSPOSE.type:
        return None
    value = constant_value(t.op.inputs[1])
    return None if value is None else [int(v) for v in np.asarray(value)]


def _cancel(graph, ctx):
    """Transpose(f(...f(Transpose(x, p))...), q) -> f(...f(x)...) when q undoes p and every f
    is an elementwise op of one input read only by the next."""
    if sum(op.type == TRANSPOSE.type for op in graph.operations) < 2:
        return graph   # no pair to cancel: not worth a rebuild
    uses = consumers(graph)
    b = GraphBuilder(graph)
    changed = False
    for op in b.pending():
        q = _perm(op.outputs[0]) if op.type == TRANSPOSE.type else None
        if q is not None:
            chain, t = [], op.inputs[0]
            while t.op.op_def.flags >= {"elementwise", "pure"} and len(t.op.inputs) == 1 and \
                    uses.get(id(t)) == [chain[-1] if chain else op] and not t.op.control_inputs:
                chain.append(t.op)
                t = t.op.inputs[0]
            p = _perm(t)
            if p is not None and [p[i] for i in q] == list(range(len(q))):
                x = b.tensor(t.op.inputs[0])
                for f in reversed(chain):
                    x = b.apply(f.op_def, [x], dict(f.kernel_attrs), f.name, f.source)
                b.replace(op, [x])
                ctx.rewrote("cancel_transposes", [op, t.op] + chain, [x])
                changed = True
                continue
        b.copy(op)
    return b.finish() if changed else graph


@graph_pass("layout_optimizer", run_once=True)
def layout_optimizer(graph, ctx):
    result = _convert(graph, ctx)
    while True:
        cancelled = _cancel(result, ctx)
        if cancelled is result:
            return result
        result = pruning(cancelled, ctx)
