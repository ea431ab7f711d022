"""Segment reductions: SegmentSum/Mean/Prod/Min/Max (sorted ids, one output row per id up to the
largest) and UnsortedSegmentSum/Prod/Min/Max (any ids, `num_segments` rows, negative ids
dropped). Empty segments hold 0 (sorted) or the reduction's identity (unsorted: 0, 1, the
dtype's largest for min and lowest for max), as TensorFlow's kernels fill them.
"""

from __future__ import annotations

import numpy as np

from .. import dtypes as d
from ..errors import InvalidArgumentError
from ..shapes import TensorType, format_dims
from . import infer as I
from .allocation import check_allocation
from .infer import runtime as _runtime
from .registry import INDEX, NUMBER, PURE, REAL, TypeAttr, defop


def _np_identity(kind: str, dtype: np.dtype):
    if kind == "sum" or kind == "mean":
        return 0
    if kind == "prod":
        return 1
    info = np.finfo(dtype) if np.issubdtype(dtype, np.floating) else np.iinfo(dtype)
    return info.max if kind == "min" else info.min


def _reduce_rows(kind: str, data: np.ndarray, ids: np.ndarray, n: int) -> tuple:
    """The per-segment reduction of `data` rows by `ids` (1-D, in [0, n)); also the counts."""
    out = np.full((n,) + data.shape[1:], _np_identity(kind, data.dtype), dtype=data.dtype)
    counts = np.bincount(ids, minlength=n) if ids.size else np.zeros(n, np.int64)
    if kind in ("sum", "mean"):
        np.add.at(out, ids, data)
    elif kind == "prod":
        np.multiply.at(out, ids, data)
    elif kind == "min":
        np.minimum.at(out, ids, data)
    else:
        np.maximum.at(out, ids, data)
    if kind == "mean":
        shape = (n,) + (1,) * (data.ndim - 1)
        div = np.maximum(counts, 1).reshape(shape).astype(data.dtype)
        out = (out / div).astype(data.dtype) if not np.issubdtype(data.dtype, np.integer) \
            else (out // div).astype(data.dtype)
    return out, counts


# ---- sorted segments -------------------------------------------------------------------------

def _check_segment_ids(data: tuple, ids: tuple) -> None:
    if len(ids) != 1:
        raise ValueError(f"Shape must be rank 1 but is rank {len(ids)}")
    if len(data) == 0:
        raise ValueError("Shape must be at least rank 1 but is rank 0")
    if ids[0] is not None and data[0] is not None and ids[0] != data[0]:
        raise ValueError(f"segment_ids should be the same size as dimension 0 of input. "
                         f"segment_ids: {format_dims(ids)}, input: {format_dims(data)}")


def infer_segment(data, segment_ids):
    if data.shape is None or segment_ids.shape is None:
        return TensorType(data.dtype, None)
    _check_segment_ids(data.shape, segment_ids.shape)
    return TensorType(data.dtype, (None,) + data.shape[1:])


def _segment_kernel(kind: str):
    def kernel(data, segment_ids):
        data, ids = np.asarray(data), np.asarray(segment_ids)
        _runtime(_check_segment_ids, data.shape, ids.shape)
        if ids.size and (np.any(ids[1:] < ids[:-1])):
            bad = int(np.argmax(ids[1:] < ids[:-1])) + 1
            raise InvalidArgumentError(f"segment ids are not increasing: segment_ids[{bad}] = "
                                       f"{int(ids[bad])} after {int(ids[bad - 1])}")
        if ids.size and ids[0] < 0:
            raise InvalidArgumentError(f"segment ids must be >= 0, got segment_ids[0] = "
                                       f"{int(ids[0])}")
        n = int(ids[-1]) + 1 if ids.size else 0
        out, counts = _reduce_rows(kind, data, ids.astype(np.int64), n)
        if kind in ("min", "max"):          # TensorFlow leaves empty sorted segments at 0
            out[counts == 0] = 0
        return out
    return kernel


def _segment(name: str, tf_type: str, kind: str, types):
    return defop(name, tf_type, inputs=("data: T", "segment_ids: Tindices"),
                 attrs={"T": TypeAttr(types), "Tindices": TypeAttr(INDEX)},
                 infer=infer_segment, kernel=_segment_kernel(kind),
                 flags=PURE | {"data_dependent_shape"})


segment_sum_op = _segment("segment_sum", "SegmentSum", "sum", NUMBER)
segment_mean_op = _segment("segment_mean", "SegmentMean", "mean", NUMBER)
segment_prod_op = _segment("segment_prod", "SegmentProd", "prod", NUMBER)
segment_min_op = _segment("segment_min", "SegmentMin", "min", REAL)
segment_max_op = _segment("segment_max", "SegmentMax", "max", REAL)

# ---- unsorted segments -----------------------------------------------------------------------


def _check_unsorted(data: tuple, ids: tuple) -> None:
    if len(ids) > len(data):
        raise ValueError(f"Shape must be at least rank {len(ids)} but is rank {len(data)}")
    for i, (a, b) in enumerate(zip(data, ids)):
        if None not in (a, b) and a != b:
            raise ValueError(f"Dimension {i} in both shapes must be equal, but are {a} and {b}. "
                             f"Shapes are {format_dims(data[:len(ids)])} and "
                             f"{format_dims(ids)}.")


def infer_unsorted_segment(data, segment_ids, num_segments):
    n = I.known_ints(num_segments)
    dim = None if n is None else n[0]
    if data.shape is None or segment_ids.shape is None:
        return TensorType(data.dtype, None)
    _check_unsorted(data.shape, segment_ids.shape)
    return TensorType(data.dtype, (dim,) + data.shape[len(segment_ids.shape):])


def _unsorted_kernel(kind: str):
    def kernel(data, segment_ids, num_segments):
        data, ids = np.asarray(data), np.asarray(segment_ids).astype(np.int64)
        _runtime(_check_unsorted, data.shape, ids.shape)
        n = int(num_segments)
        if n < 0:
            raise InvalidArgumentError(f"num_segments must be >= 0, got {n}")
        inner = data.shape[ids.ndim:]
        check_allocation((n,) + inner, data.dtype)
        rows, flat = data.reshape((-1,) + inner), ids.reshape(-1)
        if flat.size and flat.max() >= n:
            pos = int(np.argmax(flat >= n))
            raise InvalidArgumentError(f"segment_ids[{pos}] = {int(flat[pos])} is out of range "
                                       f"[0, {n})")
        keep = flat >= 0                     # negative ids are dropped
        out, _ = _reduce_rows(kind, rows[keep], flat[keep], n)
        return out
    return kernel


def _unsorted(name: str, tf_type: str, kind: str, types):
    return defop(name, tf_type,
                 inputs=("data: T", "segment_ids: Tindices", "num_segments: Tnumsegments"),
                 attrs={"T": TypeAttr(types), "Tindices": TypeAttr(INDEX),
                        "Tnumsegments": TypeAttr(INDEX, d.int32)},
                 infer=infer_unsorted_segment, kernel=_unsorted_kernel(kind), flags=PURE)


unsorted_segment_sum_op = _unsorted("unsorted_segment_sum", "UnsortedSegmentSum", "sum", NUMBER)
unsorted_segment_prod_op = _unsorted("unsorted_segment_prod", "UnsortedSegmentProd", "prod",
                                     NUMBER)
unsorted_segment_min_op = _unsorted("unsorted_segment_min", "UnsortedSegmentMin", "min", REAL)
unsorted_segment_max_op = _unsorted("unsorted_segment_max", "UnsortedSegmentMax", "max", REAL)
