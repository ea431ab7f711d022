"""Optional extras: imported only when a feature needs them, with a message naming the extra."""

from __future__ import annotations

import importlib

__all__ = ["require"]


def require(module: str, extra: str, feature: str):
    """Imports `module`, or raises ImportError telling the user which extra to install."""
    try:
        return importlib.import_module(module)
    except ImportError as e:
        raise ImportError(
            f"{feature} needs the '{module.split('.')[0]}' package, which is not installed "
            f"({e}). Install it with: pip install 'tracegraph[{extra}]'") from None
