"""The default graph and the switch between eager and graph execution, as TensorFlow 2.21 has
them for TF1 code.

`get_default_graph()` is the graph being built (`with g.as_default():`, a `tf.function`'s
graph), else a global graph. `disable_eager_execution()` makes that global graph the context
every thread starts in: from then on `tf.constant`, `tf.Variable` and every op build into it,
`tf.executing_eagerly()` is False, and a `tf.compat.v1.Session` runs what was built. As in
TensorFlow, it is meant for the start of a program: it does not change a thread already inside
a `with g.as_default():` block, and `enable_eager_execution()` refuses once the global graph
holds ops (`ValueError: tf.enable_eager_execution must be called at program startup.`).
"""

from __future__ import annotations

import threading

from .. import config as _config
from ..framework.contexts import default_context, init_scope_context
from ..framework.eager import EAGER
from ..graph.building import GraphContext
from ..graph.graph import Graph
from ..ops.registry import context_state, current_context


def set_default_context(ctx) -> None:
    """Makes `ctx` the context every thread starts in (None: the eager context), and this
    thread's current one unless it is inside another."""
    _config.set_graph_mode_context(ctx)
    if not context_state.stack:
        context_state.current = ctx if ctx is not None else EAGER

__all__ = ["get_default_graph", "reset_default_graph", "disable_eager_execution",
           "enable_eager_execution", "executing_eagerly_outside_functions",
           "eager_execution_disabled"]

_lock = threading.Lock()
_global_graph: Graph | None = None
_global_graph_used = False


def _global() -> Graph:
    global _global_graph
    with _lock:
        if _global_graph is None:
            _global_graph = Graph("default_graph")
        return _global_graph


def eager_execution_disabled() -> bool:
    return default_context() is not EAGER


def get_default_graph() -> Graph:
    """The graph ops are built into now: the innermost `as_default()` graph or function being
    traced, else the global default graph."""
    global _global_graph_used
    graph = getattr(current_context(), "graph", None)
    if graph is not None:
        return graph
    _global_graph_used = True
    return _global()


def reset_default_graph() -> None:
    """Replaces the global default graph with a new, empty one. Not inside a graph's
    `as_default()` block (nor a function being traced): TensorFlow's AssertionError."""
    global _global_graph, _global_graph_used
    ctx = current_context()
    if getattr(ctx, "graph", None) is not None and ctx is not default_context():
        raise AssertionError("Do not use tf.reset_default_graph() to clear nested graphs. If "
                             "you need a cleared graph, exit the nesting and create a new "
                             "graph.")
    with _lock:
        _global_graph = Graph("default_graph")
        _global_graph_used = eager_execution_disabled()   # TF: a global graph exists now
    if eager_execution_disabled():
        set_default_context(GraphContext(_global_graph))


def disable_eager_execution() -> None:
    """Builds every op into the global default graph from now on (TF1's graph mode)."""
    if not eager_execution_disabled():
        set_default_context(GraphContext(_global()))


def enable_eager_execution(config=None, device_policy=None, execution_mode=None) -> None:
    """Runs ops eagerly again: only while the global default graph has not been used."""
    if not eager_execution_disabled():
        return
    graph = _global()
    if _global_graph_used or graph.operations:
        raise ValueError("tf.enable_eager_execution must be called at program startup.")
    set_default_context(None)


def executing_eagerly_outside_functions() -> bool:
    """Whether the code outside every function being traced runs eagerly."""
    return init_scope_context().executing_eagerly
