"""The registry of TypeSpec classes by name (`tensorflow.python.framework.type_spec_registry`):
saved structures name a spec class ("tf.TensorSpec") and find it again by that name."""

from __future__ import annotations

from ..shapes import TensorSpec, TypeSpec

__all__ = ["register", "get_name", "lookup"]

_NAME_TO_CLASS: dict = {}
_CLASS_TO_NAME: dict = {}


def register(name: str):
    """Class decorator: registers a TypeSpec subclass under `name` (each name and class once)."""
    def decorator(cls):
        if not (isinstance(cls, type) and issubclass(cls, TypeSpec)):
            raise TypeError("Expected cls to be a TypeSpec subclass.")
        if name in _NAME_TO_CLASS:
            raise ValueError(f"Name {name} has already been registered for class "
                             f"{_NAME_TO_CLASS[name].__module__}.{_NAME_TO_CLASS[name].__name__}.")
        if cls in _CLASS_TO_NAME:
            raise ValueError(f"Class {cls.__module__}.{cls.__name__} has already been "
                             f"registered with name {_CLASS_TO_NAME[cls]}.")
        _NAME_TO_CLASS[name] = cls
        _CLASS_TO_NAME[cls] = name
        return cls
    return decorator


def get_name(cls) -> str:
    if cls not in _CLASS_TO_NAME:
        raise ValueError(f"TypeSpec {cls.__module__}.{cls.__name__} has not been registered.")
    return _CLASS_TO_NAME[cls]


def lookup(name: str):
    if name not in _NAME_TO_CLASS:
        raise ValueError(f"No TypeSpec has been registered with name {name!r}")
    return _NAME_TO_CLASS[name]


register("tf.TensorSpec")(TensorSpec)
