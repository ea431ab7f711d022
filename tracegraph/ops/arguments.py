"""Checks of Python-level arguments (an `axis`, a count) before they reach an op, so junk is
rejected with TensorFlow's error type and a message about the argument, never Python's or
NumPy's own text (`invalid literal for int()`, `'<' not supported between ...`)."""

from __future__ import annotations

__all__ = ["int_arg"]


def int_arg(value, name: str) -> int:
    """`value` as a Python int; a str, float, None or other non-integer is a TypeError.

    Integer tensors with a known value convert through `__index__`, as they do in TensorFlow.
    """
    if isinstance(value, (bool, str, bytes)) or not hasattr(value, "__index__"):
        raise TypeError(f"Expected int for argument '{name}' not {value!r}.")
    return value.__index__()
