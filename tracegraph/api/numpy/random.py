"""`tf.experimental.numpy.random`: NumPy's random functions on TensorFlow's random ops (the
global seed is `tf.random.set_seed`'s; floats are the default float, float64 unless
`prefer_float32`)."""

from __future__ import annotations

import numpy as np

from ... import dtypes as d
from ...library import math as tm
from ...library import random as tr
from ...library import reduce as tred
from .arrays import default_float

__all__ = ["seed", "randn", "standard_normal", "normal", "uniform", "rand", "random",
           "randint", "poisson"]


def seed(s):
    """Seeds the global random state (as `tf.random.set_seed`)."""
    tr.set_seed(int(s))


def _shape(size):
    if size is None:
        return []
    return [int(size)] if np.ndim(size) == 0 else [int(s) for s in size]


def standard_normal(size=None):
    return tr.normal(_shape(size), dtype=default_float())


def randn(*args):
    return standard_normal(args)


def normal(loc=0.0, scale=1.0, size=None):
    dtype = default_float()
    return tm.add(tm.multiply(tr.normal(_shape(size), dtype=dtype), tm.cast(scale, dtype)),
                  tm.cast(loc, dtype))


def uniform(low=0.0, high=1.0, size=None):
    dtype = default_float()
    return tr.uniform(_shape(size), minval=tm.cast(low, dtype), maxval=tm.cast(high, dtype),
                      dtype=dtype)


def random(size=None):
    return uniform(0.0, 1.0, size)


def rand(*size):
    return uniform(0.0, 1.0, size)


def randint(low, high=None, size=None, dtype=d.int64):
    if high is None:
        low, high = 0, low
    dtype = d.as_dtype(dtype if dtype is not int else d.int64)
    return tr.uniform(_shape(size), minval=low, maxval=high, dtype=dtype)


def poisson(lam=1.0, size=None):
    """Poisson samples by inversion of uniform draws (exact for each draw; small `lam`)."""
    lam = np.asarray(lam, np.float64)
    shape = _shape(size)
    bound = int(lam.max() + 10 * np.sqrt(lam.max()) + 10)
    ks = np.arange(bound + 1)
    log_pmf = ks * np.log(lam) - lam - np.cumsum(np.log(np.maximum(ks, 1)))
    cdf = np.cumsum(np.exp(log_pmf))
    u = tr.uniform(shape + [1], dtype=d.float64)
    return tred.reduce_sum(tm.cast(tm.greater(u, cdf), d.int64), axis=-1)
