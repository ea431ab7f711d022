"""`tf.random.stateless_*`, `tf.random.split`/`fold_in` and
`tf.nn.experimental.stateless_dropout`: random values decided by a `seed` of two integers (a
list, or an int32/int64 tensor of shape [2]) and nothing else, TensorFlow's own numbers. Each
function is composed of the ops TensorFlow's is made of (`StatelessRandomGetKeyCounter`, a
`...V2` draw, then the scaling arithmetic), so graphs read like TensorFlow's and values agree
bit for bit.
"""

from __future__ import annotations

import numbers

from .. import dtypes as d
from ..ops.random_seeded import stateless_multinomial_op
from ..ops.random_stateless import (
    stateless_random_normal_v2_op,
    stateless_random_uniform_full_int_v2_op,
    stateless_random_uniform_int_v2_op,
    stateless_random_uniform_v2_op,
    stateless_truncated_normal_v2_op,
)
from ..ops.registry import bind, convert_to_tensor
from .array import shape as shape_of
from .array import shape_arg
from .indexing import where
from .join_split import stack
from .math import add, cast, greater_equal, multiply, subtract, truediv
from .random_algorithm import key_counter_alg

__all__ = ["stateless_uniform", "stateless_normal", "stateless_truncated_normal",
           "stateless_categorical", "split", "fold_in", "stateless_dropout", "shape_input"]

_UNIFORM_DTYPES = (d.float16, d.bfloat16, d.float32, d.float64, d.int32, d.int64, d.uint32,
                   d.uint64)


def shape_input(shape):
    """A shape argument as the ops take it (an empty list is an int32 vector, as in TF)."""
    return shape_arg(shape) if isinstance(shape, (list, tuple)) or hasattr(shape, "as_list") \
        else shape


def stateless_uniform(shape, seed, minval=0, maxval=None, dtype=d.float32, name=None,
                      alg="auto_select"):
    """Uniform values in [minval, maxval). Integer dtypes take both bounds (values are
    `minval + bits % (maxval - minval)`, slightly biased unless the span is a power of two) or
    neither (the whole range of the dtype)."""
    dtype = d.as_dtype(dtype)
    if dtype not in _UNIFORM_DTYPES:
        raise ValueError(f"Argument `dtype` got invalid value {dtype}. Accepted dtypes are "
                         f"({', '.join(repr(t) for t in _UNIFORM_DTYPES)}).")
    if dtype.is_integer:
        if (minval is None) != (maxval is None):
            raise ValueError(f"For integer `dtype` argument {dtype}, argument `minval` and "
                             f"`maxval` must be both None or not None. Got `minval`={minval} "
                             f"and `maxval`={maxval}.")
        if minval is not None and dtype in (d.uint32, d.uint64):
            raise ValueError(f"Argument `dtype` got invalid value {dtype} when argument "
                             f"`minval` is not None. Please don't use unsigned integers in "
                             f"this case.")
    elif maxval is None:
        maxval = 1
    shape = shape_input(shape)
    if dtype.is_integer and minval is None:
        key, counter, alg = key_counter_alg(seed, alg)
        return bind(stateless_random_uniform_full_int_v2_op, (shape, key, counter, alg),
                    {"dtype": dtype}, name)
    minval = convert_to_tensor(minval, dtype=dtype, name="min")
    maxval = convert_to_tensor(maxval, dtype=dtype, name="max")
    key, counter, alg = key_counter_alg(seed, alg)
    if dtype.is_integer:
        return bind(stateless_random_uniform_int_v2_op,
                    (shape, key, counter, alg, minval, maxval), {}, name)
    rnd = bind(stateless_random_uniform_v2_op, (shape, key, counter, alg), {"dtype": dtype})
    return add(multiply(rnd, subtract(maxval, minval)), minval, name=name)


def _scaled_draw(op, shape, seed, mean, stddev, dtype, name, alg):
    dtype = d.as_dtype(dtype)
    shape = shape_input(shape)
    mean = convert_to_tensor(mean, dtype=dtype, name="mean")
    stddev = convert_to_tensor(stddev, dtype=dtype, name="stddev")
    key, counter, alg = key_counter_alg(seed, alg)
    rnd = bind(op, (shape, key, counter, alg), {"dtype": dtype})
    return add(multiply(rnd, stddev), mean, name=name)


def stateless_normal(shape, seed, mean=0.0, stddev=1.0, dtype=d.float32, name=None,
                     alg="auto_select"):
    """Normal values (Box-Muller on Philox words, as TensorFlow's)."""
    return _scaled_draw(stateless_random_normal_v2_op, shape, seed, mean, stddev, dtype, name,
                        alg)


def stateless_truncated_normal(shape, seed, mean=0.0, stddev=1.0, dtype=d.float32, name=None,
                               alg="auto_select"):
    """Normal values, those more than two standard deviations from the mean redrawn."""
    return _scaled_draw(stateless_truncated_normal_v2_op, shape, seed, mean, stddev, dtype,
                        name, alg)


def stateless_categorical(logits, num_samples, seed, dtype=d.int64, name=None):
    """`num_samples` class indices per row of `logits` (unnormalized log-probabilities)."""
    logits = convert_to_tensor(logits, name="logits")
    dtype = d.as_dtype(dtype) if dtype else d.int64
    accepted = (d.int32, d.int64)
    if dtype not in accepted:
        raise ValueError(f"Argument `dtype` got invalid value {dtype}. Accepted dtypes are "
                         f"({', '.join(repr(t) for t in accepted)}).")
    return bind(stateless_multinomial_op, (logits, num_samples, seed),
                {"output_dtype": dtype}, name)


def split(seed, num=2, alg="auto_select"):
    """`num` new seeds from `seed` (`tf.random.split`, `tf.random.experimental.stateless_split`):
    a [num, 2] tensor of `seed`'s dtype."""
    seed = convert_to_tensor(seed)
    return stateless_uniform([num, 2], seed, minval=None, maxval=None, dtype=seed.dtype, alg=alg)


def fold_in(seed, data, alg="auto_select"):
    """A new seed from `seed` and an integer `data` (`tf.random.fold_in`)."""
    data = convert_to_tensor(data)
    seed1 = stateless_uniform([], seed, minval=None, maxval=None, dtype=data.dtype, alg=alg)
    return stack([seed1, data])


def _noise_shape(x, noise_shape):
    """`noise_shape` with its None dims taken from `x`'s static shape (TF's
    `_get_noise_shape`)."""
    if noise_shape is None:
        return shape_of(x)
    if isinstance(noise_shape, (list, tuple)) or hasattr(noise_shape, "as_list"):
        dims = list(noise_shape.as_list() if hasattr(noise_shape, "as_list") else noise_shape)
        static = x.shape
        if static.rank is not None and len(dims) == static.rank:
            return [static[i] if n is None and static[i] is not None else n
                    for i, n in enumerate(dims)]
    return noise_shape


def stateless_dropout(x, rate, seed, rng_alg=None, noise_shape=None, name=None):
    """Zeroes each element with probability `rate` (the same elements for the same seed) and
    scales the others by `1 / (1 - rate)`: kept where a stateless uniform draw of
    `noise_shape` (default: x's shape) is >= rate."""
    is_number = isinstance(rate, numbers.Real) and not isinstance(rate, bool)
    if is_number and not 0 <= rate < 1:
        raise ValueError(f"`rate` must be a scalar tensor or a float in the range [0, 1). "
                         f"Received: rate={rate}")
    x = convert_to_tensor(x, name="x")
    if not x.dtype.is_floating:
        raise ValueError(f"`x.dtype` must be a floating point tensor as `x` will be scaled. "
                         f"Received: x_dtype={x.dtype}")
    if is_number and rate == 0:
        return x
    if is_number:
        kept = multiply(x, convert_to_tensor(1 / (1 - rate), dtype=x.dtype))
    elif isinstance(getattr(rate, "dtype", None), d.DType):
        if rate.shape.rank not in (None, 0):
            raise ValueError(f"Shape {rate.shape} must have rank 0")
        if rate.dtype != x.dtype:
            rate = cast(rate, x.dtype, name="rate")
        kept = truediv(x, subtract(convert_to_tensor(1, dtype=x.dtype), rate))
    else:
        raise ValueError(f"`rate` must be a scalar or scalar tensor. Received: rate={rate}")
    draw = stateless_uniform(_noise_shape(x, noise_shape), seed=seed, dtype=x.dtype,
                             alg=rng_alg)
    keep = greater_equal(draw, rate)
    return where(keep, kept, convert_to_tensor(0, dtype=x.dtype), name=name)
