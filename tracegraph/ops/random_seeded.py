"""Stateless random ops, TensorFlow 1's form: a `seed` input of two integers instead of a key
and counter (the seed is scrambled into them exactly as `StatelessRandomGetKeyCounter` does, so
`StatelessRandomNormal(shape, seed)` equals `StatelessRandomNormalV2` of that key and counter).
`tf.random.stateless_categorical` still draws with one of them (`StatelessMultinomial`); the
others are here for graphs and saved models TensorFlow wrote.
"""

from __future__ import annotations

import numpy as np

from .. import config, thread_budget
from .. import dtypes as d
from ..errors import InvalidArgumentError
from ..shapes import TensorType, format_dims
from . import infer as I
from . import random_distributions as dist
from .philox import words
from .random_stateless import (
    FLOATS,
    INTS,
    check_output_dtype,
    dims_type,
    draw_dims,
    draw_int,
    numpy_kind,
    seed_stream,
)
from .registry import FLOAT, INDEX, TypeAttr, defop

_INPUTS = ("shape: T", "seed: Tseed")
_INDEX_ATTRS = {"T": TypeAttr(INDEX, d.int32), "Tseed": TypeAttr(INDEX, d.int64)}


def infer_float(shape, seed, dtype=d.float32):
    check_output_dtype(dtype, FLOATS)
    return dims_type(dtype, shape)


def infer_full_int(shape, seed, dtype=d.uint64):
    check_output_dtype(dtype, INTS)
    return dims_type(dtype, shape)


def _draw(distribution):
    def kernel(shape, seed, dtype=d.float32):
        dims = draw_dims(shape, dtype)
        n = int(np.prod(dims, dtype=np.int64))
        return distribution(seed_stream(seed), n, numpy_kind(dtype)).reshape(dims)
    kernel.__name__ = f"kernel_{distribution.__name__}"
    return kernel


def kernel_full_int(shape, seed, dtype=d.uint64):
    dims = draw_dims(shape, dtype)
    n = int(np.prod(dims, dtype=np.int64))
    return dist.full_int(seed_stream(seed), n, dtype.as_numpy_dtype).reshape(dims)


def infer_int(shape, seed, minval, maxval):
    return dims_type(minval.dtype, shape)


def kernel_int(shape, seed, minval, maxval):
    dtype = d.NUMPY_TO_DTYPE[np.asarray(minval).dtype]
    return draw_int(seed_stream(seed), draw_dims(shape, dtype), minval, maxval, dtype)


def _float_op(name, tf_type, distribution):
    return defop(name, tf_type, inputs=_INPUTS, attrs={**_INDEX_ATTRS, "dtype": d.float32},
                 infer=infer_float, kernel=_draw(distribution), flags={"pure"})


stateless_random_uniform_op = _float_op(
    "stateless_random_uniform", "StatelessRandomUniform", dist.uniform)
stateless_random_normal_op = _float_op(
    "stateless_random_normal", "StatelessRandomNormal", dist.normal)
stateless_truncated_normal_op = _float_op(
    "stateless_truncated_normal", "StatelessTruncatedNormal", dist.truncated_normal)
stateless_random_uniform_full_int_op = defop(
    "stateless_random_uniform_full_int", "StatelessRandomUniformFullInt", inputs=_INPUTS,
    attrs={**_INDEX_ATTRS, "dtype": d.uint64}, infer=infer_full_int, kernel=kernel_full_int,
    flags={"pure"})
stateless_random_uniform_int_op = defop(
    "stateless_random_uniform_int", "StatelessRandomUniformInt",
    inputs=(*_INPUTS, "minval: dtype", "maxval: dtype"),
    attrs={**_INDEX_ATTRS, "dtype": TypeAttr(frozenset({d.int32, d.int64}))},
    infer=infer_int, kernel=kernel_int, flags={"pure"})


# ---- categorical samples ---------------------------------------------------------------------

def infer_multinomial(logits, num_samples, seed, output_dtype=d.int64):
    if logits.shape is not None and len(logits.shape) != 2:
        raise ValueError(f"logits should be a matrix, got shape {format_dims(logits.shape)}")
    n = I.known_ints(num_samples)
    batch = None if logits.shape is None else logits.shape[0]
    return TensorType(output_dtype, (batch, None if n is None else n[0]))


def _check_multinomial(logits: np.ndarray, num_samples: int) -> None:
    if logits.ndim != 2:
        raise InvalidArgumentError(f"logits should be a matrix, got shape "
                                   f"{format_dims(logits.shape)}")
    if num_samples < 0:
        raise InvalidArgumentError(f"num_samples should be non-negative, got {num_samples}")
    if logits.shape[1] <= 0 and logits.shape[0] > 0:
        raise InvalidArgumentError(f"num_classes should be positive, got {logits.shape[1]}")


def _row_blocks(rows: int, cost: int, threads: int) -> list[int]:
    """Where TensorFlow's CPU kernel starts each part of a batch of `rows` rows costing `cost`
    cycles each, split over `threads` threads (Eigen's `parallelFor`: one part when the work is
    small, else parts of a common size, about four per thread, made coarser while that keeps
    the threads as busy)."""
    total = rows * cost
    wanted = int((total - 100_000) / 100_000 + 0.9)
    if rows <= 1 or threads <= 1 or min(threads, max(1, wanted)) == 1:
        return [0]
    size = min(rows, max(-(-rows // (4 * threads)), int(40_000 / cost) if cost else rows))
    largest = min(rows, 2 * size)
    count = -(-rows // size)
    best = count / (-(-count // threads) * threads)
    previous = count
    while best < 1.0 and previous > 1:
        coarser = -(-rows // (previous - 1))
        if coarser > largest:
            break
        coarser_count = -(-rows // coarser)
        previous = coarser_count
        efficiency = coarser_count / (-(-coarser_count // threads) * threads)
        if efficiency + 0.01 >= best:
            size, count, best = coarser, coarser_count, max(best, efficiency)
    return list(range(0, rows, size))


def _cpu_threads() -> int:
    return config.get_intra_op_parallelism_threads() or thread_budget.cores()


def kernel_multinomial(logits, num_samples, seed, output_dtype=d.int64):
    """TensorFlow's CPU sampler: per row, the unnormalized CDF of exp(logit - max) over the
    finite logits (in float64), and each sample the first class whose CDF exceeds a uniform
    float64 (two words) times the total. TensorFlow splits the batch into parts over its
    threads; a part starting at row `r` restarts the stream `r * (num_samples + 3) // 4` blocks
    on and its rows continue it. The parts are computed as TensorFlow computes them for this
    machine's thread count (`tf.config.threading`'s intra-op setting, or the cores)."""
    logits = np.asarray(logits)
    n = int(num_samples)
    _check_multinomial(logits, n)
    batch, classes = logits.shape
    out = np.zeros((batch, n), output_dtype.as_numpy_dtype)
    if batch == 0 or n == 0:
        return out
    finite = np.isfinite(logits)
    top = np.where(finite, logits, -np.inf).max(axis=1).astype(np.float64)
    with np.errstate(all="ignore"):   # rows without a finite logit: every weight is 0
        weights = np.where(finite, np.exp(logits.astype(np.float64) - top[:, None]), 0.0)
    cdf = np.cumsum(weights, axis=1)
    stream = seed_stream(seed)
    cost = int(50 * (n * np.log(classes) / np.log(2) + classes))
    starts = _row_blocks(batch, cost, _cpu_threads())
    for start, stop in zip(starts, starts[1:] + [batch]):
        w = words(stream, 2 * n * (stop - start), start * (n + 3) // 4)
        u = dist.unit_float64(w[0::2], w[1::2]).reshape(stop - start, n)
        for row in range(start, stop):
            out[row] = np.searchsorted(cdf[row], u[row - start] * cdf[row, -1], side="right")
    return out


stateless_multinomial_op = defop(
    "stateless_multinomial", "StatelessMultinomial",
    inputs=("logits: T", "num_samples: int32", "seed: Tseed"),
    attrs={"T": TypeAttr(FLOAT), "Tseed": TypeAttr(INDEX, d.int64), "output_dtype": d.int64},
    infer=infer_multinomial, kernel=kernel_multinomial, flags={"pure"})
