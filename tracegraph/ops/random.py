"""Random ops (`tf.random`): stateful kernels with TensorFlow's seed rules.

Each random op carries `seed`/`seed2` attrs. Its runtime state is a NumPy Generator made by the
record's `make_state`: eagerly one per (op, seeds), so repeated calls continue one stream; in a
graph one per Operation, so every call of a function draws new numbers, reproducibly after
`tf.random.set_seed`. Seeds (0, 0) mean nondeterministic, as in TensorFlow.
"""

from __future__ import annotations

import numpy as np

from .. import config
from .. import dtypes as d
from ..errors import InvalidArgumentError
from ..shapes import TensorType, format_dims
from . import infer as I
from .allocation import check_allocation
from .registry import (
    ALL_TYPES,
    FLOAT,
    INDEX,
    REQUIRED,
    TypeAttr,
    current_context,
    defop,
)

DEFAULT_GRAPH_SEED = 87654321
_MAXINT32 = 2 ** 31 - 1


def check_seed(seed, what: str = "seed") -> None:
    """A seed is an integer or None; anything else is a TypeError that says so."""
    if seed is not None and (not hasattr(seed, "__index__") or isinstance(seed, str)):
        raise TypeError(f"`{what}` must be an integer or None, got {seed!r} of type "
                        f"{type(seed).__name__}.")


def get_seed(op_seed: int | None) -> tuple[int, int]:
    """TensorFlow's rule for the (seed, seed2) pair of a random op."""
    check_seed(op_seed)
    global_seed = config.global_seed()
    if global_seed is not None:
        if op_seed is None:
            op_seed = current_context().next_op_seed()
        seeds = (global_seed, int(op_seed))
    elif op_seed is not None:
        seeds = (DEFAULT_GRAPH_SEED, int(op_seed))
    else:
        return (0, 0)
    return (0, _MAXINT32) if seeds == (0, 0) else seeds


def make_generator(attrs) -> np.random.Generator:
    seed, seed2 = attrs.get("seed", 0), attrs.get("seed2", 0)
    if seed == 0 and seed2 == 0:
        return np.random.default_rng()
    return np.random.default_rng([seed & 0xFFFFFFFF, seed2 & 0xFFFFFFFF])


def checked_dims(shape, np_dtype=np.float64) -> tuple:
    dims = tuple(int(s) for s in np.asarray(shape).reshape(-1))
    for s in dims:
        if s < 0:
            raise InvalidArgumentError(f"Dimension {s} must be >= 0")
    check_allocation(dims, np_dtype)
    return dims


def infer_random(shape, dtype=REQUIRED, seed=0, seed2=0):
    dims = I.known_ints(shape)
    if dims is None:
        n = shape.shape[0] if shape.shape else None
        return TensorType(dtype, None if n is None else (None,) * n)
    return TensorType(dtype, tuple(dims))


def kernel_uniform(rng, shape, dtype=REQUIRED, seed=0, seed2=0):
    """Values in [0, 1) drawn at the dtype's precision (rounding a float64 draw to a narrower
    dtype could give 1.0). Half precision uses 10 random mantissa bits, as TensorFlow does."""
    dims = checked_dims(shape, dtype.as_numpy_dtype)
    if dtype is d.float64:
        return rng.random(dims)
    if dtype is d.float16:
        return (rng.integers(0, 1 << 10, dims) * (1.0 / (1 << 10))).astype(np.float16)
    return rng.random(dims, dtype=np.float32).astype(dtype.as_numpy_dtype)


def kernel_normal(rng, shape, dtype=REQUIRED, seed=0, seed2=0):
    return rng.standard_normal(checked_dims(shape)).astype(dtype.as_numpy_dtype)


def kernel_truncated_normal(rng, shape, dtype=REQUIRED, seed=0, seed2=0):
    out = rng.standard_normal(checked_dims(shape))
    bad = np.abs(out) > 2
    while bad.any():
        out[bad] = rng.standard_normal(int(bad.sum()))
        bad = np.abs(out) > 2
    return out.astype(dtype.as_numpy_dtype)


_RANDOM = dict(inputs=("shape: T",), infer=infer_random, stateful=True, make_state=make_generator,
               flags={"random"})
_RANDOM_ATTRS = {"T": TypeAttr(INDEX, d.int32), "dtype": REQUIRED, "seed": 0, "seed2": 0}

random_uniform_op = defop("random_uniform", "RandomUniform", attrs=_RANDOM_ATTRS,
                          kernel=kernel_uniform, **_RANDOM)
random_normal_op = defop("random_normal", "RandomStandardNormal", attrs=_RANDOM_ATTRS,
                         kernel=kernel_normal, **_RANDOM)
truncated_normal_op = defop("truncated_normal", "TruncatedNormal", attrs=_RANDOM_ATTRS,
                            kernel=kernel_truncated_normal, **_RANDOM)


def infer_uniform_int(shape, minval, maxval, seed=0, seed2=0):
    return infer_random(shape, dtype=minval.dtype)


def kernel_uniform_int(rng, shape, minval, maxval, seed=0, seed2=0):
    if not minval < maxval:
        raise InvalidArgumentError(f"Need minval < maxval, got {minval} >= {maxval}")
    dt = np.asarray(minval).dtype
    return rng.integers(int(minval), int(maxval), size=checked_dims(shape, dt), dtype=dt)


random_uniform_int_op = defop(
    "random_uniform_int", "RandomUniformInt",
    inputs=("shape: T", "minval: Tout", "maxval: Tout"),
    attrs={"T": TypeAttr(INDEX, d.int32), "Tout": TypeAttr(INDEX), "seed": 0, "seed2": 0},
    infer=infer_uniform_int, kernel=kernel_uniform_int, stateful=True, make_state=make_generator,
    flags={"random"})


def kernel_shuffle(rng, value, seed=0, seed2=0):
    value = np.asarray(value)
    if value.ndim == 0:
        return value
    return value[rng.permutation(value.shape[0])]


random_shuffle_op = defop("random_shuffle", "RandomShuffle", inputs=("value: T",),
                          attrs={"T": TypeAttr(ALL_TYPES), "seed": 0, "seed2": 0},
                          infer=I.same, kernel=kernel_shuffle, stateful=True,
                          make_state=make_generator, flags={"random"})


def _check_logits(shape) -> None:
    if shape is not None and len(shape) != 2:
        raise ValueError(f"logits should be a matrix, got shape {format_dims(shape)}")


def infer_multinomial(logits, num_samples, seed=0, seed2=0, output_dtype=d.int64):
    _check_logits(logits.shape)
    n = I.known_ints(num_samples)
    batch = None if logits.shape is None else logits.shape[0]
    return TensorType(output_dtype, (batch, None if n is None else n[0]))


def kernel_multinomial(rng, logits, num_samples, seed=0, seed2=0, output_dtype=d.int64):
    x = np.asarray(logits, dtype=np.float64)
    try:
        _check_logits(x.shape)
    except ValueError as e:
        raise InvalidArgumentError(str(e)) from None
    p = np.exp(x - x.max(axis=1, keepdims=True))
    p /= p.sum(axis=1, keepdims=True)
    n = int(num_samples)
    out = np.stack([rng.choice(p.shape[1], size=n, p=row) for row in p]) if len(p) else \
        np.zeros((0, n))
    return out.astype(output_dtype.as_numpy_dtype)


multinomial_op = defop("multinomial", "Multinomial", inputs=("logits: T", "num_samples: int32"),
                       attrs={"T": TypeAttr(FLOAT), "seed": 0, "seed2": 0,
                              "output_dtype": d.int64},
                       infer=infer_multinomial, kernel=kernel_multinomial, stateful=True,
                       make_state=make_generator, flags={"random"})
