"""`tf.device`: a context manager recording the requested device.

tracegraph runs everything on the CPU. Like TensorFlow on a machine without accelerators (soft
placement), a request for another device is accepted and the work stays on the CPU; tensors
report `/job:localhost/replica:0/task:0/device:CPU:0`. Inside a graph, the operations created
in the scope record the requested device string (`op.device`), as TensorFlow's graphs do.
"""

from __future__ import annotations

import re
import threading

__all__ = ["device", "current_device", "canonical_device"]

_SPEC = re.compile(
    r"^(?:/job:(?P<job>[\w-]+))?(?:/replica:(?P<replica>\d+))?(?:/task:(?P<task>\d+))?"
    r"(?:/?(?:device:)?(?P<type>[A-Za-z_]+):(?P<index>\d+|\*))?$")


class _Stack(threading.local):
    def __init__(self):
        self.devices = []


_stack = _Stack()


def canonical_device(name: str) -> str:
    """`"cpu:0"`, `"/CPU:0"`, `"/job:localhost/device:GPU:1"` -> TensorFlow's canonical form
    (`/device:CPU:0`, `/job:localhost/device:GPU:1`)."""
    if not isinstance(name, str):
        raise TypeError(f"Expected a device name string, got {name!r}")
    m = _SPEC.match(name.strip())
    if m is None or not name.strip():
        raise ValueError(f"Unknown attribute: '{name}' in '{name}'")
    parts = []
    for key in ("job", "replica", "task"):
        if m.group(key) is not None:
            parts.append(f"/{key}:{m.group(key)}")
    if m.group("type") is not None:
        parts.append(f"/device:{m.group('type').upper()}:{m.group('index')}")
    return "".join(parts)


class device:  # noqa: N801 - used like a function: `with tf.device("CPU:0"):`
    """`with tf.device(name):` records `name` for the operations created inside."""

    __slots__ = ("name",)

    def __init__(self, device_name):
        self.name = "" if device_name is None else canonical_device(device_name)

    def __enter__(self):
        _stack.devices.append(self.name)  # `tf.device(None)` clears the request
        return self

    def __exit__(self, *exc):
        _stack.devices.pop()
        return False

    def __repr__(self):
        return f"<tf.device {self.name!r}>"


def current_device() -> str:
    """The innermost requested device in this thread ('' outside any `tf.device` scope)."""
    return _stack.devices[-1] if _stack.devices else ""
