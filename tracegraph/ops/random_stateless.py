"""Stateless random ops (`tf.random.stateless_*`): the same `seed` (two integers) and shape
always give the same values — TensorFlow's, drawn from its Philox stream (`ops/philox.py`)."""

from __future__ import annotations

import numpy as np

from .. import dtypes as d
from ..errors import InvalidArgumentError
from . import philox
from .random import checked_dims, infer_random
from .registry import INDEX, REQUIRED, TypeAttr, defop

FLOATS = frozenset({d.float16, d.float32, d.float64})
FULL_INTS = frozenset({d.int32, d.int64, d.uint32, d.uint64})


def _seed_pair(seed) -> np.ndarray:
    seed = np.asarray(seed)
    if seed.shape != (2,):
        raise InvalidArgumentError(f"seed must have shape [2], not {list(seed.shape)}")
    return seed


def _kernel(draw):
    def kernel(shape, seed, dtype=REQUIRED):
        np_dtype = dtype.as_numpy_dtype
        dims = checked_dims(shape, np_dtype)
        n = int(np.prod(dims, dtype=np.int64))
        return draw(_seed_pair(seed), n, np_dtype).reshape(dims)
    return kernel


def infer_stateless(shape, seed, dtype=REQUIRED):
    return infer_random(shape, dtype=dtype)


def kernel_uniform_int(shape, seed, minval, maxval):
    np_dtype = np.asarray(minval).dtype
    lo, hi = int(minval), int(maxval)
    if hi <= lo:
        raise InvalidArgumentError(f"Need minval < maxval, got {lo} >= {hi}")
    dims = checked_dims(shape, np_dtype)
    n = int(np.prod(dims, dtype=np.int64))
    return philox.uniform_ints(_seed_pair(seed), n, lo, hi, np_dtype).reshape(dims)


def kernel_full_int(shape, seed, dtype=REQUIRED):
    np_dtype = np.dtype(dtype.as_numpy_dtype)
    dims = checked_dims(shape, np_dtype)
    n = int(np.prod(dims, dtype=np.int64))
    if np_dtype.itemsize == 8:
        bits = philox.random_bits(_seed_pair(seed), 2 * n).astype(np.uint64)
        values = bits[0::2] | (bits[1::2] << np.uint64(32))
    else:
        values = philox.random_bits(_seed_pair(seed), n)
    return values.view(np_dtype.newbyteorder("=")).astype(np_dtype).reshape(dims)


def infer_uniform_int(shape, seed, minval, maxval):
    return infer_random(shape, dtype=minval.dtype)


_STATELESS = dict(inputs=("shape: T", "seed: Tseed"), infer=infer_stateless, flags={"pure"})


def _attrs():
    return {"dtype": REQUIRED, "T": TypeAttr(INDEX, d.int32), "Tseed": TypeAttr(INDEX, d.int64)}


stateless_random_uniform_op = defop(
    "stateless_random_uniform", "StatelessRandomUniform", attrs=_attrs(),
    kernel=_kernel(philox.uniform_floats), **_STATELESS)
stateless_random_normal_op = defop(
    "stateless_random_normal", "StatelessRandomNormal", attrs=_attrs(),
    kernel=_kernel(philox.normal_floats), **_STATELESS)
stateless_truncated_normal_op = defop(
    "stateless_truncated_normal", "StatelessTruncatedNormal",
    attrs=_attrs(), kernel=_kernel(philox.truncated_normal_floats),
    **_STATELESS)
stateless_random_uniform_full_int_op = defop(
    "stateless_random_uniform_full_int", "StatelessRandomUniformFullInt",
    attrs=_attrs(), kernel=kernel_full_int, **_STATELESS)
stateless_random_uniform_int_op = defop(
    "stateless_random_uniform_int", "StatelessRandomUniformInt",
    inputs=("shape: T", "seed: Tseed", "minval: dtype", "maxval: dtype"),
    attrs={"dtype": TypeAttr(frozenset({d.int32, d.int64})), "T": TypeAttr(INDEX, d.int32),
           "Tseed": TypeAttr(INDEX, d.int64)},
    infer=infer_uniform_int, kernel=kernel_uniform_int, flags={"pure"})
