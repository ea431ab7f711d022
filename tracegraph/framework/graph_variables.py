"""`tf.Variable` in a TF1 graph (`with tf.Graph().as_default():`, or with eager execution
disabled): ops in the graph, storage in each Session.

TensorFlow 2 makes a resource variable there, as five ops named after the variable:
`Variable/Initializer/initial_value` (its initial value), `Variable` (the `VarHandleOp`),
`Variable/IsInitialized/VarIsInitializedOp`, `Variable/Assign` (the initializer) and
`Variable/Read/ReadVariableOp` (what a Session fetches for it). Nothing runs until a Session
runs the initializer; reading before raises `FailedPreconditionError`. The Variable joins the
graph's collections (`variables`, and `trainable_variables` when trainable).
"""

from __future__ import annotations

from .. import dtypes as d
from .. import wiring
from ..ops import graph_mode
from ..ops import state as state_ops
from ..ops.registry import (
    NO_ATTRS,
    bind,
    context_scope,
    convert_to_tensor,
    current_context,
)
from ..shapes import (
    TensorShape,
    as_shape_tuple,
    format_shape,
    shape_from_tuple,
    shapes_compatible,
)
from .contexts import init_scope_context
from .variable_enums import (
    VariableSynchronization,
    validate_aggregation,
    validate_synchronization,
)
from .variables import Variable, variable_name

__all__ = ["GraphVariable", "GLOBAL_VARIABLES", "LOCAL_VARIABLES",
           "TRAINABLE_VARIABLES"]

# TensorFlow's `tf.compat.v1.GraphKeys` names of the variable collections.
GLOBAL_VARIABLES = "variables"
LOCAL_VARIABLES = "local_variables"
TRAINABLE_VARIABLES = "trainable_variables"




class GraphVariable(Variable):
    """A Variable of a TF1 graph. Its handle is the `VarHandleOp`'s resource tensor."""

    __slots__ = ("_dtype", "_shape", "_initializer_op", "_initial_value", "_graph_element",
                 "_is_initialized")
    tf1_graph = True   # what its assignments are named after (variables.py)

    def __init__(self, initial_value=None, trainable=None, validate_shape=True,
                 caching_device=None, name=None, variable_def=None, dtype=None,
                 import_scope=None, constraint=None, synchronization=None, aggregation=None,
                 shape=None, experimental_enable_variable_lifting=True, collections=None):
        if initial_value is None:
            raise ValueError("The `initial_value` arg (None) must be specified.")
        on_create = getattr(current_context(), "on_variable_created", None)
        self._synchronization = validate_synchronization(synchronization, name)
        self._aggregation = validate_aggregation(aggregation, name)
        if trainable is None:  # TF: ON_READ variables (metrics' state) are not trained
            trainable = self._synchronization is not VariableSynchronization.ON_READ
        ctx = init_scope_context()   # lifted out of any function being traced, as in TF
        with context_scope(ctx):
            self._build(ctx.graph, initial_value, trainable, validate_shape, name, dtype,
                        shape, collections)
        if on_create is not None:
            on_create(self)

    def _build(self, graph, initial_value, trainable, validate_shape, name, dtype, shape,
               collections):
        if dtype is not None:
            dtype = d.as_dtype(dtype)
        with graph.name_scope(name or "Variable") as scope:
            handle_name = scope[:-1]
            with graph.name_scope("Initializer"):
                if callable(initial_value):
                    initial_value = initial_value()
                if isinstance(initial_value, GraphVariable):
                    initial_value = initial_value.initial_value
                value = convert_to_tensor(initial_value, dtype=dtype, name="initial_value")
            if shape is not None:
                shape = as_shape_tuple(shape)
                if not shapes_compatible(shape, as_shape_tuple(value.shape)):
                    raise ValueError(
                        f"The initial value's shape "
                        f"({format_shape(as_shape_tuple(value.shape))}) is "
                        f"not compatible with the explicitly supplied `shape` argument "
                        f"({format_shape(shape)}).")
            else:
                shape = as_shape_tuple(value.shape) if validate_shape else None
            self._dtype, self._shape = value.dtype, shape
            handle = bind(graph_mode.var_handle_op, (),
                          {"dtype": value.dtype, "shape": shape, "shared_name": handle_name},
                          scope)
            with graph.name_scope("IsInitialized"):
                self._is_initialized = bind(graph_mode.var_is_initialized_op, (handle,))
            self._initializer_op = bind(state_ops.assign_variable_op, (handle, value),
                                        NO_ATTRS, "Assign")
            with graph.name_scope("Read"):
                self._graph_element = bind(state_ops.read_variable_op, (handle,),
                                           {"dtype": value.dtype})
        self._handle = handle
        self._name = variable_name(handle_name)
        self._trainable = bool(trainable)
        self._initial_value = value
        if collections is None:
            collections = [GLOBAL_VARIABLES]
        if self._trainable and TRAINABLE_VARIABLES not in collections:
            collections = [*collections, TRAINABLE_VARIABLES]
        graph.add_to_collections(collections, self)

    # --- what a TF1 Variable has -----------------------------------------------------------
    @property
    def dtype(self) -> d.DType:
        return self._dtype

    @property
    def shape(self) -> TensorShape:
        return shape_from_tuple(self._shape)

    @property
    def op(self):
        """The `VarHandleOp`."""
        return self._handle.op

    @property
    def graph(self):
        return self._handle.op.graph

    @property
    def initializer(self):
        """The op that assigns the initial value (`sess.run(v.initializer)`)."""
        return self._initializer_op

    @property
    def initial_value(self):
        return self._initial_value

    def is_initialized(self, name=None):
        return bind(graph_mode.var_is_initialized_op, (self._handle,), NO_ATTRS, name)

    def graph_element(self):
        """What a Session fetches for this Variable: its value read at construction."""
        return self._graph_element

    def initialize_from(self, value) -> None:
        """Makes the initializer assign `value` (a tensor of the graph: a checkpoint's value,
        `init_from_checkpoint`) instead of the initial value."""
        self._initializer_op = bind(state_ops.assign_variable_op, (self._handle, value),
                                    NO_ATTRS, "Assign_checkpoint")
        self._initial_value = value

    def eval(self, session=None):
        """The value in `session` (the default session when None)."""
        return wiring.session_run(self._graph_element, None, session)

    def load(self, value, session=None):
        """Writes `value` into the Variable's storage in `session` without adding ops."""
        wiring.session_load(self, value, session)

    # --- what only eager Variables can do ------------------------------------------------------
    def numpy(self):
        raise NotImplementedError("numpy() is only available when eager execution is enabled.")

    def __array__(self, dtype=None, copy=None):
        raise NotImplementedError(
            f"Cannot convert a symbolic tf.Variable ({self._name}) to a numpy array: its value "
            "lives in a Session. Fetch it with `sess.run(variable)`.")

    def _symbolic_use(self, what: str):
        raise TypeError(f"{what} a TF1 graph's `tf.Variable` as a Python value is not allowed: "
                        "its value lives in a Session. Fetch it with `sess.run(variable)`.")

    def __bool__(self):
        self._symbolic_use("Using")

    def __int__(self):
        self._symbolic_use("Converting")

    def __float__(self):
        self._symbolic_use("Converting")

    def __index__(self):
        self._symbolic_use("Using")

    def __len__(self):
        self._symbolic_use("Taking the length of")

    def __repr__(self):
        return (f"<tf.Variable '{self._name}' shape={format_shape(self._shape)} "
                f"dtype={self._dtype.name}>")

    __str__ = __repr__
