"""Extension types in the native format: their specs (function signatures) and their values
(function results), saved under the type's `__name__` and found again by it on load.

- `{"extension_type_spec": {"name", "fields": [[field, value]...]}}`: a spec, its fields
  encoded as values (TensorSpecs, Python values, tuples, mappings, nested specs);
- `{"extension_value": {"name", "static": [[field, value]...], "dynamic": [[field, s]...]}}`: a
  result, its tensor fields as structures of graph outputs;
- `{"immutable_dict": [[key, value]...]}` and `{"tensor_shape": dims}` for field values.

Loading needs the class imported (registered by its `__name__`); otherwise the error names it.
"""

from __future__ import annotations

from ...framework.extension_fields import ImmutableDict
from ...framework.extension_type import ExtensionType, lookup, registered_name
from ...framework.extension_type_spec import ExtensionTypeSpec, static_names
from ...shapes import TensorShape

__all__ = ["TAGS", "is_extension", "encode", "encode_structure", "decode", "NotSaveableError"]


class NotSaveableError(ValueError):
    """An extension type value that cannot be saved (value_codec reports it as unsaveable)."""

TAGS = ("extension_type_spec", "extension_value", "immutable_dict", "tensor_shape")


def is_extension(v) -> bool:
    return isinstance(v, (ExtensionTypeSpec, ExtensionType, ImmutableDict, TensorShape))


def _name(cls) -> str:
    name = registered_name(cls)
    if name is None:
        raise NotSaveableError(
            f"extension type {cls.__name__} has no `__name__` to be saved under: declare one in "
            f"the class (`__name__ = 'my_package.{cls.__name__}'`)")
    return name


def encode(enc, v, depth: int):
    """A spec, an immutable mapping or a shape (values inside saved signatures)."""
    if isinstance(v, TensorShape):
        return {"tensor_shape": None if v.rank is None else
                [None if x is None else int(x) for x in v.as_list()]}
    if isinstance(v, ImmutableDict):
        return {"immutable_dict": [[enc.value(k, depth + 1), enc.value(x, depth + 1)]
                                   for k, x in v.items()]}
    if isinstance(v, ExtensionTypeSpec):
        return {"extension_type_spec": {
            "name": _name(v.value_type),
            "fields": [[n, enc.value(x, depth + 1)] for n, x in v.field_values().items()]}}
    raise NotSaveableError(f"a value of type {type(v).__name__} cannot be saved")


def encode_structure(value, static_value, structure) -> dict:
    """An extension type result: Python fields by `static_value`, tensor fields by
    `structure` (the caller's encoder of structures of graph outputs)."""
    cls = type(value)
    static = static_names(cls)
    return {"extension_value": {
        "name": _name(cls),
        "static": [[f.name, static_value(getattr(value, f.name))] for f in cls._tf_fields
                   if f.name in static],
        "dynamic": [[f.name, structure(getattr(value, f.name))] for f in cls._tf_fields
                    if f.name not in static]}}


def _fields(dec, payload, where, depth) -> dict:
    out = {}
    for i, pair in enumerate(dec.list(payload, where, 256)):
        if not isinstance(pair, list) or len(pair) != 2 or not isinstance(pair[0], str):
            dec.fail(f"{where}[{i}]", "expected a [field, value] pair")
        out[pair[0]] = dec.value(pair[1], f"{where}[{i}][1]", depth + 1)
    return out


def _class(dec, name, where):
    cls = lookup(name) if isinstance(name, str) else None
    if cls is None:
        dec.fail(where, f"extension type {name!r:.80} is not defined: import the module that "
                        "defines it before loading")
    return cls


def decode(dec, tag: str, payload, where: str, depth: int):
    if tag == "tensor_shape":
        return TensorShape(None if payload is None else dec.shape(payload, where))
    if tag == "immutable_dict":
        pairs = dec.list(payload, where)
        return ImmutableDict({dec.value(p[0], f"{where}[{i}][0]", depth + 1):
                              dec.value(p[1], f"{where}[{i}][1]", depth + 1)
                              for i, p in enumerate(pairs) if isinstance(p, list) and len(p) == 2})
    dec.obj(payload, where, ("name", "fields") if tag == "extension_type_spec"
            else ("name", "static", "dynamic"))
    cls = _class(dec, payload["name"], f"{where}.name")
    names = {f.name for f in cls._tf_fields}
    if tag == "extension_type_spec":
        fields = _fields(dec, payload["fields"], f"{where}.fields", depth)
        if set(fields) != names:
            dec.fail(where, f"fields {sorted(fields)} do not match {cls.__name__}'s")
        return cls.Spec.from_fields(fields)
    fields = {**_fields(dec, payload["static"], f"{where}.static", depth),
              **_fields(dec, payload["dynamic"], f"{where}.dynamic", depth)}
    if set(fields) != names:
        dec.fail(where, f"fields {sorted(fields)} do not match {cls.__name__}'s")
    return cls.from_fields(fields)
