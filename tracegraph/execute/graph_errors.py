"""Runtime errors inside a graph name the op and the user's line that created it (R-4.6)."""

from __future__ import annotations

import numpy as np

from ..errors import InvalidArgumentError, OpError
from ..framework.eager import explain_kernel_error

__all__ = ["graph_error", "KERNEL_ERRORS"]

KERNEL_ERRORS = (OpError, ValueError, TypeError, IndexError, ArithmeticError,
                 np.exceptions.AxisError)


def graph_error(exc: BaseException, op, args=None) -> BaseException:
    """`exc` raised by `op`'s kernel, re-raised as TensorFlow's error with the op's location."""
    if getattr(exc, "_graph_node", None) is not None or not isinstance(exc, KERNEL_ERRORS):
        return exc
    if isinstance(exc, OpError):
        cls, message = type(exc), exc.message
    elif args is not None:
        explained = explain_kernel_error(op.op_def, args, op.kernel_attrs, exc)
        cls, message = InvalidArgumentError, explained.message.rsplit(" [Op:", 1)[0]
    else:
        cls, message = InvalidArgumentError, f"{type(exc).__name__}: {exc}"
    where = f" defined at {op.source}" if op.source is not None else ""
    error = cls(None, None, f"{message}\n\t [[node {op.name} ({op.type}){where}]]")
    error._graph_node = op.name
    error.op_name = op.name
    return error
