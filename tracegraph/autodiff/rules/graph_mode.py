"""Gradient rules of the records only TF1-style graphs use (ops/graph_mode.py):
PlaceholderWithDefault and Print pass the gradient to their input."""

from __future__ import annotations

from ..registry import defgrad


@defgrad("PlaceholderWithDefault")
def _placeholder_with_default_grad(op, g):   # to the default value, as TensorFlow's rule
    return g


@defgrad("Print")
def _print_grad(op, g):   # to the input it passes on; the printed data get none (TF's rule)
    return [g] + [None] * (len(op.inputs) - 1)
