"""`tensorflow.python.eager.context`: the eager runtime's handle. tracegraph runs every eager
op to completion in the calling thread, so there is nothing to wait for (`async_wait`) and no
kernel cache to clear; the functions exist so code written for TensorFlow's runtime runs."""

from __future__ import annotations

from ....api.internal import eager_context as _eager_context
from ....ops.registry import current_context

__all__ = ["context", "async_wait", "executing_eagerly", "eager_mode"]

eager_mode = _eager_context.eager_mode


class Context:
    """What `context()` returns: the questions Keras asks the eager runtime."""

    def executing_eagerly(self) -> bool:
        return current_context().executing_eagerly

    def clear_kernel_cache(self) -> None:
        """TensorFlow drops its cached kernels; tracegraph keeps none."""

    def async_wait(self) -> None:
        """Ops run synchronously here: nothing is pending."""


_CONTEXT = Context()


def context() -> Context:
    return _CONTEXT


def async_wait() -> None:
    _CONTEXT.async_wait()


def executing_eagerly() -> bool:
    return _CONTEXT.executing_eagerly()


def _reset_context() -> None:
    """Keras's tests reset the runtime; tracegraph's has no state to reset."""
