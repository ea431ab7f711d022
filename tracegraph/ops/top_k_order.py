"""The order TopKV2 returns, fast: the indices of the k largest values along the last axis,
largest first, equal values lower index first (TensorFlow's order). A row holding NaN has no
order; it gets the one TensorFlow's kernel leaves (nan_order.py).

For dtypes of at most 32 bits each value maps to a 32-bit key that sorts as the value does
(-0.0 and 0.0 equal, NaN as -inf), and key and index share one uint64, so NumPy's quick sort
(vectorized on this CPU) or, for k < n, a partition and a sort of k keys give the stable order:
no two uint64 are equal. 64-bit dtypes use a stable argsort.
"""

from __future__ import annotations

import numpy as np

from .nan_order import nan_row_order

__all__ = ["top_k_order"]

_LOW = np.uint64(0xFFFFFFFF)


def _ascending_key(x: np.ndarray) -> np.ndarray | None:
    """uint64 keys in [0, 2^32) ordered as `x` (NaN as -inf, -0.0 as 0.0), or None."""
    kind, size = x.dtype.kind, x.dtype.itemsize
    if kind == "f" and size <= 4:
        v = x.astype(np.float32)
        v = np.where(np.isnan(v), np.float32(-np.inf), v) + np.float32(0.0)   # -0.0 -> 0.0
        bits = v.view(np.uint32)
        # negative: flip every bit (larger magnitude sorts lower); else set the sign bit
        flip = (bits >> np.uint32(31)) * np.uint32(0x7FFFFFFF) | np.uint32(0x80000000)
        return (bits ^ flip).astype(np.uint64)
    if kind == "i" and size <= 4:
        return (x.astype(np.int64) + 2**31).astype(np.uint64)
    if kind in "ub" and size <= 4:
        return x.astype(np.uint64)
    return None


def top_k_order(x: np.ndarray, k: int) -> np.ndarray:
    """int64 indices (shape x.shape[:-1] + (k,)) of the k largest along the last axis."""
    order = _order(x, k)
    if x.dtype.kind == "f" and k > 0 and x.size:
        rows = np.isnan(x).reshape(-1, x.shape[-1]).any(axis=1)
        if rows.any():
            order = order.reshape(-1, k).copy()
            flat = x.reshape(-1, x.shape[-1])
            for r in np.flatnonzero(rows):
                order[r] = nan_row_order(flat[r], k)
            order = order.reshape(x.shape[:-1] + (k,))
    return order


def _order(x: np.ndarray, k: int) -> np.ndarray:
    n = x.shape[-1]
    key = _ascending_key(x) if n < 2**32 else None
    if key is None or n == 0 or k == 0:
        work = np.where(np.isnan(x), -np.inf, x) if x.dtype.kind == "f" else x
        order = n - 1 - np.argsort(work[..., ::-1], axis=-1, kind="stable")
        return order[..., ::-1][..., :k]
    combined = ((_LOW - key) << np.uint64(32)) | np.arange(n, dtype=np.uint64)
    if k < n:
        combined = np.partition(combined, k - 1, axis=-1)[..., :k]
    return (np.sort(combined, axis=-1) & _LOW).astype(np.int64)
