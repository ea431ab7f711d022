"""`tf.compat.v1`: the TF1 names that TF2 code (Keras's TensorFlow backend) still calls —
`placeholder` in a graph being built, `reset_default_graph`, `SummaryMetadata`, `Dimension`."""

from __future__ import annotations

from ..dimension import Dimension
from ..dtypes import as_dtype
from ..ops.array import placeholder_op
from ..ops.registry import current_context
from ..shapes import TensorType, as_shape_tuple

# and SummaryMetadata, from TensorBoard (module __getattr__)
__all__ = ["Dimension", "placeholder", "reset_default_graph"]


def placeholder(dtype, shape=None, name=None):
    """A graph input of `dtype` and `shape`, in the graph being built (`FuncGraph.as_default()`);
    eagerly an error, as in TensorFlow 2."""
    graph = getattr(current_context(), "graph", None)
    if graph is None:
        raise RuntimeError("tf.placeholder() is not compatible with eager execution.")
    dims = as_shape_tuple(shape)
    return graph.placeholder(TensorType(as_dtype(dtype), dims), name or placeholder_op.tf_type)


def reset_default_graph():
    """Clears the default graph stack. TF2 code runs eagerly: there is none to clear, and inside
    a graph being built it is an error, as in TensorFlow."""
    if getattr(current_context(), "graph", None) is not None:
        raise AssertionError("Do not use tf.reset_default_graph() to clear nested graphs. If "
                             "you need a cleared graph, exit the nesting and create a new graph.")


def __getattr__(name):
    if name == "SummaryMetadata":  # the protocol buffer, from TensorBoard's compiled protos
        try:
            from tensorboard.compat.proto.summary_pb2 import SummaryMetadata
        except ImportError as e:
            raise ImportError("tf.compat.v1.SummaryMetadata is TensorBoard's protocol buffer: "
                              "pip install 'tracegraph[tensorboard]'") from e
        return SummaryMetadata
    raise AttributeError(f"module 'tracegraph.compat.v1' has no attribute {name!r}")
