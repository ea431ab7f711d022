"""The fields of an extension type: read from its annotations, and each value checked and
converted to its declared type (TensorFlow's `extension_type_field`).

Supported annotations, as TensorFlow's: `int`, `float`, `str`, `bool`, `None`, `tf.Tensor`,
`tf.TensorShape`, `tf.DType`, extension types, other composite values (`tf.RaggedTensor`,
`tf.SparseTensor`, ...), `typing.Union`/`Optional`, `typing.Tuple[X, Y]`/`Tuple[X, ...]`
(`tuple[...]` too) and `typing.Mapping[K, V]` (stored as an immutable dict).
"""

from __future__ import annotations

import collections.abc
import inspect
import sys
import types
import typing

from .. import dtypes as d
from ..ops.registry import convert_to_tensor
from ..shapes import TensorShape
from .core_types import CompositeTensor
from .tensor import Tensor

__all__ = ["Field", "ImmutableDict", "fields_of", "convert_value", "holds_tensors",
           "check_annotation", "NO_DEFAULT"]

NO_DEFAULT = object()


class ImmutableDict(dict):
    """The value of a `Mapping` field: a dict that cannot change."""

    def _immutable(self, *args, **kwargs):
        raise TypeError("'ImmutableDict' object does not support item assignment")

    __setitem__ = __delitem__ = clear = pop = popitem = setdefault = update = _immutable

    def __repr__(self):
        return f"ImmutableDict({dict.__repr__(self)})"

    def __hash__(self):
        return hash(tuple(sorted(self.items(), key=repr)))

    def __reduce__(self):
        return ImmutableDict, (dict(self),)


class Field:
    """One declared field: its name, annotation and default."""

    __slots__ = ("name", "annotation", "default")

    def __init__(self, name, annotation, default=NO_DEFAULT):
        self.name, self.annotation, self.default = name, annotation, default

    def __repr__(self):
        return f"Field({self.name!r}, {self.annotation!r})"


def fields_of(cls) -> list[Field]:
    """The fields of an extension type class, base classes' first, in declaration order."""
    out: dict[str, Field] = {}
    for klass in reversed(cls.__mro__):
        own = inspect.get_annotations(klass) if klass is not object else {}
        for name, annotation in own.items():
            if name.startswith("__") or typing.get_origin(annotation) is typing.ClassVar:
                continue
            default = klass.__dict__.get(name, out[name].default if name in out else NO_DEFAULT)
            out[name] = Field(name, annotation, default)
    return list(out.values())


def resolve(annotation, cls):
    """A string annotation (a forward reference such as "Node") as the type it names."""
    if isinstance(annotation, typing.ForwardRef):
        annotation = annotation.__forward_arg__
    if isinstance(annotation, str):
        scope = dict(vars(sys.modules.get(cls.__module__, types.ModuleType("m"))))
        scope[cls.__name__] = cls
        try:
            return eval(annotation, scope)  # noqa: S307 - an annotation, as typing does
        except NameError:
            raise TypeError(f"Unable to resolve type annotation {annotation!r} of "
                            f"{cls.__name__}.") from None
    return annotation


def _type_name(value) -> str:
    return type(value).__name__


def _is_tensor_type(annotation) -> bool:
    return isinstance(annotation, type) and issubclass(annotation, Tensor)


def convert_value(value, annotation, path: str, cls):
    """`value` checked against `annotation` and converted (Tensors with convert_to_tensor,
    sequences to tuples, mappings to ImmutableDict); a TypeError names the field."""
    annotation = resolve(annotation, cls)
    origin = typing.get_origin(annotation)
    args = typing.get_args(annotation)
    if annotation is None or annotation is type(None):
        if value is not None:
            raise TypeError(f"{path}: expected None, got {_type_name(value)!r}")
        return None
    if origin is typing.Union or (sys.version_info >= (3, 10)
                                  and isinstance(annotation, types.UnionType)):
        return _convert_union(value, args, path, cls)
    if origin is tuple:
        return _convert_tuple(value, args, path, cls)
    if origin in (collections.abc.Mapping, dict, typing.Mapping):
        return _convert_mapping(value, args, path, cls)
    if _is_tensor_type(annotation):
        return _convert_tensor(value, path)
    if annotation is TensorShape:
        try:
            return value if isinstance(value, TensorShape) else TensorShape(value)
        except (TypeError, ValueError):
            raise TypeError(f"{path}: expected 'tf.TensorShape', got {_type_name(value)!r}") \
                from None
    if annotation is d.DType:
        try:
            return d.as_dtype(value)
        except (TypeError, ValueError):
            raise TypeError(f"{path}: expected 'tf.DType', got {_type_name(value)!r}") from None
    if annotation in (int, float, str, bool):
        return _convert_python(value, annotation, path)
    if isinstance(annotation, type):
        if isinstance(value, annotation):
            return value
        raise TypeError(f"{path}: expected {annotation.__name__!r}, got {_type_name(value)!r}")
    raise TypeError(f"In field {path.split('.')[-1]!r}: Unsupported type annotation "
                    f"{annotation!r}")


def _convert_tensor(value, path):
    if value is None:
        raise TypeError(f"{path}: expected a Tensor, got 'NoneType'")
    if isinstance(value, Tensor):
        return value
    try:
        return convert_to_tensor(value)
    except (TypeError, ValueError):
        raise TypeError(f"{path}: expected a Tensor, got {_type_name(value)!r}") from None


def _convert_python(value, annotation, path):
    if isinstance(value, annotation):
        return value
    raise TypeError(f"{path}: expected {annotation.__name__!r}, got {_type_name(value)!r}")


def _convert_union(value, args, path, cls):
    errors = []
    for option in args:
        try:
            return convert_value(value, option, path, cls)
        except TypeError as e:
            errors.append(str(e))
    names = ", ".join(getattr(resolve(a, cls), "__name__", repr(a)) for a in args)
    raise TypeError(f"{path}: expected one of ({names}), got {_type_name(value)!r}")


def _convert_tuple(value, args, path, cls):
    if not isinstance(value, (list, tuple)):
        raise TypeError(f"{path}: expected 'tuple', got {_type_name(value)!r}")
    if len(args) == 2 and args[1] is Ellipsis:
        return tuple(convert_value(v, args[0], f"{path}[{i}]", cls) for i, v in enumerate(value))
    if args and len(args) != len(value):
        raise TypeError(f"{path}: expected a tuple of length {len(args)}, got {len(value)}")
    if not args:
        return tuple(value)
    return tuple(convert_value(v, a, f"{path}[{i}]", cls)
                 for i, (v, a) in enumerate(zip(value, args)))


def _convert_mapping(value, args, path, cls):
    if not isinstance(value, collections.abc.Mapping):
        raise TypeError(f"{path}: expected mapping, got {_type_name(value)!r}")
    key_type, value_type = args if args else (typing.Any, typing.Any)
    out = {}
    for k, v in value.items():
        k = k if key_type is typing.Any else convert_value(k, key_type, f"{path}[{k!r}]", cls)
        out[k] = v if value_type is typing.Any else \
            convert_value(v, value_type, f"{path}[{k!r}]", cls)
    return ImmutableDict(out)


def _supported_class(annotation) -> bool:
    return annotation in (int, float, str, bool, type(None), TensorShape, d.DType) or (
        isinstance(annotation, type) and (issubclass(annotation, (Tensor, CompositeTensor))
                                          or hasattr(annotation, "_type_spec")
                                          or hasattr(annotation, "element_spec")))


def check_annotation(annotation, name: str) -> None:
    """TensorFlow's check, at class creation, that a field's annotation is supported (forward
    references by name are checked when first used)."""
    if annotation is None or isinstance(annotation, (str, typing.ForwardRef)):
        return
    origin, args = typing.get_origin(annotation), typing.get_args(annotation)
    if origin is typing.Union or (sys.version_info >= (3, 10)
                                  and isinstance(annotation, types.UnionType)):
        for a in args:
            check_annotation(a, name)
        return
    if origin is tuple or origin in (collections.abc.Mapping, typing.Mapping):
        for a in args:
            if a is not Ellipsis:
                check_annotation(a, name)
        return
    if origin is None and _supported_class(annotation):
        return
    if isinstance(annotation, type) and origin is None:
        text = repr(annotation.__name__)
    elif annotation is typing.Any:
        text = "'Any'"
    else:
        text = repr(annotation)
    raise TypeError(f"In field {name!r}: Unsupported type annotation {text}")


def holds_tensors(annotation, cls) -> bool:
    """Whether values of `annotation` can contain tensors (they are components, the rest is
    static and goes in the spec)."""
    annotation = resolve(annotation, cls)
    args = typing.get_args(annotation)
    if args:
        return any(holds_tensors(a, cls) for a in args if a is not Ellipsis)
    if not isinstance(annotation, type):
        return False
    if annotation in (int, float, str, bool, type(None), TensorShape, d.DType):
        return False
    return True
