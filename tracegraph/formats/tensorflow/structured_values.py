"""TensorFlow's `StructuredValue` protos (the saved form of function arguments, signatures and
outputs) as Python values: tuples, lists, dicts, named tuples (as tuples), `None`, numbers,
strings and `tf.TensorSpec`s. Composite specs (ragged, sparse, dataset specs) are not
supported and say so. The depth and size of a structure are bounded.
"""

from __future__ import annotations

from ...shapes import TensorSpec
from .attr_values import dtype_value, shape_value
from .format_errors import invalid

__all__ = ["structured_value", "full_arg_spec", "MAX_DEPTH"]

MAX_DEPTH = 64
MAX_ITEMS = 100_000


def structured_value(proto, file: str, where: str, depth: int = 0):
    if depth > MAX_DEPTH:
        raise invalid(file, where, f"structure nested deeper than {MAX_DEPTH}")
    kind = proto.WhichOneof("kind")
    if kind in (None, "none_value"):
        return None
    if kind in ("float64_value", "int64_value", "string_value", "bool_value"):
        return getattr(proto, kind)
    if kind == "tensor_spec_value":
        spec = proto.tensor_spec_value
        dtype = dtype_value(spec.dtype, file, f"{where}.dtype")
        return TensorSpec(shape_value(spec.shape, file, f"{where}.shape"), dtype,
                          spec.name or None)
    if kind == "bounded_tensor_spec_value":
        spec = proto.bounded_tensor_spec_value
        return TensorSpec(shape_value(spec.shape, file, f"{where}.shape"),
                          dtype_value(spec.dtype, file, f"{where}.dtype"), spec.name or None)
    if kind == "tensor_dtype_value":
        return dtype_value(proto.tensor_dtype_value, file, where)
    if kind == "tensor_shape_value":
        return shape_value(proto.tensor_shape_value, file, where)
    if kind in ("list_value", "tuple_value"):
        items = getattr(proto, kind).values
        _check_size(items, file, where)
        values = [structured_value(v, file, f"{where}[{i}]", depth + 1)
                  for i, v in enumerate(items)]
        return values if kind == "list_value" else tuple(values)
    if kind == "dict_value":
        fields = proto.dict_value.fields
        _check_size(fields, file, where)
        return {key: structured_value(fields[key], file, f"{where}[{key!r:.40}]", depth + 1)
                for key in fields}
    if kind == "named_tuple_value":
        items = proto.named_tuple_value.values
        _check_size(items, file, where)
        return tuple(structured_value(pair.value, file, f"{where}.{pair.key[:40]}", depth + 1)
                     for pair in items)
    raise invalid(file, where, f"a saved {kind.replace('_value', '')} cannot be loaded by "
                  "tracegraph (only tensors, nested lists, tuples, dicts and Python scalars)")


def _check_size(items, file, where) -> None:
    if len(items) > MAX_ITEMS:
        raise invalid(file, where, f"{len(items)} items")


def full_arg_spec(proto, file: str, where: str) -> dict:
    """A saved `FullArgSpec` (a named tuple) as a dict of its fields."""
    if proto.WhichOneof("kind") != "named_tuple_value":
        return {}
    out = {}
    for pair in proto.named_tuple_value.values:
        out[pair.key] = structured_value(pair.value, file, f"{where}.{pair.key[:40]}")
    return out
