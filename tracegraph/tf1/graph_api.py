"""TF1's graph-building names: placeholders, collections (`GraphKeys`, `get_collection`,
`global_variables`, ...), the variable initializers and `group`.

Executing eagerly, TensorFlow 2 keeps no collections: the variable lists are empty and the
initializers are no-ops (None), as here.
"""

from __future__ import annotations

from .. import dtypes as d
from ..framework.contexts import init_scope_context
from ..framework.graph_variables import GLOBAL_VARIABLES, LOCAL_VARIABLES, TRAINABLE_VARIABLES
from ..library.logging import no_op
from ..ops.array import placeholder_op
from ..ops.graph_mode import placeholder_with_default_op, var_is_initialized_op
from ..ops.registry import bind, convert_to_tensor, current_context
from ..shapes import as_shape_tuple, format_shape, shapes_compatible
from .variable_scope import REGULARIZATION_LOSSES

__all__ = ["GraphKeys", "placeholder", "placeholder_with_default", "get_collection",
           "get_collection_ref", "add_to_collection", "add_to_collections",
           "global_variables", "local_variables", "trainable_variables", "model_variables",
           "variables_initializer", "global_variables_initializer",
           "local_variables_initializer", "group", "is_variable_initialized"]


class GraphKeys:
    """The standard collection names (`tf.compat.v1.GraphKeys`)."""

    GLOBAL_VARIABLES = GLOBAL_VARIABLES
    VARIABLES = GLOBAL_VARIABLES
    LOCAL_VARIABLES = LOCAL_VARIABLES
    TRAINABLE_VARIABLES = TRAINABLE_VARIABLES
    MODEL_VARIABLES = "model_variables"
    METRIC_VARIABLES = "metric_variables"
    REGULARIZATION_LOSSES = REGULARIZATION_LOSSES
    LOSSES = "losses"
    UPDATE_OPS = "update_ops"
    GLOBAL_STEP = "global_step"
    SUMMARIES = "summaries"
    TRAIN_OP = "train_op"
    INIT_OP = "init_op"
    LOCAL_INIT_OP = "local_init_op"
    READY_OP = "ready_op"
    SAVERS = "savers"
    ACTIVATIONS = "activations"
    WEIGHTS = "weights"
    BIASES = "biases"
    QUEUE_RUNNERS = "queue_runners"
    TABLE_INITIALIZERS = "table_initializer"
    ASSET_FILEPATHS = "asset_filepaths"
    MOVING_AVERAGE_VARIABLES = "moving_average_variables"
    COND_CONTEXT = "cond_context"
    WHILE_CONTEXT = "while_context"


def _graph():
    """The TF1 graph being built (None when executing eagerly or inside a function)."""
    return getattr(init_scope_context(), "graph", None)


# ---- placeholders ------------------------------------------------------------------------------

def placeholder(dtype, shape=None, name=None):
    """A tensor whose value each `Session.run` feeds (`feed_dict={x: value}`)."""
    ctx = current_context()
    if ctx.executing_eagerly:
        raise RuntimeError("tf.placeholder() is not compatible with eager execution.")
    dims = as_shape_tuple(shape)
    return bind(placeholder_op, (), {"dtype": d.as_dtype(dtype), "shape": dims},
                name or placeholder_op.tf_type)


def placeholder_with_default(input, shape, name=None):  # noqa: A002 - TensorFlow's name
    """`input`'s value unless a run feeds another (of `shape`, which may be partly unknown)."""
    value = convert_to_tensor(input)
    dims = as_shape_tuple(shape)
    if not shapes_compatible(dims, as_shape_tuple(value.shape)):
        raise ValueError(f"Shapes {format_shape(as_shape_tuple(value.shape))} and "
                         f"{format_shape(dims)} "
                         "are incompatible")
    return bind(placeholder_with_default_op, (value,), {"shape": dims},
                name or placeholder_with_default_op.tf_type)


# ---- collections --------------------------------------------------------------------------------

def get_collection(key, scope=None) -> list:
    graph = _graph()
    return graph.get_collection(key, scope) if graph is not None else []


def get_collection_ref(key) -> list:
    graph = _graph()
    return graph.get_collection_ref(key) if graph is not None else []


def add_to_collection(name, value) -> None:
    graph = _graph()
    if graph is not None:
        graph.add_to_collection(name, value)


def add_to_collections(names, value) -> None:
    graph = _graph()
    if graph is not None:
        graph.add_to_collections(names, value)


def global_variables(scope=None) -> list:
    return get_collection(GLOBAL_VARIABLES, scope)


def local_variables(scope=None) -> list:
    return get_collection(LOCAL_VARIABLES, scope)


def trainable_variables(scope=None) -> list:
    return get_collection(TRAINABLE_VARIABLES, scope)


def model_variables(scope=None) -> list:
    return get_collection(GraphKeys.MODEL_VARIABLES, scope)


# ---- initializers ------------------------------------------------------------------------------

def group(*inputs, name=None):
    """An op that runs after all of `inputs` (tensors or ops); eagerly nothing (None)."""
    graph = getattr(current_context(), "graph", None)
    if graph is None:
        return None
    ops = [getattr(x, "op", x) for x in inputs if x is not None]
    with graph.control_dependencies(ops):
        return no_op(name=name)


def variables_initializer(var_list, name="init"):
    """An op that runs the initializers of `var_list` (a no-op, None, eagerly)."""
    if _graph() is None:
        return None
    return group(*[v.initializer for v in var_list], name=name)


def global_variables_initializer():
    """`sess.run(tf.compat.v1.global_variables_initializer())` initializes every variable of
    the graph."""
    return variables_initializer(global_variables(), name="init")


def local_variables_initializer():
    return variables_initializer(local_variables(), name="init")


def is_variable_initialized(variable):
    """A boolean tensor: whether `variable` holds a value (in the Session that runs it)."""
    return bind(var_is_initialized_op, (variable.handle,))
