"""`tf.config`."""

from ..config import functions_run_eagerly, run_functions_eagerly  # noqa: F401


def list_physical_devices(device_type=None):
    """tracegraph runs on the CPU only."""
    from collections import namedtuple
    Device = namedtuple("PhysicalDevice", "name device_type")
    devices = [Device("/physical_device:CPU:0", "CPU")]
    return [x for x in devices if device_type in (None, x.device_type)]


def list_logical_devices(device_type=None):
    return list_physical_devices(device_type)
