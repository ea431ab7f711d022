"""`tf.device`: a context manager recording the requested device.

tracegraph runs everything on the CPU. Like TensorFlow on a machine without accelerators (soft
placement), a request for another device is accepted and the work stays on the CPU; tensors
report `/job:localhost/replica:0/task:0/device:CPU:0`. Inside a graph, the operations created
in the scope record the requested device string (`op.device`), as TensorFlow's graphs do.

Names are read as TensorFlow's `DeviceSpec` reads them, when the scope is entered: parts split
by "/", each `job:NAME`, `replica:N`, `task:N`, a device type alone or with an index in any case
(`cpu`, `GPU`, `gpu:1`, `CPU:*`), or `device:TYPE:N`. A scope inside another fills in what it
does not say from the outer one (`/job:w` then `gpu:0` is `/job:w/device:GPU:0`); `""` changes
nothing and `None` clears the request.
"""

from __future__ import annotations

import threading
from typing import NamedTuple

__all__ = ["device", "current_device", "DeviceName", "parse_device"]

# The device types TensorFlow knows by name alone (`"gpu"`); others only as `device:TYPE:N`.
_BARE_TYPES = frozenset({"CPU", "GPU", "TPU", "CUSTOM", "EPU"})


class DeviceName(NamedTuple):
    """The parts of a device name; None where the name does not say (an index of None is
    any device of the type, printed `*`)."""

    job: str | None = None
    replica: int | None = None
    task: int | None = None
    device_type: str | None = None
    device_index: int | None = None

    def merged(self, inner: DeviceName) -> DeviceName:
        """`inner` with what it leaves open taken from this (outer) name."""
        return DeviceName(*(i if i is not None else o for o, i in zip(self, inner)))

    def __str__(self) -> str:
        parts = [f"/{key}:{value}" for key, value in
                 (("job", self.job), ("replica", self.replica), ("task", self.task))
                 if value is not None]
        if self.device_type is not None:
            index = "*" if self.device_index is None else self.device_index
            parts.append(f"/device:{self.device_type}:{index}")
        return "".join(parts)


def parse_device(name) -> DeviceName:
    """A device name string as TensorFlow reads it (ValueError for what it does not accept)."""
    if not isinstance(name, str):
        raise ValueError(f"Expecting a string device name. Got {type(name)}({name!r})")
    fields = {"job": None, "replica": None, "task": None}
    device_type = device_index = None
    for part in name.split("/"):
        items = part.split(":")
        head = items[0]
        if len(items) == 2 and head in fields:
            fields[head] = items[1]
        elif len(items) in (1, 2) and head.upper() in _BARE_TYPES or \
                len(items) == 3 and head == "device":
            if device_type is not None:
                raise ValueError("Multiple device types are not allowed while parsing the "
                                 f"device spec: {name}.")
            typed = items if head != "device" else items[1:]
            device_type = head.upper() if head != "device" else _type_name(items[1])
            if len(typed) == 2 and typed[1] != "*":
                device_index = int(typed[1])
        elif head:
            raise ValueError(f"Unknown attribute '{head}' is encountered while parsing the "
                             f"device spec: '{name}'.")
    replica, task = (None if fields[k] is None else int(fields[k]) for k in ("replica", "task"))
    return DeviceName(fields["job"], replica, task, device_type, device_index)


def _type_name(text: str) -> str:
    return text.upper() if text in ("cpu", "gpu") else text


class _Stack(threading.local):
    def __init__(self):
        self.devices: list[DeviceName] = []


_stack = _Stack()


class device:  # noqa: N801 - used like a function: `with tf.device("CPU:0"):`
    """`with tf.device(name):` records `name` for the operations created inside."""

    __slots__ = ("name",)

    def __init__(self, device_name):
        self.name = device_name

    def __enter__(self):
        outer = _stack.devices[-1] if _stack.devices else DeviceName()
        if self.name is None:               # clears the request
            _stack.devices.append(DeviceName())
        else:
            _stack.devices.append(outer.merged(parse_device(self.name)))
        return self

    def __exit__(self, *exc):
        _stack.devices.pop()
        return False

    def __repr__(self):
        return f"<tf.device {self.name!r}>"


def current_device() -> str:
    """The requested device in this thread ('' outside any `tf.device` scope)."""
    return str(_stack.devices[-1]) if _stack.devices else ""
