"""What the code generator writes for values and names: scalar constants as Python literals,
kernel attrs compared with the kernel's defaults, identifiers made from op names."""

from __future__ import annotations

import functools
import inspect
import keyword
import math
import re

import numpy as np

from .. import dtypes as d

__all__ = ["BINARY_TEMPLATE", "kernel_defaults", "is_default", "scalar_literal", "identifier"]

BINARY_TEMPLATE = re.compile(r"\{0\} \S+ \{1\}")
_INLINE_KINDS = "biuf"   # bool, int, uint, float: Python scalars NumPy treats as weak (NEP 50)


@functools.cache  # kernels are the records' module-level functions: a fixed set
def kernel_defaults(kernel) -> dict:
    """A kernel's keyword defaults (attrs equal to them are left out of the call)."""
    try:
        params = inspect.signature(kernel).parameters.values()
    except (TypeError, ValueError):
        return {}
    return {p.name: p.default for p in params if p.default is not inspect.Parameter.empty}


def is_default(value, default) -> bool:
    if type(value) is not type(default):
        return False
    if isinstance(value, (bool, int, str, tuple, d.DType)) or value is None:
        return bool(value == default)
    if isinstance(value, float):
        return value == default and math.copysign(1, value) == math.copysign(1, default)
    return False


def scalar_literal(value) -> str | None:
    """Python source for a scalar constant that can be written in place, or None."""
    if not isinstance(value, (np.ndarray, np.generic)) or np.ndim(value) != 0 or \
            np.dtype(value.dtype).kind not in _INLINE_KINDS:
        return None
    item = value.item()
    if isinstance(item, float) and not math.isfinite(item):
        return None
    text = repr(item)
    return f"({text})" if text.startswith("-") else text


def identifier(name: str, taken: set) -> str:
    base = re.sub(r"\W", "_", name) or "arg"
    if base[0].isdigit() or keyword.iskeyword(base):
        base = f"_{base}"
    candidate, n = base, 1
    while candidate in taken:
        candidate = f"{base}_{n}"
        n += 1
    taken.add(candidate)
    return candidate
