"""Which context code runs in beyond the current one: the default context every thread starts
in, and the one `tf.init_scope` lifts into (the eager context, or a TF1 graph)."""

from __future__ import annotations

from ..ops.registry import _ContextState, _state

__all__ = ["default_context", "init_scope_context"]


def default_context():
    """The context every thread starts in: the eager context, or the default graph's once eager
    execution is disabled (`tf.compat.v1.disable_eager_execution`)."""
    return _ContextState.default


def init_scope_context():
    """The context `tf.init_scope` lifts into: the innermost one not building a function (the
    eager context, or a TF1 graph: `tf.Graph().as_default()`, eager execution disabled)."""
    for ctx in (_state.current, *reversed(_state.stack), _ContextState.default):
        if not getattr(getattr(ctx, "graph", None), "building_function", False):
            return ctx
