"""Shape optimization: computations on shapes that static shapes already answer.

    reshape(x, shape) -> x                   when `shape` is x's fully known static shape
    shape(x)[i] -> constant                  when dim i of x is known (even if others are not)
    prod(shape(x)) -> size(x)
"""

from __future__ import annotations

import numpy as np

from ..ops.registry import get_op
from .builder import GraphBuilder, constant_value
from .passes import graph_pass


def _reshape_to_self(op, b):
    x = b.tensor(op.inputs[0])
    target = constant_value(b.tensor(op.inputs[1]))
    if target is None or x._shape is None or any(s is None for s in x._shape):
        return None
    return x if [int(v) for v in np.asarray(target).reshape(-1)] == list(x._shape) else None


def _static_dim(op, b):
    """StridedSlice(Shape(x), [i], [i+1], [1]) with shrink: dim i if statically known."""
    source = op.inputs[0]
    if source.op.type != "Shape" or op.attrs.get("shrink_axis_mask") != 1 or \
            any(op.attrs.get(k) for k in ("ellipsis_mask", "new_axis_mask")):
        return None
    begin = constant_value(b.tensor(op.inputs[1]))
    x = source.op.inputs[0]
    if begin is None or x._shape is None:
        return None
    i = int(np.asarray(begin).reshape(-1)[0])
    if not -len(x._shape) <= i < len(x._shape) or x._shape[i] is None:
        return None
    return np.asarray(x._shape[i], dtype=source.dtype.numpy_dtype)


def _prod_of_shape(op, b):
    source = op.inputs[0]
    if source.op.type != "Shape" or op.attrs.get("keep_dims"):
        return None
    axes = constant_value(b.tensor(op.inputs[1]))
    if axes is None or [int(a) for a in np.asarray(axes).reshape(-1)] not in ([0], [-1]):
        return None
    return source.op


@graph_pass("shape_optimization")
def shape_optimization(graph, ctx):
    if not any(op.type in ("Reshape", "Prod") or (op.type == "StridedSlice" and
                                                  op.inputs[0].op.type == "Shape")
               for op in graph.operations):
        return graph
    b = GraphBuilder(graph)
    changed = False
    for op in b.pending():
        if op.type == "Reshape" and not op.control_inputs:
            same = _reshape_to_self(op, b)
            if same is not None:
                b.replace(op, [same])
                ctx.rewrote("reshape_to_own_shape", [op], [same])
                changed = True
                continue
        if op.type == "StridedSlice":
            dim = _static_dim(op, b)
            if dim is not None:
                out = b.constant(dim, op.name, op.source, b.controls(op))
                b.replace(op, [out])
                ctx.rewrote("static_dim", [op], [out])
                changed = True
                continue
        if op.type == "Prod":
            shape_op = _prod_of_shape(op, b)
            if shape_op is not None:
                out = b.apply(get_op("Size"), [b.tensor(shape_op.inputs[0])],
                              {"out_type": op.outputs[0].dtype}, op.name, op.source,
                              b.controls(op))
                b.replace(op, [out])
                ctx.rewrote("prod_of_shape_to_size", [op], [out])
                changed = True
                continue
        b.copy(op)
    return b.finish() if changed else graph
