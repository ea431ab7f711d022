"""Stateless random ops, TensorFlow 2's form: values decided by a Philox key and counter.

`tf.random.stateless_*` turn their `seed` into a key and counter (`StatelessRandomGetKeyCounter`)
and draw with the `...V2` ops; `tf.random.Generator` reads its key and counter from its state
Variable (`RngReadAndSkip`, ops/random_state.py) and draws with the same ops. Every op here is
pure: equal inputs give equal values, TensorFlow's (ops/random_distributions.py). The `alg`
input is TensorFlow's algorithm id: 1 (Philox) and 3 (auto-select, Philox on a CPU) run; 2
(ThreeFry) is XLA's only, as on TensorFlow's CPU.
"""

from __future__ import annotations

import numpy as np

from .. import dtypes as d
from ..errors import InvalidArgumentError
from ..shapes import TensorType, format_dims
from . import infer as I
from . import random_distributions as dist
from .philox import Stream, stream_from_seed, stream_from_state
from .random import checked_dims
from .registry import INDEX, TypeAttr, defop

__all__ = ["FLOATS", "INTS", "PHILOX", "THREEFRY", "AUTO_SELECT", "draw_dims", "seed_stream",
           "numpy_kind", "stream_of", "draw_int", "check_output_dtype", "dims_type"]

PHILOX, THREEFRY, AUTO_SELECT = 1, 2, 3       # TensorFlow's algorithm ids (framework/rng_alg.h)
FLOATS = frozenset({d.float16, d.bfloat16, d.float32, d.float64})
INTS = frozenset({d.int32, d.int64, d.uint32, d.uint64})


def draw_dims(shape, dtype) -> tuple:
    """The output dims a `shape` input asks for, checked as TensorFlow's kernels do."""
    if np.ndim(shape) != 1:
        raise InvalidArgumentError(f"shape must be a vector of {{int32,int64}}, got shape "
                                   f"{format_dims(np.shape(shape))}")
    np_dtype = np.float32 if dtype is d.bfloat16 else dtype.as_numpy_dtype
    return checked_dims(shape, np_dtype)


def numpy_kind(dtype):
    """What ops/random_distributions.py takes for a float dtype."""
    return dist.BFLOAT16 if dtype is d.bfloat16 else dtype.as_numpy_dtype


def seed_stream(seed) -> Stream:
    """The Philox stream of a `[seed0, seed1]` input (TensorFlow's GenerateKey)."""
    seed = np.asarray(seed)
    if seed.shape != (2,):
        raise InvalidArgumentError(f"seed must have shape [2], not {format_dims(seed.shape)}")
    return stream_from_seed(int(seed[0]), int(seed[1]))


def stream_of(key, counter, alg) -> Stream:
    """The stream of a V2 op's `key`, `counter` and `alg` inputs, checked as TensorFlow's."""
    key, counter, alg = np.asarray(key), np.asarray(counter), int(alg)
    if key.shape != (1,):
        raise InvalidArgumentError(f"key must have shape [1], not {format_dims(key.shape)}. "
                                   f"(Note that batched keys are not supported yet.)")
    needed = 2 if alg in (PHILOX, AUTO_SELECT) else alg     # TensorFlow's CPU kernel's sizes
    if counter.ndim != 1 or counter.shape[0] < needed:
        raise InvalidArgumentError(f"counter must be a vector with length at least {needed}; "
                                   f"got shape: {format_dims(counter.shape)}. (Note that "
                                   f"batched counters are not supported yet.)")
    if alg not in (PHILOX, AUTO_SELECT):
        raise InvalidArgumentError(f"Unsupported algorithm id: {alg}")
    return stream_from_state(int(counter[0]), int(counter[1]), int(key[0]))


def dims_type(dtype, shape: TensorType) -> TensorType:
    """The output type of a draw of `shape` (a bfloat16 draw is held in float32, as every
    tracegraph bfloat16 value is: its values are bfloat16's)."""
    dtype = d.float32 if dtype is d.bfloat16 else dtype
    dims = I.known_ints(shape)
    if dims is not None:
        return TensorType(dtype, tuple(dims))
    n = shape.shape[0] if shape.shape else None
    return TensorType(dtype, None if n is None else (None,) * n)


def _check_vector(t: TensorType, name: str, length) -> None:
    if t.shape is not None and (len(t.shape) != 1 or t.shape[0] not in (None, *length)):
        raise ValueError(f"{name} must have shape {list(length)[:1]}, not "
                         f"{format_dims(t.shape)}")


# ---- key and counter from a seed ------------------------------------------------------------

def infer_key_counter(seed, Tseed=d.int64):
    _check_vector(seed, "seed", (2,))
    return TensorType(d.uint64, (1,)), TensorType(d.uint64, (2,))


def kernel_key_counter(seed):
    stream = seed_stream(seed)
    low, high = stream.counter_words
    return np.array([stream.key], np.uint64), np.array([low, high], np.uint64)


def infer_key_counter_alg(seed, Tseed=d.int64):
    return (*infer_key_counter(seed), TensorType(d.int32, ()))


def kernel_key_counter_alg(seed):
    return (*kernel_key_counter(seed), np.int32(PHILOX))


_SEED = {"Tseed": TypeAttr(INDEX, d.int64)}
stateless_random_get_key_counter_op = defop(
    "stateless_random_get_key_counter", "StatelessRandomGetKeyCounter", inputs=("seed: Tseed",),
    attrs=_SEED, infer=infer_key_counter, kernel=kernel_key_counter, num_outputs=2,
    flags={"pure"})
stateless_random_get_key_counter_alg_op = defop(
    "stateless_random_get_key_counter_alg", "StatelessRandomGetKeyCounterAlg",
    inputs=("seed: Tseed",), attrs=_SEED, infer=infer_key_counter_alg,
    kernel=kernel_key_counter_alg, num_outputs=3, flags={"pure"})
stateless_random_get_alg_op = defop(
    "stateless_random_get_alg", "StatelessRandomGetAlg", infer=lambda: TensorType(d.int32, ()),
    kernel=lambda: np.int32(PHILOX), flags={"pure"})


# ---- draws from a key and counter -----------------------------------------------------------

def check_output_dtype(dtype, allowed) -> None:
    """An output dtype attr outside TensorFlow's list is a TypeError naming the list."""
    if dtype not in allowed:
        names = ", ".join(sorted(t.name for t in allowed))
        raise TypeError(f"Value for attr 'dtype' of {dtype.name} is not in the list of allowed "
                        f"values: {names}")


def infer_float(shape, key, counter, alg, dtype=d.float32):
    check_output_dtype(dtype, FLOATS)
    _check_vector(key, "key", (1,))
    return dims_type(dtype, shape)


def infer_full_int(shape, key, counter, alg, dtype=d.uint64):
    check_output_dtype(dtype, INTS)
    _check_vector(key, "key", (1,))
    return dims_type(dtype, shape)


def _draw(distribution):
    def kernel(shape, key, counter, alg, dtype=d.float32):
        dims = draw_dims(shape, dtype)
        n = int(np.prod(dims, dtype=np.int64))
        return distribution(stream_of(key, counter, alg), n, numpy_kind(dtype)).reshape(dims)
    kernel.__name__ = f"kernel_{distribution.__name__}"
    return kernel


def draw_int(stream: Stream, dims: tuple, minval, maxval, dtype) -> np.ndarray:
    """`dims` integers in [minval, maxval) (scalars, checked as TensorFlow's)."""
    for name, v in (("minval", minval), ("maxval", maxval)):
        if np.ndim(v) != 0:
            raise InvalidArgumentError(f"{name} must be 0-D, got shape "
                                       f"{format_dims(np.shape(v))}")
    low, high = int(minval), int(maxval)
    if not low < high:
        raise InvalidArgumentError(f"Need minval < maxval, got {low} >= {high}")
    n = int(np.prod(dims, dtype=np.int64))
    return dist.uniform_int(stream, n, low, high, dtype.as_numpy_dtype).reshape(dims)


def infer_draw_int(shape, key, counter, alg, minval, maxval, Tshape=d.int32):
    _check_vector(key, "key", (1,))
    return dims_type(minval.dtype, shape)


def kernel_draw_int(shape, key, counter, alg, minval, maxval, Tshape=d.int32):
    dtype = d.NUMPY_TO_DTYPE[np.asarray(minval).dtype]
    return draw_int(stream_of(key, counter, alg), draw_dims(shape, dtype), minval, maxval,
                    dtype)


def _kernel_full_int(shape, key, counter, alg, dtype=d.uint64):
    dims = draw_dims(shape, dtype)
    n = int(np.prod(dims, dtype=np.int64))
    return dist.full_int(stream_of(key, counter, alg), n, dtype.as_numpy_dtype).reshape(dims)


_V2_INPUTS = ("shape: Tshape", "key: uint64", "counter: uint64", "alg: int32")
_SHAPE = {"Tshape": TypeAttr(INDEX, d.int32)}


def _float_op(name, tf_type, distribution):
    return defop(name, tf_type, inputs=_V2_INPUTS, attrs={**_SHAPE, "dtype": d.float32},
                 infer=infer_float, kernel=_draw(distribution), flags={"pure"})


stateless_random_uniform_v2_op = _float_op(
    "stateless_random_uniform_v2", "StatelessRandomUniformV2", dist.uniform)
stateless_random_normal_v2_op = _float_op(
    "stateless_random_normal_v2", "StatelessRandomNormalV2", dist.normal)
stateless_truncated_normal_v2_op = _float_op(
    "stateless_truncated_normal_v2", "StatelessTruncatedNormalV2", dist.truncated_normal)
stateless_random_uniform_full_int_v2_op = defop(
    "stateless_random_uniform_full_int_v2", "StatelessRandomUniformFullIntV2",
    inputs=_V2_INPUTS, attrs={**_SHAPE, "dtype": d.uint64}, infer=infer_full_int,
    kernel=_kernel_full_int, flags={"pure"})
stateless_random_uniform_int_v2_op = defop(
    "stateless_random_uniform_int_v2", "StatelessRandomUniformIntV2",
    inputs=(*_V2_INPUTS, "minval: dtype", "maxval: dtype"),
    attrs={**_SHAPE, "dtype": TypeAttr(INTS)}, infer=infer_draw_int, kernel=kernel_draw_int,
    flags={"pure"})
