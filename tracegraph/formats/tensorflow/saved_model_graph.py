"""The top-level graph of a SavedModel tracegraph writes: what TensorFlow 1 style loaders run.

`tf.saved_model.load` in TensorFlow 2 needs only the function library and the object graph, but
TensorFlow Serving, `saved_model_cli run` and `tf.compat.v1.saved_model.load` import the
MetaGraphDef's graph into a session and run it: a `VarHandleOp` per Variable and a `Const` per
captured constant; per signature a `Placeholder` per input and a `StatefulPartitionedCall` of
its wrapper (the signature's SignatureDef names these tensors); the saver, whose restore
function reads every variable from `variables/variables` (`RestoreV2`, then an
`AssignVariableOp` each) when the session loader runs `saver_def.restore_op_name` with the
prefix fed to `saver_def.filename_tensor_name`, and whose save function writes them back
(`SaveV2`, with the object graph so the result is a TensorFlow 2 checkpoint); and `NoOp`, the
main op TensorFlow's loaders run after restoring.
"""

from __future__ import annotations

import numpy as np

from ... import dtypes as d
from ...ops.array import const_op, identity_op, placeholder_op
from ...ops.functional import stateful_partitioned_call_op
from ...ops.graph_mode import var_handle_op
from ...ops.state import assign_variable_op, read_variable_op
from .graph_def_export import ARG_NAME, NODE_NAME, clean_name
from .messages import messages
from .protos import dtype_enum, shape_proto, tensor_proto
from .tf_checkpoint import OBJECT_GRAPH_KEY

__all__ = ["TopLevelGraph", "saver_functions"]

GRAPH_DEF_PRODUCER = 2474      # the GraphDef version of TensorFlow 2.21, whose op defs we use
MIN_CONSUMER = 12
_CALL = stateful_partitioned_call_op.tf_type


class TopLevelGraph:
    """Builds the MetaGraphDef's GraphDef node by node (unique, valid names)."""

    def __init__(self, graph_def):
        self.graph_def = graph_def
        self._taken: set = set()
        graph_def.versions.producer = GRAPH_DEF_PRODUCER
        graph_def.versions.min_consumer = MIN_CONSUMER

    def node(self, name: str, op: str, inputs=()):
        node = self.graph_def.node.add(name=clean_name(name, NODE_NAME, self._taken), op=op)
        node.input.extend(inputs)
        return node

    def variable(self, name: str, dtype, shape) -> str:
        node = self.node(name, var_handle_op.tf_type)
        node.attr["dtype"].type = dtype_enum(dtype)
        node.attr["shape"].shape.CopyFrom(shape_proto(shape))
        node.attr["shared_name"].s = node.name.encode()
        node.attr["container"].s = b""
        node.attr["_output_shapes"].list.shape.add()
        return node.name

    def constant(self, name: str, value) -> str:
        node = self.node(name, const_op.tf_type)
        message = tensor_proto(value)
        node.attr["dtype"].type = message.dtype
        node.attr["value"].tensor.CopyFrom(message)
        node.attr["_output_shapes"].list.shape.add().CopyFrom(message.tensor_shape)
        return node.name

    def placeholder(self, name: str, dtype, shape) -> str:
        node = self.node(name, placeholder_op.tf_type)
        node.attr["dtype"].type = dtype_enum(dtype)
        node.attr["shape"].shape.CopyFrom(shape_proto(shape))
        node.attr["_output_shapes"].list.shape.add().CopyFrom(shape_proto(shape))
        return node.name

    def call(self, function, inputs: list, output_shapes=None) -> str:
        """A StatefulPartitionedCall of `function` (a FunctionDef) on `inputs`."""
        node = self.node(_CALL, _CALL, inputs)
        node.attr["f"].func.name = function.signature.name
        node.attr["Tin"].list.type.extend(a.type for a in function.signature.input_arg)
        node.attr["Tout"].list.type.extend(a.type for a in function.signature.output_arg)
        node.attr["config_proto"].s = b""
        node.attr["executor_type"].s = b""
        shapes = node.attr["_output_shapes"].list
        for shape in output_shapes or [() for _ in function.signature.output_arg]:
            shapes.shape.add().CopyFrom(shape_proto(shape))
        return node.name


# ---- the saver's functions --------------------------------------------------------------------

def _function(name: str, variables: list):
    """A FunctionDef `name(file_prefix, <one resource argument per variable>) -> string`."""
    fdef = messages().function_pb2.FunctionDef()
    sig = fdef.signature
    sig.name = name
    sig.is_stateful = True
    taken: set = set()
    sig.input_arg.add(name="file_prefix", type=dtype_enum(d.string))
    args = []
    for _key, dtype, shape in variables:
        arg = sig.input_arg.add(name=clean_name("variable", ARG_NAME, taken),
                                type=dtype_enum(d.resource))
        data = arg.handle_data.add(dtype=dtype_enum(dtype))
        data.shape.CopyFrom(shape_proto(shape))
        args.append(arg.name)
    sig.output_arg.add(name="identity", type=dtype_enum(d.string))
    return fdef, args


def _const(fdef, name: str, value):
    node = fdef.node_def.add(name=name, op=const_op.tf_type)
    message = tensor_proto(value)
    node.attr["dtype"].type = message.dtype
    node.attr["value"].tensor.CopyFrom(message)
    return f"{name}:output:0"


def _finish(fdef, after: list) -> None:
    identity = fdef.node_def.add(name="result", op=identity_op.tf_type)
    identity.input.append("file_prefix")
    identity.input.extend(f"^{name}" for name in after)
    identity.attr["T"].type = dtype_enum(d.string)
    fdef.ret["identity"] = "result:output:0"
    for name in after:
        fdef.signature.control_output.append(name)
        fdef.control_ret[name] = name


def saver_functions(save_name: str, restore_name: str, variables: list, object_graph: bytes):
    """(save FunctionDef, restore FunctionDef) for `variables` [(checkpoint key, dtype,
    shape)] in order; the save function also writes `object_graph` (serialized)."""
    save, args = _function(save_name, variables)
    keys = [key for key, _, _ in variables] + [OBJECT_GRAPH_KEY]
    names = _const(save, "tensor_names", np.array(keys, dtype=object))
    slices = _const(save, "shape_and_slices", np.array([""] * len(keys), dtype=object))
    graph = _const(save, "object_graph", np.array(object_graph, dtype=object))
    reads = []
    for i, ((_, dtype, _), arg) in enumerate(zip(variables, args)):
        read = save.node_def.add(name=f"read_{i}", op=read_variable_op.tf_type, input=[arg])
        read.attr["dtype"].type = dtype_enum(dtype)
        reads.append(f"{read.name}:value:0")
    node = save.node_def.add(name="SaveV2", op="SaveV2",
                             input=[ "file_prefix", names, slices] + reads + [graph])
    node.attr["dtypes"].list.type.extend([dtype_enum(dtype) for _, dtype, _ in variables] +
                                         [dtype_enum(d.string)])
    _finish(save, ["SaveV2"])

    restore, args = _function(restore_name, variables)
    assigns = []
    if variables:
        names = _const(restore, "tensor_names", np.array(keys[:-1], dtype=object))
        slices = _const(restore, "shape_and_slices",
                        np.array([""] * len(variables), dtype=object))
        node = restore.node_def.add(name="RestoreV2", op="RestoreV2",
                                    input=["file_prefix", names, slices])
        node.attr["dtypes"].list.type.extend(dtype_enum(dtype) for _, dtype, _ in variables)
        for i, ((_, dtype, _), arg) in enumerate(zip(variables, args)):
            assign = restore.node_def.add(name=f"assign_{i}", op=assign_variable_op.tf_type,
                                          input=[arg, f"RestoreV2:tensors:{i}"])
            assign.attr["dtype"].type = dtype_enum(dtype)
            assigns.append(assign.name)
    _finish(restore, assigns)
    return save, restore
