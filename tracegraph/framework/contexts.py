"""Which context code runs in beyond the current one: the default context every thread starts
in, the one `tf.init_scope` lifts into (the eager context, or a TF1 graph), and whether `==`
on tensors compares values there (TF2) or identity (TF1)."""

from __future__ import annotations

from .. import config, wiring
from ..ops.registry import context_state

__all__ = ["default_context", "init_scope_context", "compares_values"]


def default_context():
    """The context every thread starts in: the eager context, or the default graph's once eager
    execution is disabled (`tf.compat.v1.disable_eager_execution`)."""
    return config.graph_mode_context() or wiring.eager_context


def init_scope_context():
    """The context `tf.init_scope` lifts into: the innermost one not building a function (the
    eager context, or a TF1 graph: `tf.Graph().as_default()`, eager execution disabled)."""
    for ctx in (context_state.current, *reversed(context_state.stack), default_context()):
        if not getattr(getattr(ctx, "graph", None), "building_function", False):
            return ctx


def compares_values() -> bool:
    """Whether `==` compares values (TF2) rather than object identity (TF1): unless tensor
    equality is disabled (`tf.compat.v1.disable_tensor_equality`) or the code outside any
    function being traced builds a TF1 graph, as TensorFlow decides."""
    if not config.tensor_equality:
        return False
    return context_state.current.executing_eagerly or init_scope_context().executing_eagerly
