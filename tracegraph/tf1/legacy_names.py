"""TF1's names that TF2 renamed or dropped, as `tf.compat.v1` keeps them: `assign`,
`to_float` and the other casts, Python 2's `div`, `log`, `random_normal`, `string_to_number`,
`py_func`, `get_local_variable`, `tables_initializer`, and the switches `disable_v2_behavior`
flips (resource variables, control flow v2), with TensorFlow 2.21's names, values and
deprecation notices.

The switches only report: tracegraph always has resource variables and functional control
flow (`tf.cond` and `tf.while_loop` are the `If`/`While` ops in TF1 graphs too), so disabling
them changes nothing, and `resource_variables_enabled()` says so (True).
"""

from __future__ import annotations

import sys

from .. import dtypes as d
from ..framework.contexts import init_scope_context
from ..framework.python_function import numpy_function
from ..library.math import cast, truediv
from ..library.math import floordiv as _floordiv
from ..ops.graph_mode import tf1_print_op
from ..ops.registry import bind, convert_to_tensor
from ..tf_logging import deprecation_notice
from .graph_api import GraphKeys, group
from .variable_scope import get_variable

__all__ = ["assign", "assign_add", "assign_sub", "to_float", "to_double", "to_int32",
           "to_int64", "to_bfloat16", "to_complex64", "to_complex128", "div", "py_func",
           "get_local_variable", "Print", "tables_initializer", "disable_resource_variables",
           "enable_resource_variables", "resource_variables_enabled",
           "disable_control_flow_v2", "enable_control_flow_v2", "control_flow_v2_enabled"]

_MATH_OPS = "tensorflow.python.ops.math_ops"


# ---- renamed ops --------------------------------------------------------------------------------

def assign(ref, value, validate_shape=None, use_locking=None, name=None):
    """`ref.assign(value)`: the Variable after the write (in a TF1 graph, named after it)."""
    return ref.assign(value, use_locking=use_locking, name=name)


def assign_add(ref, value, use_locking=None, name=None):
    return ref.assign_add(value, use_locking=use_locking, name=name)


def assign_sub(ref, value, use_locking=None, name=None):
    return ref.assign_sub(value, use_locking=use_locking, name=name)


def _to(dtype, function: str, default_name: str):
    def convert(x, name=default_name):
        deprecation_notice(function, _MATH_OPS, "Use `tf.cast` instead.", sys._getframe(1))
        return cast(x, dtype, name=name)
    convert.__name__ = convert.__qualname__ = function
    convert.__doc__ = f"`tf.cast(x, {dtype.name})` under TF1's name (op name {default_name!r})."
    return convert


to_float = _to(d.float32, "to_float", "ToFloat")
to_double = _to(d.float64, "to_double", "ToDouble")
to_int32 = _to(d.int32, "to_int32", "ToInt32")
to_int64 = _to(d.int64, "to_int64", "ToInt64")
to_bfloat16 = _to(d.bfloat16, "to_bfloat16", "ToBFloat16")
to_complex64 = _to(d.complex64, "to_complex64", "ToComplex64")
to_complex128 = _to(d.complex128, "to_complex128", "ToComplex128")


def div(x, y, name=None):
    """Python 2's `/`: floor division of integers, true division of floats (op name "div")."""
    deprecation_notice("div", _MATH_OPS, "Deprecated in favor of operator or tf.math.divide.",
                       sys._getframe(1))
    x = convert_to_tensor(x)
    y = convert_to_tensor(y, dtype=x.dtype)
    if x.dtype.is_floating or x.dtype.is_complex:
        return truediv(x, y, name=name or "div")
    return _floordiv(x, y, name=name or "div")


def py_func(func, inp, Tout, stateful=True, name=None):  # noqa: N803 - TensorFlow's names
    """TF1's `tf.py_func`: `tf.numpy_function` (the function gets and returns NumPy values)."""
    return numpy_function(func, inp, Tout, stateful=stateful, name=name)


def Print(input_, data, message=None, first_n=None, summarize=None, name=None):  # noqa: N802
    """TF1's `tf.Print`: `input_`, printing `message` and the data tensors (the first
    `summarize` elements of each) on stderr each time it runs (the first `first_n` times)."""
    deprecation_notice(
        tf1_print_op.tf_type, "tensorflow.python.ops.logging_ops",
        "Use tf.print instead of tf.Print. Note that tf.print returns a no-output operator that "
        "directly prints the output. Outside of defuns or eager mode, this operator will not be "
        "executed unless it is directly specified in session.run or used as a control "
        "dependency for other operators. This is only a concern in graph mode. Below is an "
        "example of how to ensure tf.print executes in graph mode:\n", sys._getframe(1),
        removal="after 2018-08-20")
    attrs = {"message": message or "", "first_n": -1 if first_n is None else first_n,
             "summarize": 3 if summarize is None else summarize}
    return bind(tf1_print_op, (convert_to_tensor(input_), [convert_to_tensor(t) for t in data]),
                attrs, name or tf1_print_op.tf_type)


# ---- graph-building names -----------------------------------------------------------------------

def get_local_variable(name, shape=None, dtype=None, initializer=None, regularizer=None,
                       trainable=False, collections=None, **kwargs):
    """`get_variable` for a local variable: in `LOCAL_VARIABLES`, never trained (metrics'
    counters, iterators' positions)."""
    collections = list(collections or []) + [GraphKeys.LOCAL_VARIABLES]
    return get_variable(name, shape, dtype, initializer, regularizer, trainable, collections,
                        **kwargs)


def tables_initializer(name="init_all_tables"):
    """The op that runs every table initializer of the graph (`TABLE_INITIALIZERS`)."""
    graph = getattr(init_scope_context(), "graph", None)
    if graph is None:   # executing eagerly: no tables to initialize
        return None
    return group(*graph.get_collection(GraphKeys.TABLE_INITIALIZERS), name=name)


# ---- the switches of disable_v2_behavior --------------------------------------------------------

def disable_resource_variables() -> None:
    """TF1's reference variables: not in tracegraph (its Variables stay resource variables)."""
    deprecation_notice("disable_resource_variables",
                       "tensorflow.python.ops.resource_variables_toggle",
                       "non-resource variables are not supported in the long term",
                       sys._getframe(1))


def enable_resource_variables() -> None:
    """Resource variables: what tracegraph's Variables always are."""


def resource_variables_enabled() -> bool:
    return True


def disable_control_flow_v2() -> None:
    """TF1's Switch/Merge control flow: not in tracegraph (cond and while_loop stay the
    functional If/While ops)."""


def enable_control_flow_v2() -> None:
    """Functional control flow: what tracegraph's cond and while_loop always build."""


def control_flow_v2_enabled() -> bool:
    return True
