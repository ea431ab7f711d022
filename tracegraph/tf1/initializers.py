"""TF1's initializers (`tf.compat.v1.zeros_initializer()` and friends): objects called with a
shape and dtype that return the initial value, as ops of the graph being built (or eagerly).

Their values follow TensorFlow's definitions (constants exactly; random ones by distribution:
the random streams are tracegraph's)."""

from __future__ import annotations

import math

import numpy as np

from .. import dtypes as d
from ..library import random as random_ops
from ..library.array import constant, fill, zeros

__all__ = ["Initializer", "zeros_initializer", "ones_initializer", "constant_initializer",
           "random_uniform_initializer", "random_normal_initializer",
           "truncated_normal_initializer", "glorot_uniform_initializer",
           "glorot_normal_initializer", "variance_scaling_initializer", "default_initializer"]


class Initializer:
    """A callable `(shape, dtype=None, partition_info=None)` -> initial value."""

    def __init__(self, dtype=d.float32):
        self.dtype = d.as_dtype(dtype)

    def _dtype(self, dtype):
        return self.dtype if dtype is None else d.as_dtype(dtype)

    def get_config(self) -> dict:
        return {"dtype": self.dtype.name}


class zeros_initializer(Initializer):  # noqa: N801 - TensorFlow's names
    def __call__(self, shape, dtype=None, partition_info=None):
        return zeros(list(shape), self._dtype(dtype))


class ones_initializer(Initializer):  # noqa: N801
    def __call__(self, shape, dtype=None, partition_info=None):
        return fill(list(shape), constant(1, self._dtype(dtype)))


class constant_initializer(Initializer):  # noqa: N801
    def __init__(self, value=0, dtype=d.float32, verify_shape=False):
        super().__init__(dtype)
        self.value = value

    def __call__(self, shape, dtype=None, partition_info=None, verify_shape=None):
        dtype = self._dtype(dtype)
        value = np.asarray(self.value)
        if value.ndim == 0:
            return fill(list(shape), constant(value, dtype))
        size = math.prod(shape)
        if value.size > size:
            raise TypeError(f"Too many elements provided. Needed at most {size}, but received "
                            f"{value.size}")
        # TF1: a list shorter than the shape is padded with its last value
        flat = np.concatenate([value.reshape(-1), np.repeat(value.reshape(-1)[-1:],
                                                            size - value.size)])
        return constant(flat.reshape(tuple(shape)), dtype)

    def get_config(self) -> dict:
        return {"value": self.value, "dtype": self.dtype.name}


class random_uniform_initializer(Initializer):  # noqa: N801
    def __init__(self, minval=-0.05, maxval=0.05, seed=None, dtype=d.float32):
        super().__init__(dtype)
        self.minval, self.maxval, self.seed = minval, maxval, seed

    def __call__(self, shape, dtype=None, partition_info=None):
        return random_ops.uniform(list(shape), self.minval, self.maxval, self._dtype(dtype),
                                  seed=self.seed)


class random_normal_initializer(Initializer):  # noqa: N801
    def __init__(self, mean=0.0, stddev=1.0, seed=None, dtype=d.float32):
        super().__init__(dtype)
        self.mean, self.stddev, self.seed = mean, stddev, seed

    def __call__(self, shape, dtype=None, partition_info=None):
        return random_ops.normal(list(shape), self.mean, self.stddev, self._dtype(dtype),
                                 seed=self.seed)


class truncated_normal_initializer(random_normal_initializer):  # noqa: N801
    def __call__(self, shape, dtype=None, partition_info=None):
        return random_ops.truncated_normal(list(shape), self.mean, self.stddev,
                                           self._dtype(dtype), seed=self.seed)


class variance_scaling_initializer(Initializer):  # noqa: N801
    """Samples scaled by `scale / n`, n the fan-in, fan-out or their mean (`mode`)."""

    def __init__(self, scale=1.0, mode="fan_in", distribution="truncated_normal", seed=None,
                 dtype=d.float32):
        if scale <= 0.0:
            raise ValueError(f"Argument `scale` must be a positive float. Received: {scale}")
        if mode not in ("fan_in", "fan_out", "fan_avg"):
            raise ValueError(f"Argument `mode` should be one of ('fan_in', 'fan_out', "
                             f"'fan_avg'). Received: {mode}")
        if distribution == "normal":
            distribution = "truncated_normal"
        if distribution not in ("uniform", "truncated_normal", "untruncated_normal"):
            raise ValueError(f"Argument `distribution` should be one of ('uniform', "
                             f"'truncated_normal', 'untruncated_normal'). Received: "
                             f"{distribution}")
        super().__init__(dtype)
        self.scale, self.mode, self.distribution, self.seed = scale, mode, distribution, seed

    def __call__(self, shape, dtype=None, partition_info=None):
        dtype = self._dtype(dtype)
        fan_in, fan_out = _fans(list(shape))
        n = {"fan_in": fan_in, "fan_out": fan_out, "fan_avg": (fan_in + fan_out) / 2.0}
        scale = self.scale / max(1.0, n[self.mode])
        if self.distribution == "truncated_normal":
            # the stddev of a normal truncated at two stddevs is 0.8796... of the normal's
            stddev = math.sqrt(scale) / 0.87962566103423978
            return random_ops.truncated_normal(list(shape), 0.0, stddev, dtype, seed=self.seed)
        if self.distribution == "untruncated_normal":
            return random_ops.normal(list(shape), 0.0, math.sqrt(scale), dtype, seed=self.seed)
        limit = math.sqrt(3.0 * scale)
        return random_ops.uniform(list(shape), -limit, limit, dtype, seed=self.seed)


class glorot_uniform_initializer(variance_scaling_initializer):  # noqa: N801
    def __init__(self, seed=None, dtype=d.float32):
        super().__init__(1.0, "fan_avg", "uniform", seed, dtype)


class glorot_normal_initializer(variance_scaling_initializer):  # noqa: N801
    def __init__(self, seed=None, dtype=d.float32):
        super().__init__(1.0, "fan_avg", "truncated_normal", seed, dtype)


def _fans(shape: list) -> tuple[float, float]:
    if not shape:
        return 1.0, 1.0
    if len(shape) == 1:
        return float(shape[0]), float(shape[0])
    if len(shape) == 2:
        return float(shape[0]), float(shape[1])
    receptive = math.prod(shape[:-2])   # convolution kernels: (..., in, out)
    return float(shape[-2] * receptive), float(shape[-1] * receptive)


def default_initializer(name: str, dtype: d.DType):
    """`get_variable`'s initializer when none is given: Glorot uniform for floats, zeros for
    integers, booleans and strings (TensorFlow's rule)."""
    if dtype.is_floating:
        return glorot_uniform_initializer()
    if dtype.is_integer or dtype is d.bool or dtype is d.string:
        return zeros_initializer()
    raise ValueError(f"An initializer for variable {name} of {dtype.name} is required")
