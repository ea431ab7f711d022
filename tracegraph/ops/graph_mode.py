"""The records only TF1-style graphs use (`tf.compat.v1`): a Variable's handle
(`VarHandleOp`), whether it holds a value yet (`VarIsInitializedOp`), a placeholder with a
default (`PlaceholderWithDefault`), and TF1's `Print` (its input, printing data on the way).

In a TF1 graph a Variable's storage belongs to the Session that runs the graph, not to the
graph: `VarHandleOp` has no kernel, and each Session feeds it the handle it keeps for that
variable (created empty; an initializer assigns it). The resource tensor's known value at
graph-building time is a descriptor handle that carries only the dtype and shape, so reads
infer their shape as they do for eager Variables.
"""

from __future__ import annotations

import sys

import numpy as np

from .. import dtypes as d
from ..shapes import TensorType
from .logging import summarize_value
from .registry import ALL_TYPES, REQUIRED, TypeAttr, defop

__all__ = ["HandleDescriptor", "var_handle_op", "var_is_initialized_op",
           "placeholder_with_default_op", "tf1_print_op"]


class HandleDescriptor:
    """What a TF1 Variable's resource tensor is known to be while the graph is built: the
    variable's dtype, shape and name (never its storage, which a Session owns)."""

    __slots__ = ("dtype", "shape", "name")

    def __init__(self, dtype, shape, name: str):
        self.dtype, self.shape, self.name = dtype, shape, name

    def __repr__(self):
        return f"<HandleDescriptor {self.name}>"


def infer_var_handle(dtype=REQUIRED, shape=REQUIRED, container="", shared_name=""):
    return TensorType(d.resource, (), HandleDescriptor(dtype, shape, shared_name))


def infer_is_initialized(resource):
    return TensorType(d.bool, ())


def kernel_is_initialized(resource):
    # a Session's handle knows; an eager Variable's storage always holds a value
    return np.array(getattr(resource, "initialized", True))


def infer_placeholder_with_default(input, dtype=REQUIRED, shape=None):  # noqa: A002
    return TensorType(input.dtype, shape if shape is not None else input.shape)


def kernel_placeholder_with_default(input, dtype=REQUIRED, shape=None):  # noqa: A002
    return input


var_handle_op = defop(
    "var_handle", "VarHandleOp",
    attrs={"dtype": REQUIRED, "shape": REQUIRED, "container": "", "shared_name": ""},
    infer=infer_var_handle, kernel=None, flags={"placeholder"})

var_is_initialized_op = defop(
    "var_is_initialized", "VarIsInitializedOp", inputs=("resource: resource",),
    infer=infer_is_initialized, kernel=kernel_is_initialized, flags={"resource_read"})

# Fed like a placeholder, else its input passes through: a Session's run that feeds it never
# runs its input, one that does not runs the identity.
placeholder_with_default_op = defop(
    "placeholder_with_default", "PlaceholderWithDefault", inputs=("input: dtype",),
    attrs={"dtype": TypeAttr(ALL_TYPES), "shape": None},
    infer=infer_placeholder_with_default, kernel=kernel_placeholder_with_default)


def kernel_tf1_print(count, input, data, message="", first_n=-1, summarize=3):  # noqa: A002
    """Prints `message` and each data tensor's summary in brackets on stderr (the first
    `first_n` runs of this op, every run when -1), then passes `input` on."""
    if first_n < 0 or count[0] < first_n:
        count[0] += 1
        shown = "".join(f"[{summarize_value(v, summarize)}]" for v in data)
        print(f"{message}{shown}", file=sys.stderr, flush=True)
    return input


tf1_print_op = defop(
    "tf1_print", "Print", inputs=("input: T", "data: list(U)"),
    attrs={"T": TypeAttr(ALL_TYPES), "U": TypeAttr(ALL_TYPES), "message": "", "first_n": -1,
           "summarize": 3},
    infer=lambda input, data, **_: TensorType(input.dtype, input.shape),  # noqa: A006
    kernel=kernel_tf1_print, stateful=True, make_state=lambda attrs: [0], flags={"debug"})
