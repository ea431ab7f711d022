"""Type-inference helpers shared by op definitions.

Inference is pure: `TensorType`s of the inputs plus attrs in, `TensorType`(s) of the outputs out.
Unknown dimensions (None) and unknown ranks (shape None) stay unknown unless the op pins them.
Shape errors raise `ValueError` and dtype errors `TypeError`; the context turns them into the
error TensorFlow raises in its mode (eager: `InvalidArgumentError`).
"""

from __future__ import annotations

import numpy as np

from .. import dtypes as d
from ..errors import InvalidArgumentError
from ..shapes import TensorType, broadcast_shapes, format_dims

__all__ = [
    "same", "unary", "binary", "compare", "logical", "reduce_shape", "normalize_axis",
    "known_value", "known_ints", "check_rank", "to_float", "ints", "runtime",
]


def same(x: TensorType, **_) -> TensorType:
    """Output has the input's dtype and shape."""
    return TensorType(x.dtype, x.shape)


unary = same


def binary(x: TensorType, y: TensorType, **_) -> TensorType:
    """Broadcasting binary op; output dtype is the (shared) input dtype."""
    return TensorType(x.dtype, broadcast_shapes(x.shape, y.shape))


def compare(x: TensorType, y: TensorType, **_) -> TensorType:
    return TensorType(d.bool, broadcast_shapes(x.shape, y.shape))


def compare_lenient(x: TensorType, y: TensorType, incompatible_shape_error=True, **_):
    """Equal/NotEqual: with incompatible_shape_error=False, unbroadcastable shapes give a scalar."""
    try:
        return TensorType(d.bool, broadcast_shapes(x.shape, y.shape))
    except ValueError:
        if incompatible_shape_error:
            raise
        return TensorType(d.bool, ())


def logical(x: TensorType, y: TensorType, **_) -> TensorType:
    return TensorType(d.bool, broadcast_shapes(x.shape, y.shape))


def to_float(x: TensorType, **_) -> TensorType:
    """Ops that map to bool (is_nan) keep shape; used with an explicit dtype by callers."""
    return TensorType(d.bool, x.shape)


def known_value(t: TensorType):
    """The constant value of a tensor if known at graph-building time, else None."""
    return t.value


def known_ints(t: TensorType) -> list | None:
    """A known integer vector (or scalar) value as a list of Python ints, else None."""
    if t.value is None:
        return None
    return [int(v) for v in np.asarray(t.value).reshape(-1)]


def partial_ints(t: TensorType) -> list | None:
    """An integer vector's entries as far as they are known (ints, None where unknown: a shape
    built from `tf.shape(x)`), else None (TensorFlow's constant_value_as_shape)."""
    if t.value is not None:
        return [int(v) for v in np.asarray(t.value).reshape(-1)]
    return None if t.partial is None else list(t.partial)


def with_partial(dtype, entries: list) -> TensorType:
    """The type of an integer vector whose entries are known in part (all known: its value)."""
    if all(e is not None for e in entries):
        return TensorType(dtype, (len(entries),), np.array(entries, dtype.as_numpy_dtype))
    return TensorType(dtype, (len(entries),), partial=tuple(entries))


def check_rank(t: TensorType, rank: int, what: str, op: str) -> None:
    if t.shape is not None and len(t.shape) != rank:
        raise ValueError(f"{what} must be {rank}-D, got shape {format_dims(t.shape)} ({op})")


def normalize_axis(axis: int, rank: int, op: str) -> int:
    if not -rank <= axis < rank:
        raise ValueError(f"Invalid reduction dimension ({axis} for input with {rank} "
                         f"dimension(s) ({op})")
    return axis % rank


def reduce_shape(x: TensorType, axis: TensorType, keep_dims: bool, op: str) -> tuple | None:
    """Output shape of a reduction over the (maybe unknown) axes."""
    axes = known_ints(axis)
    if x.shape is None:
        return None
    rank = len(x.shape)
    if axes is None:
        if keep_dims:
            return (None,) * rank
        if axis.shape is not None and len(axis.shape) == 1 and axis.shape[0] is not None:
            n = axis.shape[0]
            return (None,) * (rank - n) if n <= rank else None
        return None
    seen: list = []
    for a in axes:
        a = normalize_axis(a, rank, op)
        if a in seen:
            raise ValueError(f"Invalid reduction arguments: Axes contains duplicate dimension: "
                             f"{a}")
        seen.append(a)
    if keep_dims:
        return tuple(1 if i in seen else s for i, s in enumerate(x.shape))
    return tuple(s for i, s in enumerate(x.shape) if i not in seen)


# ---- helpers shared by kernels -------------------------------------------------------------

def ints(x) -> list:
    return [int(v) for v in np.asarray(x).reshape(-1)]


def runtime(check, *args):
    """Runs a shape check shared with inference; its ValueError becomes TensorFlow's runtime
    InvalidArgumentError (inference raises ValueError, kernels raise InvalidArgumentError)."""
    try:
        return check(*args)
    except ValueError as e:
        raise InvalidArgumentError(str(e)) from None
