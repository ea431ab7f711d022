"""Gradient rules of the Variable records: a read passes its gradient to the Variable."""

from __future__ import annotations

from ..registry import defgrad


@defgrad("ReadVariableOp")
def _read_grad(op, g):                       # to the Variable read
    return g
