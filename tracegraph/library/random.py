"""The TensorFlow-style functions of the random family, built from its op records."""

from __future__ import annotations

from .. import config
from .. import dtypes as d
from ..ops.random import (
    check_seed,
    get_seed,
    multinomial_op,
    random_normal_op,
    random_shuffle_op,
    random_uniform_int_op,
    random_uniform_op,
    truncated_normal_op,
)
from ..ops.registry import (
    bind,
    convert_to_tensor,
)
from .array import shape_arg
from .math import add, multiply, subtract

# ---- (tf.random) ---------------------------------------------------------------


def set_seed(seed):
    """`tf.random.set_seed`: makes random ops reproducible from here on."""
    check_seed(seed)
    config.set_global_seed(seed)


def _seed_attrs(seed):
    s1, s2 = get_seed(seed)
    return {"seed": s1, "seed2": s2}


def _shape_input(shape):
    return shape_arg(shape) if isinstance(shape, (list, tuple)) or hasattr(shape, "as_list") \
        else shape


_UNIFORM_DTYPES = (d.float16, d.bfloat16, d.float32, d.float64, d.int32, d.int64)


def uniform(shape, minval=0, maxval=None, dtype=d.float32, seed=None, name=None):
    """Uniform values in [minval, maxval); integer dtypes need `maxval`."""
    dtype = d.as_dtype(dtype)
    if dtype not in _UNIFORM_DTYPES:
        accepted = ", ".join(repr(t) for t in _UNIFORM_DTYPES)
        raise ValueError(f"Argument `dtype` got invalid value {dtype}. Accepted dtypes are "
                         f"({accepted}).")
    shape = _shape_input(shape)
    if dtype.is_integer:
        if maxval is None:
            raise ValueError(f"Must specify maxval for integer dtype {dtype!r}")
        return bind(random_uniform_int_op, (shape, convert_to_tensor(minval, dtype=dtype),
                                            convert_to_tensor(maxval, dtype=dtype)),
                    _seed_attrs(seed), name)
    maxval = 1 if maxval is None else maxval
    rnd = bind(random_uniform_op, (shape,), {"dtype": dtype, **_seed_attrs(seed)}, None)
    if _is_python_number(minval, 0):
        if _is_python_number(maxval, 1):
            return rnd
        return multiply(rnd, convert_to_tensor(maxval, dtype=dtype), name=name)
    lo = convert_to_tensor(minval, dtype=dtype)
    hi = convert_to_tensor(maxval, dtype=dtype)
    return add(multiply(rnd, subtract(hi, lo)), lo, name=name)


def _is_python_number(x, value) -> bool:
    return isinstance(x, (int, float)) and not isinstance(x, bool) and x == value


def normal(shape, mean=0.0, stddev=1.0, dtype=d.float32, seed=None, name=None):
    dtype = d.as_dtype(dtype)
    mean = convert_to_tensor(mean, dtype=dtype)
    stddev = convert_to_tensor(stddev, dtype=dtype)
    rnd = bind(random_normal_op, (_shape_input(shape),), {"dtype": dtype, **_seed_attrs(seed)})
    return add(multiply(rnd, stddev), mean, name=name)


def truncated_normal(shape, mean=0.0, stddev=1.0, dtype=d.float32, seed=None, name=None):
    dtype = d.as_dtype(dtype)
    mean = convert_to_tensor(mean, dtype=dtype)
    stddev = convert_to_tensor(stddev, dtype=dtype)
    rnd = bind(truncated_normal_op, (_shape_input(shape),),
               {"dtype": dtype, **_seed_attrs(seed)})
    return add(multiply(rnd, stddev), mean, name=name)


def shuffle(value, seed=None, name=None):
    return bind(random_shuffle_op, (value,), _seed_attrs(seed), name)


def categorical(logits, num_samples, dtype=None, seed=None, name=None):
    out = d.int64 if dtype is None else d.as_dtype(dtype)
    return bind(multinomial_op, (logits, num_samples),
                {**_seed_attrs(seed), "output_dtype": out}, name)
