"""A TensorFlow name tracegraph lacks: `tf.X` (or `tf.math.X`, ...) raises an AttributeError
that says so, as `tf.keras.layers` does, instead of Python's bare "module has no attribute".
It stays an AttributeError, so `hasattr(tf, name)` and `getattr(tf, name, default)` work, and
dunder lookups (`__wrapped__`, `__path__`) keep Python's plain message. `tracegraph/__init__.py`
installs it on the TensorFlow-shaped namespaces."""

from __future__ import annotations

import types

__all__ = ["missing_name_hook", "install_missing_names"]


def missing_name_hook(namespace: str, module_name: str):
    """A module `__getattr__` (PEP 562) for the namespace users know as `namespace`."""
    def __getattr__(name: str):  # noqa: N807 - the module hook's own name
        plain = f"module {module_name!r} has no attribute {name!r}"
        if name.startswith("__") and name.endswith("__"):
            raise AttributeError(plain)
        raise AttributeError(
            f"{plain}: tracegraph does not have {namespace}.{name} yet. It implements the "
            f"TensorFlow 2.21 names that dir({namespace}) lists; the README says what exists "
            "and what does not yet.")
    return __getattr__


def install_missing_names(namespaces: dict[str, types.ModuleType]) -> None:
    """Gives each namespace module (label -> module) the hook, unless it has its own."""
    for label, module in namespaces.items():
        if "__getattr__" not in vars(module):
            module.__getattr__ = missing_name_hook(label, module.__name__)
