"""Counting records: `DenseBincount` (how often each value occurs, optionally weighted, per row
of a matrix too) and `InTopKV2` (whether each target's prediction ranks in the top k)."""

from __future__ import annotations

import numpy as np

from .. import dtypes as d
from ..errors import InvalidArgumentError
from ..shapes import TensorType, format_dims
from .registry import INDEX, TypeAttr, defop

__all__ = ["dense_bincount_op", "in_top_k_op"]

_COUNTS = frozenset({d.int32, d.int64, d.float32, d.float64})


def _size_of(size):
    n = int(np.asarray(size))
    if n < 0:
        raise InvalidArgumentError(f"size ({n}) must be non-negative")
    return n


def kernel_dense_bincount(input, size, weights, binary_output=False):  # noqa: A002
    x = np.asarray(input)
    w = np.asarray(weights)
    n = _size_of(size)
    if x.ndim not in (1, 2):
        raise InvalidArgumentError(f"Shape must be at most rank 2 but is rank {x.ndim}")
    if w.size and w.shape != x.shape:
        raise InvalidArgumentError(f"`weights` must be the same shape as `arr` or a length-0 "
                                   f"`Tensor`, in which case it acts as all weights equal to "
                                   f"1. Received: {format_dims(w.shape)}")
    if (x < 0).any():
        raise InvalidArgumentError("Input arr must be non-negative!")
    rows = x.reshape(-1, x.shape[-1]) if x.ndim == 2 else x.reshape(1, -1)
    weight_rows = None if not w.size else w.reshape(rows.shape)
    out = np.zeros((rows.shape[0], n), dtype=w.dtype)
    for i, row in enumerate(rows):
        keep = row < n   # values past the size are dropped
        if binary_output:
            out[i, row[keep]] = 1
        elif weight_rows is None:
            out[i] = np.bincount(row[keep], minlength=n)[:n]
        else:
            out[i] = np.bincount(row[keep], weights=weight_rows[i][keep], minlength=n)[:n]
    return out if x.ndim == 2 else out[0]


def infer_dense_bincount(input, size, weights, binary_output=False):  # noqa: A002
    n = None if size.value is None else int(np.asarray(size.value))
    if input.shape is None:
        return TensorType(weights.dtype, None)
    if len(input.shape) > 2:
        raise ValueError(f"Shape must be at most rank 2 but is rank {len(input.shape)}")
    return TensorType(weights.dtype, tuple(input.shape[:-1]) + (n,))


dense_bincount_op = defop(
    "dense_bincount", "DenseBincount", inputs=("input: Tidx", "size: Tidx", "weights: T"),
    attrs={"Tidx": TypeAttr(INDEX, d.int32), "T": TypeAttr(_COUNTS), "binary_output": False},
    infer=infer_dense_bincount, kernel=kernel_dense_bincount, flags={"pure"})


def kernel_in_top_k(predictions, targets, k):
    p = np.asarray(predictions)
    t = np.asarray(targets).astype(np.int64)
    k = int(np.asarray(k))
    if p.ndim != 2:
        raise InvalidArgumentError("predictions must be 2-dimensional")
    if t.shape != (p.shape[0],):
        raise InvalidArgumentError(f"First dimension of predictions {p.shape[0]} must match "
                                   f"length of targets {t.shape[0] if t.ndim else 0}")
    classes = p.shape[1]
    valid = (t >= 0) & (t < classes)
    target_value = p[np.arange(len(t)), np.where(valid, t, 0)] if len(t) else np.zeros(0, p.dtype)
    finite = np.isfinite(p).all(axis=1) & valid & np.isfinite(target_value)
    above = (p > target_value[:, None]).sum(axis=1)
    return finite & (above < k)


def infer_in_top_k(predictions, targets, k):
    for t, rank in ((predictions, 2), (targets, 1), (k, 0)):
        if t.shape is not None and len(t.shape) != rank:
            raise ValueError(f"Shape must be rank {rank} but is rank {len(t.shape)}")
    if predictions.shape is not None and targets.shape is not None and None not in (
            predictions.shape[0], targets.shape[0]) and predictions.shape[0] != targets.shape[0]:
        raise ValueError(f"Dimensions must be equal, but are {predictions.shape[0]} and "
                         f"{targets.shape[0]}")
    n = None if predictions.shape is None else predictions.shape[0]
    if n is None and targets.shape is not None:
        n = targets.shape[0]
    return TensorType(d.bool, (n,))


in_top_k_op = defop(
    "in_top_k", "InTopKV2", inputs=("predictions: float32", "targets: T", "k: T"),
    attrs={"T": TypeAttr(INDEX, d.int32)}, infer=infer_in_top_k, kernel=kernel_in_top_k,
    flags={"pure"})
