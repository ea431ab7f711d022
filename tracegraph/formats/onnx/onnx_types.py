"""ONNX element types, tensors and the schema check behind exact (one op, same inputs)
lowerings; the `onnx` extra is imported only here and only when used."""

from __future__ import annotations

import numpy as np

from ... import dtypes as d
from ...optional_extras import require
from .export_error import lowering_failure
from .lowering_table import ONNX_CAST

__all__ = ["onnx_module", "elem_type", "tensor", "one_to_one"]


def onnx_module():
    return require("onnx", "onnx", "ONNX export")


def elem_type(dtype: d.DType) -> int:
    onnx = onnx_module()
    if dtype is d.string:
        return onnx.TensorProto.STRING
    if dtype is d.bfloat16:
        return onnx.TensorProto.BFLOAT16
    return onnx.helper.np_dtype_to_tensor_dtype(np.dtype(dtype.numpy_dtype))


def tensor(arr, name):
    onnx = onnx_module()
    arr = np.asarray(arr)
    if arr.dtype == object:
        values = [v if isinstance(v, bytes) else str(v).encode("utf-8") for v in arr.reshape(-1)]
        return onnx.helper.make_tensor(name, onnx.TensorProto.STRING, arr.shape, values)
    return onnx.numpy_helper.from_array(arr, name)


def _allowed_types(op_type: str, opset: int) -> list[set] | None:
    """Per input of an ONNX op, the element types its schema allows (None: unknown op)."""
    onnx = onnx_module()
    try:
        schema = onnx.defs.get_schema(op_type, opset, "")
    except onnx.defs.SchemaError:
        return None
    constraints = {c.type_param_str: set(c.allowed_type_strs) for c in schema.type_constraints}
    return [constraints.get(i.type_str, {i.type_str}) for i in schema.inputs]


def _type_str(dtype: d.DType) -> str:
    return f"tensor({onnx_module().TensorProto.DataType.Name(elem_type(dtype)).lower()})"


def one_to_one(builder, op_type, op, args):
    """One ONNX op on the same inputs. ONNX never promotes: when the schema does not take an
    input's dtype (Reciprocal of int32), the op runs in float64 (or float32) between Casts."""
    n = len(op.outputs) or 1
    allowed = _allowed_types(op_type, builder.exporter.opset)
    dtypes = [t.dtype for t in op.inputs]
    if allowed is None or all(_type_str(t) in a for t, a in zip(dtypes, allowed)):
        return builder.node(op_type, args, n, {}, op.name)
    via = next((t for t in (d.float64, d.float32) if all(_type_str(t) in a for a in allowed)),
               None)
    if via is None:
        raise lowering_failure(op, f"ONNX's {op_type} takes no "
                               f"{', '.join(t.name for t in dtypes)} and does not lower")
    cast = [builder.node(ONNX_CAST, [a], 1, {"to": elem_type(via)}, op.name) for a in args]
    outs = builder.node(op_type, cast, n, {}, op.name)
    outs = [outs] if n == 1 else outs
    back = [o if t.dtype is d.bool else builder.node(ONNX_CAST, [o], 1, {"to": elem_type(t.dtype)},
                                                     op.name)
            for o, t in zip(outs, op.outputs)]
    return back[0] if n == 1 else back
