"""TensorFlow's global settings, all in one place (STYLE rule 10).

- `run_functions_eagerly`: whether `tf.function` runs the Python function instead of its graph.
- the global random seed (`tf.random.set_seed`) and the eager op-seed sequence derived from it.
- the optimizer options (`tf.config.optimizer`): the values set, and a version number bumped at
  every change so ConcreteFunctions re-optimize; `optimize/options.py` owns the keys, defaults
  and validation.
"""

from __future__ import annotations

import random as _random
import threading

__all__ = [
    "run_functions_eagerly", "functions_run_eagerly", "set_global_seed", "global_seed",
    "next_eager_op_seed",
]

_lock = threading.Lock()
_run_eagerly = False
_global_seed: int | None = None
_op_seed_rng = _random.Random(0)
_MAXINT32 = 2 ** 31 - 1
seed_epoch = 0  # bumped by set_global_seed: eager random streams restart, as TF's caches do
optimizer_options: dict = {}
optimizer_version = 0
# The options as a hashable key: a function keeps one optimized graph per key, so switching
# options back and forth does not optimize again (as TF keeps an instantiation per config).
optimizer_key: tuple = ()


def run_functions_eagerly(run_eagerly: bool) -> None:
    """`tf.config.run_functions_eagerly`: run `tf.function`s as plain Python (for debugging)."""
    global _run_eagerly
    _run_eagerly = bool(run_eagerly)


def functions_run_eagerly() -> bool:
    return _run_eagerly


def set_global_seed(seed: int | None) -> None:
    """`tf.random.set_seed`: fixes the global seed and restarts the op-seed sequence."""
    global _global_seed, _op_seed_rng, seed_epoch
    with _lock:
        _global_seed = None if seed is None else int(seed)
        _op_seed_rng = _random.Random(_global_seed)
        seed_epoch += 1


def global_seed() -> int | None:
    return _global_seed


def next_eager_op_seed() -> int:
    """The op seed an eager random op gets when only the global seed is set."""
    with _lock:
        return _op_seed_rng.randint(0, _MAXINT32)


def update_optimizer_options(values: dict) -> None:
    """Merges validated optimizer options (see optimize/options.py) and bumps the version."""
    global optimizer_version, optimizer_key
    with _lock:
        optimizer_options.update(values)
        optimizer_version += 1
        optimizer_key = tuple(sorted((k, repr(v)) for k, v in optimizer_options.items()))


def reset_optimizer_options() -> None:
    global optimizer_version, optimizer_key
    with _lock:
        optimizer_options.clear()
        optimizer_version += 1
        optimizer_key = ()


def list_physical_devices(device_type=None) -> list:
    """tracegraph runs on the CPU only."""
    from collections import namedtuple
    device = namedtuple("PhysicalDevice", "name device_type")
    devices = [device("/physical_device:CPU:0", "CPU")]
    return [x for x in devices if device_type in (None, x.device_type)]


def list_logical_devices(device_type=None) -> list:
    return list_physical_devices(device_type)
