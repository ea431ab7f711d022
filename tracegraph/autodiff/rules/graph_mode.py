"""Gradient rules of the records only TF1-style graphs use (ops/graph_mode.py)."""

from __future__ import annotations

from ..registry import defgrad


@defgrad("PlaceholderWithDefault")
def _placeholder_with_default_grad(op, g):   # to the default value, as TensorFlow's rule
    return g
