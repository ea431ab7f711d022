"""Real protobuf messages (the `tensorboard` extra's copies of TensorFlow's protos).

`graph_def_proto(graph)` is the graph layer's GraphDef (`graph.as_graph_def()`, the one place
that decides node names, inputs, attrs and the function library) parsed into a real
`GraphDef` message, with `_output_shapes` on every node so TensorBoard shows shapes on edges.
`tensor_proto(array)` is a `TensorProto` for summaries.
"""

from __future__ import annotations

import functools

import numpy as np

from ... import dtypes as d
from ...graph.graph import Graph
from ...graph.graph_def import datatype_name, function_library
from ...optional_extras import require

__all__ = ["graph_def_proto", "ops_by_name", "tensor_proto", "shape_proto", "dtype_enum", "protos"]


@functools.cache
def protos():
    """The tensorboard package's proto modules (as a namespace), or an ImportError naming the
    extra."""
    require("tensorboard", "tensorboard", "Writing TensorBoard data (tf.summary, GraphDef protos)")
    from tensorboard.compat.proto import (
        attr_value_pb2,
        config_pb2,
        event_pb2,
        graph_pb2,
        summary_pb2,
        tensor_pb2,
        tensor_shape_pb2,
        types_pb2,
    )
    return _Namespace(attr_value_pb2=attr_value_pb2, config_pb2=config_pb2,
                      event_pb2=event_pb2, graph_pb2=graph_pb2, summary_pb2=summary_pb2,
                      tensor_pb2=tensor_pb2, tensor_shape_pb2=tensor_shape_pb2,
                      types_pb2=types_pb2)


class _Namespace:
    def __init__(self, **modules):
        self.__dict__.update(modules)


def dtype_enum(dtype: d.DType) -> int:
    return protos().types_pb2.DataType.Value(datatype_name(dtype))


def shape_proto(shape):
    """A TensorShapeProto: `None` is an unknown rank, a `None` dim is -1."""
    message = protos().tensor_shape_pb2.TensorShapeProto()
    if shape is None:
        message.unknown_rank = True
        return message
    for s in shape:
        message.dim.add(size=-1 if s is None else int(s))
    return message


def tensor_proto(value):
    """A TensorProto holding `value` (numbers as little-endian `tensor_content`)."""
    arr = np.asarray(value)
    dtype = d.NUMPY_TO_DTYPE[arr.dtype]
    message = protos().tensor_pb2.TensorProto(dtype=dtype_enum(dtype))
    message.tensor_shape.CopyFrom(shape_proto(arr.shape))
    if dtype is d.string:
        message.string_val.extend(v if isinstance(v, bytes) else str(v).encode("utf-8")
                                  for v in arr.reshape(-1))
    else:
        message.tensor_content = arr.astype(arr.dtype.newbyteorder("<")).tobytes()
    return message


def _output_shapes(op):
    """The `_output_shapes` attr value of one op: one shape per output."""
    attr = protos().attr_value_pb2.AttrValue()
    for t in op.outputs:
        attr.list.shape.add().CopyFrom(shape_proto(t.dims))
    return attr


def ops_by_name(graph: Graph, out: dict) -> None:
    """Maps (function name or '', node name) -> op, for the graph and every sub-graph."""
    for op in graph.operations:
        out[("", op.name)] = op
    for name, sub in function_library(graph)[0].items():
        for op in sub.operations:
            out[(name, op.name)] = op


def graph_def_proto(graph: Graph, add_shapes: bool = True):
    """`graph` (with its sub-graphs as the function library) as a real GraphDef message."""
    from google.protobuf import text_format
    message = text_format.Parse(str(graph.as_graph_def()), protos().graph_pb2.GraphDef())
    if add_shapes:
        ops: dict = {}
        ops_by_name(graph, ops)
        for node in message.node:
            op = ops.get(("", node.name))
            if op is not None and op.outputs:
                node.attr["_output_shapes"].CopyFrom(_output_shapes(op))
        for function in message.library.function:
            for node in function.node_def:
                op = ops.get((function.signature.name, node.name))
                if op is not None and op.outputs:
                    node.attr["_output_shapes"].CopyFrom(_output_shapes(op))
    return message
