"""`tensorflow.core.util.event_pb2`: TensorBoard's compiled copy of the Event protocol buffer
(the `tensorboard` extra)."""

try:
    from tensorboard.compat.proto.event_pb2 import *  # noqa: F401,F403
except ImportError as e:  # pragma: no cover - without the extra
    raise ImportError("tensorflow.core.util.event_pb2 comes from TensorBoard's protos: "
                      "pip install 'tracegraph[tensorboard]'") from e
