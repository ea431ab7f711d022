"""Variable reads and writes: ops on a resource handle.

The handle is a Python object with a `.value` array. A resource tensor's known value (its
`TensorType.value`) is the handle itself, which gives reads their shape at graph-building time.
Writes rebind `handle.value` to a new array; they never mutate an array that may be shared,
and they hold the handle's lock, so concurrent writes never lose an update.
"""

from __future__ import annotations

import numpy as np

from ..shapes import TensorType
from .registry import ALL_TYPES, INDEX, REQUIRED, TypeAttr, defop


def _handle_shape(resource: TensorType):
    handle = resource.value
    return None if handle is None else handle.shape


def infer_read(resource, dtype=REQUIRED):
    return TensorType(dtype, _handle_shape(resource))


def infer_none(*_, **__):
    return ()


def kernel_read(handle, dtype=REQUIRED):
    return handle.value


def kernel_assign(handle, value):
    with handle.lock:
        handle.value = value


def kernel_assign_add(handle, value):
    with handle.lock:  # read-add-rebind is one step for other writers, as in TensorFlow
        handle.value = handle.value + value


def kernel_assign_sub(handle, value):
    with handle.lock:
        handle.value = handle.value - value


read_variable_op = defop(
    "read_variable", "ReadVariableOp", inputs=("resource: resource",),
    attrs={"dtype": REQUIRED}, infer=infer_read, kernel=kernel_read,
    flags={"resource_read"})



_ASSIGN = dict(inputs=("resource: resource", "value: dtype"),
               attrs={"dtype": TypeAttr(ALL_TYPES)}, infer=infer_none, num_outputs=0,
               stateful=True, flags={"resource_write"})

assign_variable_op = defop("assign_variable", "AssignVariableOp", kernel=kernel_assign, **_ASSIGN)
assign_add_variable_op = defop("assign_add_variable", "AssignAddVariableOp",
                               kernel=kernel_assign_add, **_ASSIGN)
assign_sub_variable_op = defop("assign_sub_variable", "AssignSubVariableOp",
                               kernel=kernel_assign_sub, **_ASSIGN)


# ---- sparse writes: `Variable.scatter_*` (rows `indices` of the first axis) -----------------

def _scatter_kernel(combine):
    def kernel(handle, indices, updates):
        with handle.lock:
            value = handle.value.copy()
            combine(value, indices, updates)
            handle.value = value
    return kernel


def _scatter_update(value, indices, updates):
    value[indices] = updates


def _scatter_at(ufunc):
    return lambda value, indices, updates: ufunc.at(value, indices, updates)


def _scatter_div(value, indices, updates):
    if value.dtype.kind in "iu":
        np.floor_divide.at(value, indices, updates)
    else:
        np.true_divide.at(value, indices, updates)


_SCATTER = dict(inputs=("resource: resource", "indices: Tindices", "updates: dtype"),
                attrs={"dtype": TypeAttr(ALL_TYPES), "Tindices": TypeAttr(INDEX)},
                infer=infer_none, num_outputs=0, stateful=True, flags={"resource_write"})

resource_scatter_update_op = defop("resource_scatter_update", "ResourceScatterUpdate",
                                   kernel=_scatter_kernel(_scatter_update), **_SCATTER)
resource_scatter_add_op = defop("resource_scatter_add", "ResourceScatterAdd",
                                kernel=_scatter_kernel(_scatter_at(np.add)), **_SCATTER)
resource_scatter_sub_op = defop("resource_scatter_sub", "ResourceScatterSub",
                                kernel=_scatter_kernel(_scatter_at(np.subtract)), **_SCATTER)
resource_scatter_mul_op = defop("resource_scatter_mul", "ResourceScatterMul",
                                kernel=_scatter_kernel(_scatter_at(np.multiply)), **_SCATTER)
resource_scatter_div_op = defop("resource_scatter_div", "ResourceScatterDiv",
                                kernel=_scatter_kernel(_scatter_div), **_SCATTER)
resource_scatter_min_op = defop("resource_scatter_min", "ResourceScatterMin",
                                kernel=_scatter_kernel(_scatter_at(np.minimum)), **_SCATTER)
resource_scatter_max_op = defop("resource_scatter_max", "ResourceScatterMax",
                                kernel=_scatter_kernel(_scatter_at(np.maximum)), **_SCATTER)
