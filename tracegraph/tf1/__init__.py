"""TF1 compatibility (`tf.compat.v1`): graphs built with `tf.Graph().as_default()` (or with eager
execution disabled), run by `Session`s that keep their Variables; placeholders, variable scopes
and `get_variable`, collections and initializers, TF1's optimizers, `wrap_function`.

Everything runs on tracegraph's own graph IR and executors: a Session's run is the pruned
fan-in of its fetches, copied into a function graph that the optimizer and the code generator
(or the interpreter) run like a `tf.function`'s.
"""

from .datasets import DatasetV1, Iterator, make_initializable_iterator, make_one_shot_iterator
from .default_graph import (
    disable_eager_execution,
    enable_eager_execution,
    executing_eagerly_outside_functions,
    get_default_graph,
    reset_default_graph,
)
from .fetches import SparseTensorValue
from .graph_api import (
    GraphKeys,
    add_to_collection,
    add_to_collections,
    get_collection,
    get_collection_ref,
    global_variables,
    global_variables_initializer,
    group,
    is_variable_initialized,
    local_variables,
    local_variables_initializer,
    model_variables,
    placeholder,
    placeholder_with_default,
    trainable_variables,
    variables_initializer,
)
from .session import InteractiveSession, Session, get_default_session
from .variable_scope import (
    AUTO_REUSE,
    VariableScope,
    get_variable,
    get_variable_scope,
    variable_scope,
)
from .wrap_function import WrappedFunction, wrap_function

__all__ = [
    "disable_eager_execution", "enable_eager_execution", "executing_eagerly_outside_functions",
    "get_default_graph", "reset_default_graph", "SparseTensorValue", "GraphKeys",
    "add_to_collection", "add_to_collections", "get_collection", "get_collection_ref",
    "global_variables", "global_variables_initializer", "group", "is_variable_initialized",
    "local_variables", "local_variables_initializer", "model_variables", "placeholder",
    "placeholder_with_default", "trainable_variables", "variables_initializer",
    "InteractiveSession", "Session", "get_default_session", "AUTO_REUSE", "VariableScope",
    "get_variable", "get_variable_scope", "variable_scope", "DatasetV1", "Iterator",
    "make_initializable_iterator", "make_one_shot_iterator", "WrappedFunction",
    "wrap_function",
]
