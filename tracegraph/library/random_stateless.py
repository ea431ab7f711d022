"""`tf.random.stateless_*` and `tf.nn.experimental.stateless_dropout`: random values decided
by a `seed` of two integers (a list, or an int32/int64 tensor of shape [2]), TensorFlow's own
numbers (Philox, `ops/philox.py`). The `alg` argument is accepted; every algorithm draws
Philox's stream, which is what TensorFlow's "auto_select" gives on CPU."""

from __future__ import annotations

from .. import dtypes as d
from ..ops.random_stateless import (
    FLOATS,
    FULL_INTS,
    stateless_random_normal_op,
    stateless_random_uniform_full_int_op,
    stateless_random_uniform_int_op,
    stateless_random_uniform_op,
    stateless_truncated_normal_op,
)
from ..ops.registry import bind, convert_to_tensor
from .array import shape as shape_of
from .array import shape_arg
from .indexing import where
from .math import add, cast, greater_equal, multiply, subtract

__all__ = ["stateless_uniform", "stateless_normal", "stateless_truncated_normal",
           "stateless_dropout"]


def _seed(seed):
    seed = convert_to_tensor(seed)
    if seed.dtype not in (d.int32, d.int64):
        seed = cast(seed, d.int64)
    return seed


def _shape(shape):
    return shape_arg(shape) if isinstance(shape, (list, tuple)) or hasattr(shape, "as_list") \
        else shape


def stateless_uniform(shape, seed, minval=0, maxval=None, dtype=d.float32, name=None,
                      alg="auto_select"):
    """Uniform values in [minval, maxval); for integer dtypes both bounds or neither (the
    whole range of the dtype)."""
    dtype = d.as_dtype(dtype)
    shape, seed = _shape(shape), _seed(seed)
    if dtype.is_integer:
        if (minval is None) != (maxval is None):
            raise ValueError(f"For integer `dtype` argument {dtype}, argument `minval` and "
                             f"`maxval` must be both None or not None. Got `minval`={minval} "
                             f"and `maxval`={maxval}.")
        if minval is None:
            if dtype not in FULL_INTS:
                raise ValueError(f"Invalid dtype for full-range stateless uniform: {dtype}")
            return bind(stateless_random_uniform_full_int_op, (shape, seed), {"dtype": dtype},
                        name)
        return bind(stateless_random_uniform_int_op,
                    (shape, seed, convert_to_tensor(minval, dtype=dtype),
                     convert_to_tensor(maxval, dtype=dtype)), {}, name)
    if dtype not in FLOATS:
        raise ValueError(f"Invalid dtype for stateless uniform: {dtype}")
    maxval = 1 if maxval is None else maxval
    rnd = bind(stateless_random_uniform_op, (shape, seed), {"dtype": dtype})
    lo = convert_to_tensor(minval, dtype=dtype)
    hi = convert_to_tensor(maxval, dtype=dtype)
    return add(multiply(rnd, subtract(hi, lo)), lo, name=name)


def stateless_normal(shape, seed, mean=0.0, stddev=1.0, dtype=d.float32, name=None,
                     alg="auto_select"):
    dtype = d.as_dtype(dtype)
    rnd = bind(stateless_random_normal_op, (_shape(shape), _seed(seed)), {"dtype": dtype})
    return add(multiply(rnd, convert_to_tensor(stddev, dtype=dtype)),
               convert_to_tensor(mean, dtype=dtype), name=name)


def stateless_truncated_normal(shape, seed, mean=0.0, stddev=1.0, dtype=d.float32, name=None,
                               alg="auto_select"):
    """Normal values more than two standard deviations from the mean redrawn."""
    dtype = d.as_dtype(dtype)
    rnd = bind(stateless_truncated_normal_op, (_shape(shape), _seed(seed)), {"dtype": dtype})
    return add(multiply(rnd, convert_to_tensor(stddev, dtype=dtype)),
               convert_to_tensor(mean, dtype=dtype), name=name)


def _noise_shape(x, noise_shape):
    """`noise_shape` with its None dims taken from `x`'s shape (TF's `_get_noise_shape`)."""
    if noise_shape is None:
        return shape_of(x)
    if isinstance(noise_shape, (list, tuple)) and any(n is None for n in noise_shape):
        dims = x.shape
        if dims.rank is not None and len(noise_shape) == dims.rank and all(
                n is not None or dims[i] is not None for i, n in enumerate(noise_shape)):
            return [dims[i] if n is None else n for i, n in enumerate(noise_shape)]
        full = shape_of(x)
        return [full[i] if n is None else n for i, n in enumerate(noise_shape)]
    return noise_shape


def stateless_dropout(x, rate, seed, rng_alg=None, noise_shape=None, name=None):
    """Zeroes each element with probability `rate` (the same ones for the same seed) and
    scales the rest by `1 / (1 - rate)`, as TensorFlow's: keeps where a stateless uniform
    draw of `noise_shape` (default: x's shape, broadcast) is >= rate."""
    x = convert_to_tensor(x)
    if not x.dtype.is_floating:
        raise ValueError(f"`x.dtype` must be a floating point tensor. Received: "
                         f"x.dtype={x.dtype!r}")
    if isinstance(rate, (int, float)) and not 0 <= rate < 1:
        raise ValueError(f"`rate` must be a scalar tensor or a float in the range [0, 1). "
                         f"Received: rate={rate}")
    if isinstance(rate, (int, float)):
        scaled = multiply(x, convert_to_tensor(1 / (1 - rate), dtype=x.dtype))
    else:
        rate = convert_to_tensor(rate, dtype=x.dtype)
        scaled = multiply(x, 1 / (1 - rate))
    draw = stateless_uniform(_noise_shape(x, noise_shape), seed=seed, dtype=x.dtype)
    keep = greater_equal(draw, rate)
    return where(keep, scaled, convert_to_tensor(0, dtype=x.dtype), name=name)
