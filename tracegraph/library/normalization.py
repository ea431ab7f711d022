"""Statistics for normalization as TensorFlow writes them: `moments` (float16 computed in
float32; the variance about a mean it does not differentiate through), `weighted_moments`,
`sufficient_statistics` and `normalize_moments`; and `local_response_normalization` (`LRN`)."""

from __future__ import annotations

import numpy as np

from .. import dtypes as d
from ..ops.nn import lrn_op
from ..ops.registry import bind, convert_to_tensor
from .array import shape, size, squeeze, stop_gradient, zeros_like
from .indexing import gather
from .math import (
    add,
    cast,
    divide,
    divide_no_nan,
    multiply,
    reciprocal,
    square,
    squared_difference,
    subtract,
)
from .nn import batch_normalization
from .reduce import count_nonzero, reduce_mean, reduce_prod, reduce_sum

__all__ = ["moments", "weighted_moments", "sufficient_statistics", "normalize_moments",
           "local_response_normalization", "batch_norm_with_global_normalization",
           "zero_fraction"]


def _keepdims(keepdims, keep_dims):
    if keepdims is not None and keep_dims is not None:
        raise ValueError("Cannot specify both 'keepdims' and 'keep_dims'")
    return bool(keepdims if keepdims is not None else keep_dims)


def moments(x, axes, shift=None, keepdims=False, name=None, keep_dims=None):
    """(mean, variance) of `x` over `axes` (`shift` is accepted and unused, as in TF 2)."""
    keepdims = _keepdims(keepdims if keepdims is not False else None, keep_dims)
    x = convert_to_tensor(x)
    y = cast(x, d.float32) if x.dtype == d.float16 else x
    mean = reduce_mean(y, axes, keepdims=True)
    variance = reduce_mean(squared_difference(y, stop_gradient(mean)), axes, keepdims=True)
    if not keepdims:
        mean, variance = squeeze(mean, axes), squeeze(variance, axes)
    if x.dtype == d.float16:
        return cast(mean, d.float16), cast(variance, d.float16)
    return mean, variance


def weighted_moments(x, axes, frequency_weights, keepdims=False, name=None, keep_dims=None):
    """(mean, variance) of `x` over `axes`, each value counted `frequency_weights` times
    (weights broadcast against `x`; an all-zero weight gives 0, not NaN)."""
    keepdims = _keepdims(keepdims if keepdims is not False else None, keep_dims)
    x = convert_to_tensor(x)
    needs_cast = x.dtype == d.float16
    if needs_cast:
        x = cast(x, d.float32)
    weights = convert_to_tensor(frequency_weights)
    if weights.dtype != x.dtype:
        weights = cast(weights, x.dtype)
    weighted_sum = reduce_sum(multiply(weights, x), axes, keepdims=True)
    total_weight = reduce_sum(add(weights, zeros_like(x)), axes, keepdims=True)
    mean = divide_no_nan(weighted_sum, total_weight)
    distances = reduce_sum(multiply(weights, squared_difference(x, mean)), axes, keepdims=True)
    variance = divide_no_nan(distances, total_weight)
    if not keepdims:
        mean, variance = squeeze(mean, axes), squeeze(variance, axes)
    if needs_cast:
        mean, variance = cast(mean, d.float16), cast(variance, d.float16)
    return mean, variance


def sufficient_statistics(x, axes, shift=None, keepdims=None, name=None, keep_dims=None):
    """(count, sum of x - shift, sum of (x - shift)^2, shift) over `axes`."""
    axes = list(set(axes))
    keepdims = _keepdims(keepdims, keep_dims)
    x = convert_to_tensor(x)
    dims = x.shape.as_list() if x.shape.rank is not None else None
    if dims is not None and all(dims[a] is not None for a in axes):
        counts = convert_to_tensor(np.prod([dims[a] for a in axes], dtype=np.int64),
                                   dtype=x.dtype)
    else:
        rank = len(dims) if dims is not None else None
        if rank is None:
            raise ValueError("sufficient_statistics needs the rank of x known")
        counts = reduce_prod(gather(cast(shape(x), x.dtype), [a % rank for a in axes]))
    if shift is not None:
        shift = convert_to_tensor(shift, dtype=x.dtype)
        m_ss, v_ss = subtract(x, shift), squared_difference(x, shift)
    else:
        m_ss, v_ss = x, square(x)
    m_ss = reduce_sum(m_ss, axes, keepdims=keepdims)
    v_ss = reduce_sum(v_ss, axes, keepdims=keepdims)
    return counts, m_ss, v_ss, shift


def normalize_moments(counts, mean_ss, variance_ss, shift, name=None):
    """(mean, variance) from `sufficient_statistics`."""
    divisor = reciprocal(counts)
    shifted_mean = multiply(mean_ss, divisor)
    mean = shifted_mean if shift is None else add(shifted_mean, shift)
    variance = subtract(multiply(variance_ss, divisor), square(shifted_mean))
    return mean, variance


def local_response_normalization(input, depth_radius=5, bias=1.0, alpha=1.0,  # noqa: A002
                                 beta=0.5, name=None):
    """x / (bias + alpha * sum(x^2 over the `depth_radius` channels on each side))^beta."""
    return bind(lrn_op, (input,), {"depth_radius": int(depth_radius), "bias": float(bias),
                                   "alpha": float(alpha), "beta": float(beta)}, name)


def batch_norm_with_global_normalization(input, mean, variance, beta, gamma,  # noqa: A002
                                         variance_epsilon, scale_after_normalization,
                                         name=None):
    """`batch_normalization` with offset `beta`, scaled by `gamma` only when
    `scale_after_normalization`."""
    return batch_normalization(input, mean, variance, beta,
                               gamma if scale_after_normalization else None, variance_epsilon,
                               name)


def zero_fraction(value, name=None):
    """The fraction of `value`'s elements that are zero, as float32 (NaN when empty)."""
    value = convert_to_tensor(value)
    total = size(value, out_type=d.int64)
    zeros = subtract(total, count_nonzero(value, dtype=d.int64))
    return divide(cast(zeros, d.float32), cast(total, d.float32), name=name)
