"""The ops that read and advance a `tf.random.Generator`'s state, and non-deterministic seeds.

A Generator's state is an int64 Variable, `[counter_low, counter_high, key]` for Philox.
`RngReadAndSkip` returns the state as it was and moves the counter on by 256 blocks per value
the caller is about to draw (a truncated normal may use up to 256 words per value), under the
Variable's lock, so concurrent draws never share numbers. These ops write a Variable: they are
stateful, and a traced function keeps them in program order (automatic control dependencies).
"""

from __future__ import annotations

import os

import numpy as np

from .. import dtypes as d
from ..errors import InvalidArgumentError, UnimplementedError
from ..shapes import TensorType
from .philox import MASK64, STATE_SKIP_PER_VALUE, stream_from_state
from .random import checked_dims
from .random_stateless import AUTO_SELECT, INTS, PHILOX, THREEFRY, check_output_dtype, dims_type
from .registry import INDEX, TypeAttr, defop

PHILOX_STATE_SIZE = 3           # [counter_low, counter_high, key]
_TF_TYPE_NAMES = {"float32": "float", "float64": "double", "float16": "half"}


def _checked_state(state, alg: int) -> np.ndarray:
    state = np.asarray(state)
    if state.dtype != np.int64:
        name = state.dtype.name
        raise InvalidArgumentError(f"dtype of RNG state variable must be int64, not "
                                   f"{_TF_TYPE_NAMES.get(name, name)}")
    if alg == THREEFRY:
        raise UnimplementedError("Non-XLA devices don't support the ThreeFry algorithm.")
    if alg not in (PHILOX, AUTO_SELECT):
        raise InvalidArgumentError(f"Unsupported algorithm id: {alg}")
    if state.ndim != 1 or state.shape[0] < PHILOX_STATE_SIZE:
        raise InvalidArgumentError(f"For the Philox algorithm, the size of state must be at "
                                   f"least {PHILOX_STATE_SIZE}; got {state.size}")
    return state


def _advanced(state: np.ndarray, delta: int) -> np.ndarray:
    """A copy of `state` whose counter moved `delta` values on (the product wraps at 2**64, as
    TensorFlow's uint64 arithmetic does)."""
    stream = stream_from_state(int(state[0]), int(state[1]), int(state[2]))
    low, high = stream.skipped((delta * STATE_SKIP_PER_VALUE) & MASK64).counter_words
    new = state.copy()
    new[:2] = np.array([low, high], np.uint64).view(np.int64)
    return new


def kernel_read_and_skip(handle, alg, delta):
    with handle.lock:
        state = _checked_state(handle.value, int(alg))
        handle.value = _advanced(state, int(delta))   # a new array: readers keep theirs
    return state[:PHILOX_STATE_SIZE].copy()


def kernel_skip(handle, algorithm, delta):
    with handle.lock:
        state = _checked_state(handle.value, int(algorithm))
        handle.value = _advanced(state, int(delta) & MASK64)


rng_read_and_skip_op = defop(
    "rng_read_and_skip", "RngReadAndSkip",
    inputs=("resource: resource", "alg: int32", "delta: uint64"),
    infer=lambda resource, alg, delta: TensorType(d.int64, (PHILOX_STATE_SIZE,)),
    kernel=kernel_read_and_skip, stateful=True, flags={"resource_write"})
rng_skip_op = defop(
    "rng_skip", "RngSkip", inputs=("resource: resource", "algorithm: int64", "delta: int64"),
    infer=lambda resource, algorithm, delta: (), kernel=kernel_skip, num_outputs=0,
    stateful=True, flags={"resource_write"})


def infer_non_deterministic_ints(shape, dtype=d.int64):
    check_output_dtype(dtype, INTS)
    return dims_type(dtype, shape)


def kernel_non_deterministic_ints(shape, dtype=d.int64):
    """Integers from the operating system's entropy (every bit random)."""
    np_dtype = np.dtype(dtype.as_numpy_dtype)
    dims = checked_dims(shape, np_dtype)
    n = int(np.prod(dims, dtype=np.int64))
    return np.frombuffer(os.urandom(n * np_dtype.itemsize), np_dtype).reshape(dims).copy()


non_deterministic_ints_op = defop(
    "non_deterministic_ints", "NonDeterministicInts", inputs=("shape: shape_dtype",),
    attrs={"shape_dtype": TypeAttr(INDEX, d.int64), "dtype": d.int64},
    infer=infer_non_deterministic_ints, kernel=kernel_non_deterministic_ints, stateful=True,
    flags={"random"})
