"""`tf.experimental.dtensor`: importable (Keras imports it when it loads its TensorFlow backend),
but DTensor itself — tensors sharded over a mesh of devices — is not part of tracegraph.

`UNSHARDED` and `MATCH` are TensorFlow's strings; every function and class raises
NotImplementedError saying so. Keras needs DTensor only for `keras.distribution` (data and
model parallelism over several devices), which tracegraph does not offer: on one CPU there is
nothing to shard. For several processes or machines, use `tf.distribute.DaskStrategy`.
"""

from __future__ import annotations

UNSHARDED = "unsharded"
MATCH = "match"

_NAMES = (
    "DTensorCheckpoint", "DTensorDataset", "DVariable", "Layout", "Mesh", "barrier",
    "call_with_layout", "check_layout", "client_id", "copy_to_mesh", "create_distributed_mesh",
    "create_mesh", "create_tpu_mesh", "default_mesh", "device_name", "fetch_layout",
    "get_default_mesh", "initialize_accelerator_system", "is_dtensor", "local_devices", "pack",
    "relayout", "relayout_like", "run_on", "shutdown_accelerator_system", "unpack",
)

__all__ = ["UNSHARDED", "MATCH", *_NAMES]


def _not_supported(name: str):
    def not_supported(*args, **kwargs):
        raise NotImplementedError(
            f"tf.experimental.dtensor.{name}: DTensor (tensors sharded over a device mesh) is "
            "not supported by tracegraph, which runs on one CPU. keras.distribution needs it; "
            "train on one device, or use tf.distribute.DaskStrategy across processes.")
    not_supported.__name__ = not_supported.__qualname__ = name
    return not_supported


for _name in _NAMES:
    globals()[_name] = _not_supported(_name)
del _name
