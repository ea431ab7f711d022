"""`tf.compat.v1.variable_scope` and `get_variable`: TF1's variables shared by name.

A variable scope prefixes the names of the variables `get_variable` makes (`layer1/w`) and
opens a name scope for the ops inside (`layer1/`, `layer1_1/` the second time). In a TF1 graph
the graph keeps a store of the variables `get_variable` made, by full name: `reuse=True` finds
one (and it must exist), `reuse=tf.compat.v1.AUTO_REUSE` finds or makes it, the default makes
it (and it must not exist yet). Executing eagerly there is no store, as in TensorFlow 2:
every call makes a new Variable.
"""

from __future__ import annotations

import contextlib
import enum
import threading

from .. import dtypes as d
from ..framework.contexts import init_scope_context
from ..framework.graph_variables import GLOBAL_VARIABLES, TRAINABLE_VARIABLES, GraphVariable
from ..framework.variables import Variable
from ..ops.registry import context_scope, current_context
from ..shapes import TensorShape, as_shape_tuple, format_shape
from .initializers import default_initializer

__all__ = ["AUTO_REUSE", "VariableScope", "variable_scope", "get_variable",
           "get_variable_scope", "REGULARIZATION_LOSSES"]

REGULARIZATION_LOSSES = "regularization_losses"


class _ReuseMode(enum.Enum):
    AUTO_REUSE = 1


AUTO_REUSE = _ReuseMode.AUTO_REUSE

_STORE = ("__variable_store",)    # graph collections holding the store, as TensorFlow keeps it


class VariableScope:
    """A variable scope's name and defaults (reuse, initializer, regularizer, dtype)."""

    def __init__(self, reuse, name="", initializer=None, regularizer=None, caching_device=None,
                 partitioner=None, custom_getter=None, name_scope="", dtype=d.float32,
                 use_resource=None, constraint=None):
        self._name = name
        self._reuse = reuse
        self._initializer = initializer
        self._regularizer = regularizer
        self._dtype = d.as_dtype(dtype)
        self._name_scope = name_scope
        self._constraint = constraint
        self._custom_getter = custom_getter

    @property
    def name(self) -> str:
        return self._name

    @property
    def original_name_scope(self) -> str:
        return self._name_scope

    @property
    def reuse(self):
        return self._reuse

    @property
    def initializer(self):
        return self._initializer

    @property
    def regularizer(self):
        return self._regularizer

    @property
    def dtype(self):
        return self._dtype

    @property
    def constraint(self):
        return self._constraint

    def reuse_variables(self) -> None:
        """From now on `get_variable` in this scope finds existing variables."""
        self._reuse = True

    def set_initializer(self, initializer) -> None:
        self._initializer = initializer

    def set_regularizer(self, regularizer) -> None:
        self._regularizer = regularizer

    def set_dtype(self, dtype) -> None:
        self._dtype = d.as_dtype(dtype)

    def get_variable(self, var_store, name, shape=None, dtype=None, initializer=None,
                     regularizer=None, reuse=None, trainable=None, collections=None, **kwargs):
        return get_variable(name, shape, dtype, initializer, regularizer, trainable,
                            collections, **kwargs)

    def __repr__(self):
        return f"<tf.compat.v1.VariableScope name={self._name!r} reuse={self._reuse}>"


class _Scopes(threading.local):
    def __init__(self):
        self.stack: list[tuple[object, VariableScope]] = []   # (graph or None, scope)


_scopes = _Scopes()


def _graph():
    return getattr(init_scope_context(), "graph", None)


def get_variable_scope() -> VariableScope:
    """The innermost variable scope of the graph being built (the root scope if none)."""
    graph = _graph()
    for owner, scope in reversed(_scopes.stack):
        if owner is graph:
            return scope
    return VariableScope(False, dtype=d.float32)


def _scope_counts(graph) -> dict:
    """How many times each variable scope name was opened in `graph` (for `default_name`)."""
    found = graph.get_collection_ref(("__varscope_counts",))
    if not found:
        found.append({})
    return found[0]


@contextlib.contextmanager
def variable_scope(name_or_scope=None, default_name=None, values=None, initializer=None,
                   regularizer=None, caching_device=None, partitioner=None, custom_getter=None,
                   reuse=None, dtype=None, use_resource=None, constraint=None,
                   auxiliary_name_scope=True):
    """`with tf.compat.v1.variable_scope("layer1", reuse=...) as scope:`."""
    if name_or_scope is None and default_name is None:
        raise TypeError("If default_name is None then name_or_scope is required")
    graph = _graph()
    counts = _scope_counts(graph) if graph is not None else {}
    parent = get_variable_scope()
    if isinstance(name_or_scope, VariableScope):
        base, full = name_or_scope, name_or_scope.name
        name_scope = full.split("/")[-1]   # a new name scope, as TensorFlow opens
        reuse = reuse or name_or_scope.reuse
    else:
        base = parent
        prefix = f"{parent.name}/" if parent.name else ""
        if name_or_scope is not None:
            full = f"{prefix}{name_or_scope}"
        else:   # the first free `default_name`, `default_name_1`, ... in this graph
            full, n = f"{prefix}{default_name}", 0
            while counts.get(full):
                n += 1
                full = f"{prefix}{default_name}_{n}"
        name_scope = full[len(prefix):]
        reuse = reuse or parent.reuse
    counts[full] = counts.get(full, 0) + 1
    scope = VariableScope(
        reuse, full, initializer if initializer is not None else base.initializer,
        regularizer if regularizer is not None else base.regularizer,
        dtype=dtype if dtype is not None else base.dtype,
        constraint=constraint if constraint is not None else base.constraint,
        custom_getter=custom_getter)
    with contextlib.ExitStack() as stack:
        ctx_graph = getattr(current_context(), "graph", None)
        if auxiliary_name_scope and ctx_graph is not None:
            scope._name_scope = stack.enter_context(ctx_graph.name_scope(name_scope))
        else:
            scope._name_scope = name_scope if name_scope.endswith("/") else ""
        _scopes.stack.append((graph, scope))
        try:
            yield scope
        finally:
            _scopes.stack.pop()


def _store(graph) -> dict | None:
    if graph is None:
        return None
    found = graph.get_collection_ref(_STORE)
    if not found:
        found.append({})
    return found[0]


def get_variable(name, shape=None, dtype=None, initializer=None, regularizer=None,
                 trainable=None, collections=None, caching_device=None, partitioner=None,
                 validate_shape=True, use_resource=None, custom_getter=None, constraint=None,
                 synchronization=None, aggregation=None):
    """The variable `name` of the current variable scope: found or made (see the module)."""
    scope = get_variable_scope()
    full = f"{scope.name}/{name}" if scope.name else name
    dtype = d.as_dtype(dtype) if dtype is not None else scope.dtype
    if shape is not None:
        shape = TensorShape(shape)
    graph = _graph()
    store = _store(graph)
    found = store.get(full) if store is not None else None
    reuse = scope.reuse
    if found is not None:
        if reuse is None or reuse is False:
            raise ValueError(f"Variable {full} already exists, disallowed. Did you mean to set "
                             "reuse=True or reuse=tf.AUTO_REUSE in VarScope?")
        if shape is not None and not shape.is_compatible_with(found.shape):
            raise ValueError(f"Trying to share variable {full}, but specified shape "
                             f"{format_shape(as_shape_tuple(shape))} and found shape "
                             f"{format_shape(as_shape_tuple(found.shape))}.")
        if dtype is not None and dtype is not found.dtype and \
                (dtype is not d.float32 or scope.dtype is not d.float32):
            raise ValueError(f"Trying to share variable {full}, but specified dtype "
                             f"{dtype.name} and found dtype {found.dtype.name}.")
        return found
    if reuse is True:
        raise ValueError(f"Variable {full} does not exist, or was not created with "
                         "tf.get_variable(). Did you mean to set reuse=tf.AUTO_REUSE in "
                         "VarScope?")
    if initializer is None:
        initializer = scope.initializer
    variable = _make(graph, full, shape, dtype, initializer, trainable, collections,
                     validate_shape, constraint if constraint is not None else scope.constraint)
    if store is not None:
        store[full] = variable
    regularizer = regularizer if regularizer is not None else scope.regularizer
    if regularizer is not None and graph is not None:
        with graph.name_scope(""), graph.name_scope(f"{full}/Regularizer/"):
            loss = regularizer(variable)
        if loss is not None:
            graph.add_to_collection(REGULARIZATION_LOSSES, loss)
    return variable


def _make(graph, full, shape, dtype, initializer, trainable, collections, validate_shape,
          constraint):
    if initializer is None:
        if shape is None:
            raise ValueError(f"Variable {full} did not get an initializer, so its `shape` "
                             "argument must be specified.")
        initializer = default_initializer(full, dtype)
    if isinstance(initializer, type):
        initializer = initializer()
    if callable(initializer) and not isinstance(initializer, Variable):
        if shape is None or not shape.is_fully_defined():
            raise ValueError("The initializer passed is not valid. It should be a callable "
                             "with no arguments and the shape should not be provided or an "
                             "instance of `tf.keras.initializers.*' and `shape` should be "
                             "fully defined.")
        dims = list(as_shape_tuple(shape))

        def initial_value(initializer=initializer, dims=dims, dtype=dtype):
            return initializer(dims, dtype=dtype)
        value, value_dtype = initial_value, dtype
    else:   # a value (a tensor, a list, an array): its own shape
        if shape is not None:
            raise ValueError("If initializer is a constant, do not specify shape.")
        value, value_dtype = initializer, None
    if graph is None:   # eagerly: a new Variable each time, in no collection
        return Variable(value, trainable=trainable, name=full, dtype=value_dtype,
                        validate_shape=validate_shape, constraint=constraint)
    if collections is None:
        collections = [GLOBAL_VARIABLES]
    trainable = True if trainable is None else trainable
    if not trainable:
        collections = [c for c in collections if c != TRAINABLE_VARIABLES]
    with context_scope(init_scope_context()), graph.name_scope(""):
        return GraphVariable(value, trainable=trainable, name=full, dtype=value_dtype,
                             validate_shape=validate_shape, constraint=constraint,
                             collections=collections, shape=shape)
