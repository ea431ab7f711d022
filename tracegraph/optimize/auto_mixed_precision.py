"""Auto mixed precision (off by default): matmuls and convolutions on float32 run in float16,
with casts at the boundaries; a cast back to float32 followed by a cast to float16 cancels.
This changes rounding by design (float16 has an 11-bit significand), like TensorFlow's."""

from __future__ import annotations

from .. import dtypes as d
from ..ops.registry import get_op
from .builder import GraphBuilder
from .passes import graph_pass
from .rewrite_rules import New


def _to_half(b, t, name, source):
    """A float16 version of `t`, reusing the input of a float16 -> float32 cast."""
    if t.op.type == CAST.type and t.op.inputs[0].dtype is d.float16:
        return t.op.inputs[0]
    return b.apply(get_op(CAST.type), [t], {"DstT": d.float16}, name, source)


# cast(x, float16) in and cast(y, float32) out; cast16(cast32(h)) = h for a float16 h
CAST = New("Cast")


@graph_pass("auto_mixed_precision", exact=False)
def auto_mixed_precision(graph, ctx):
    targets = [op for op in graph.operations if "float16_allowed" in op.op_def.flags
               and all(t.dtype is d.float32 for t in op.inputs)]
    if not targets:
        return graph
    b = GraphBuilder(graph)
    chosen = {id(op) for op in targets}
    for op in b.pending():
        if id(op) not in chosen:
            b.copy(op)
            continue
        halves = [_to_half(b, b.tensor(t), f"{op.name}/cast_{i}", op.source)
                  for i, t in enumerate(op.inputs)]
        y = b.apply(op.op_def, halves, dict(op.kernel_attrs), op.name, op.source,
                    b.controls(op))
        out = b.apply(get_op(CAST.type), [y], {"DstT": d.float32}, f"{op.name}/cast_out",
                      op.source)
        b.replace(op, [out])
        ctx.rewrote("float16", [op], [y])
    return b.finish()
