"""A readable one-line-per-op text form of a graph (SPEC R-5.3).

    x = Placeholder[dtype=int32, shape=()]                        : int32[]
    Greater/y = Const[value=0]                                     : int32[]
    Greater = Greater(x, Greater/y)                                : bool[]

Tensors other than an op's first output print as `name:i`; control inputs as `^name`. Type
attrs (T) are left out since the operand types show them; sub-graphs print indented below the op.
"""

from __future__ import annotations

import numpy as np

from .. import dtypes as d
from .graph import Graph

__all__ = ["graph_text", "tensor_ref", "format_type"]

_COLUMN = 62


def tensor_ref(t) -> str:
    return t.op.name if t.value_index == 0 else f"{t.op.name}:{t.value_index}"


def format_type(t) -> str:
    shape = "?" if t._shape is None else ",".join("?" if s is None else str(s) for s in t._shape)
    return f"{t.dtype.name}[{shape}]"


def _attr_text(value) -> str:
    if isinstance(value, d.DType):
        return value.name
    if isinstance(value, Graph):
        return value.name
    if isinstance(value, (np.ndarray, np.generic)):
        arr = np.asarray(value)
        if arr.size <= 6:
            if arr.ndim:
                text = np.array2string(arr, separator=", ")
            else:  # a string scalar is already a Python object (bytes): no .item()
                v = arr[()]
                text = repr(v.item() if isinstance(v, np.generic) else v)
            return text.replace("\n", "")
        return f"<{d.NUMPY_TO_DTYPE[arr.dtype].name}{list(arr.shape)}>"
    if isinstance(value, tuple) and not value:
        return "()"
    return repr(value)


def _op_line(op, locations: bool) -> str:
    outs = ", ".join(o.op.name if i == 0 else f"{o.op.name}:{i}"
                     for i, o in enumerate(op.outputs))
    lhs = f"{outs} = " if op.outputs else ""
    attrs = [f"{k}={_attr_text(v)}" for k, v in op.attrs.items()
             if k not in op.op_def.type_attrs and not k.startswith("_")]
    args = [tensor_ref(t) for t in op.inputs] + [f"^{c.name}" for c in op.control_inputs]
    text = f"{lhs}{op.type}"
    if attrs:
        text += "[" + ", ".join(attrs) + "]"
    if args or not attrs:
        text += "(" + ", ".join(args) + ")"
    types = ", ".join(format_type(o) for o in op.outputs)
    if types:
        text = f"{text:<{_COLUMN}} : {types}"
    if locations and op.source is not None:
        text += f"  # {op.source.short()}"
    return text


def graph_text(graph: Graph, locations: bool = False, indent: int = 0) -> str:
    pad = "  " * indent
    lines = []
    header = f"{pad}graph {graph.name}"
    inputs = getattr(graph, "inputs", None)
    if inputs is not None:
        header += "(" + ", ".join(tensor_ref(t) for t in inputs) + ")"
    lines.append(header + ":")
    for op in graph.operations:
        lines.append(pad + "  " + _op_line(op, locations))
        for key, sub in op.subgraphs():
            lines.append(f"{pad}    {key}:")
            lines.append(graph_text(sub, locations, indent + 3))
    outputs = getattr(graph, "outputs", None)
    if outputs:
        lines.append(f"{pad}  return " + ", ".join(tensor_ref(t) for t in outputs))
    return "\n".join(lines)
