"""Math on ragged values: elementwise ops over the flat values (TensorFlow's ragged dispatch),
with TensorFlow's broadcasting of dense and ragged operands, and the reductions
(`tf.reduce_sum`, `reduce_mean`, `reduce_max`, ...) along ragged and uniform axes.

Elementwise ops: an op flagged `elementwise` in its record, or listed in `ELEMENTWISE_OPS`
below (string and conversion ops TensorFlow also dispatches elementwise), applied to ragged
operands runs once on their flat values; every ragged operand must have the same row
partitions, and a dense operand is broadcast to them (its dims at ragged positions must be 1).
"""

from __future__ import annotations

import numpy as np

from .. import dtypes as d
from ..errors import InvalidArgumentError
from ..library import math as m
from ..library import reduce as r
from ..library.array import expand_dims, ones_like, reshape, shape, squeeze
from ..library.indexing import gather
from ..library.join_split import concat
from ..library.rearrange import broadcast_to
from ..nest import flatten, pack_sequence_as
from ..ops.array import identity_op, ones_like_op, stop_gradient_op, zeros_like_op
from ..ops.indexing import clip_op
from ..ops.logging import check_numerics_op
from ..ops.math import cast_op
from ..ops.registry import bind, convert_to_tensor
from ..ops.strings import (
    as_string_op,
    join_op,
    length_op,
    lower_op,
    regex_replace_op,
    strip_op,
    substr_op,
    to_number_op,
    upper_op,
)
from ..ops.text import regex_full_match_op
from .ragged import RaggedTensor
from .tensor import EagerTensor

__all__ = ["ELEMENTWISE_OPS", "apply_elementwise", "binary_function", "is_ragged_elementwise",
           "ragged_reduce", "map_flat_values", "IDENTITY_OF_REDUCTION"]

# The records that act on each element on their own besides those flagged `elementwise` (the
# string, conversion and identity ops TensorFlow also dispatches elementwise): a ragged operand
# maps over its flat values.
ELEMENTWISE_OPS = frozenset({
    cast_op, clip_op, zeros_like_op, ones_like_op, identity_op, stop_gradient_op,
    check_numerics_op, substr_op, join_op, length_op, upper_op, lower_op, strip_op,
    as_string_op, regex_replace_op, to_number_op, regex_full_match_op,
})


def is_ragged_elementwise(op) -> bool:
    return "elementwise" in op.flags or op in ELEMENTWISE_OPS


def _static_splits_equal(a, b) -> bool | None:
    if isinstance(a, EagerTensor) and isinstance(b, EagerTensor):
        x, y = a.numpy(), b.numpy()
        return x.shape == y.shape and bool((x == y).all())
    return None


def _check_partitions(ref: RaggedTensor, other: RaggedTensor) -> None:
    if other.ragged_rank != ref.ragged_rank:
        raise ValueError(f"Elementwise operations on RaggedTensors need the same ragged_rank; "
                         f"got {ref.ragged_rank} and {other.ragged_rank}")
    for a, b in zip(ref.nested_row_splits, other.nested_row_splits):
        if a is not b and _static_splits_equal(a, b) is False:
            raise InvalidArgumentError("Condition x == y did not hold: the RaggedTensors' "
                                       "row partitions differ (elementwise operations need "
                                       "the same row lengths).")


def _broadcast_dense(ref: RaggedTensor, value, dtype):
    """A dense operand as a tensor that combines with `ref.flat_values` elementwise."""
    if isinstance(value, (bool, int, float, complex, str, bytes, np.generic)):
        return value
    t = convert_to_tensor(value, dtype_hint=dtype)
    rank, full = t.shape.rank, ref.shape.rank
    if rank is None or full is None:
        raise ValueError("broadcasting a tensor against a RaggedTensor needs known ranks")
    inner = full - 1 - ref.ragged_rank      # uniform dims inside the flat values
    if rank <= inner:
        return t
    if rank > full:
        raise ValueError(f"A tensor of rank {rank} does not broadcast against a RaggedTensor "
                         f"of rank {full}")
    dims = t.shape.as_list()
    if all(dim == 1 for dim in dims[:rank - inner]):   # only the inner dims are not 1
        return reshape(t, shape(t)[rank - inner:]) if inner else reshape(t, [])
    # Some outer dim is not 1: expand the tensor to every row, one level at a time.
    if full > rank:
        t = reshape(t, concat([convert_to_tensor([1] * (full - rank), dtype=d.int64),
                               shape(t, out_type=d.int64)], 0))
    for pos in range(1, ref.ragged_rank + 1):
        dim = t.shape.as_list()[pos]
        if dim not in (1, None):
            raise InvalidArgumentError(
                f"Condition x == y did not hold: a dense dimension of size {dim} does not "
                f"broadcast against a ragged dimension")
    n = ref.nrows(out_type=d.int64)
    t = broadcast_to(t, concat([expand_dims(n, 0), shape(t, out_type=d.int64)[1:]], 0))
    level = ref
    for _ in range(ref.ragged_rank):
        t = gather(squeeze(t, [1]), level.value_rowids())
        level = level.values
    return t


def apply_elementwise(op, inputs, attrs, name):
    """An elementwise op on ragged operands: once over the flat values (see the module
    docstring)."""
    is_list = [spec.list_kind is not None for spec in op.inputs]
    flat_inputs = [x for item, listed in zip(inputs, is_list)
                   for x in (item if listed else [item])]
    ragged = [x for x in flat_inputs if isinstance(x, RaggedTensor)]
    if not ragged:
        return NotImplemented
    ref = ragged[0]
    for other in ragged[1:]:
        _check_partitions(ref, other)
    dtype = ref.dtype

    def operand(x):
        return x.flat_values if isinstance(x, RaggedTensor) else _broadcast_dense(ref, x, dtype)

    new_inputs = tuple([operand(x) for x in item] if listed else operand(item)
                       for item, listed in zip(inputs, is_list))
    return ref.with_flat_values(bind(op, new_inputs, attrs, name))


def binary_function(fn):
    """The handler of a binary elementwise function that converts its operands itself
    (`tf.math.truediv`): it runs once on the flat values, the other operand broadcast."""
    def handler(x, y, name=None):
        ref = x if isinstance(x, RaggedTensor) else y
        other = y if ref is x else x
        if isinstance(other, RaggedTensor):
            _check_partitions(ref, other)
            other = other.flat_values
        else:
            other = _broadcast_dense(ref, other, ref.dtype)
        flat = ref.flat_values
        out = fn(flat, other) if ref is x else fn(other, flat)
        return ref.with_flat_values(out)
    return handler


def map_flat_values(op, *args, **kwargs):
    """`tf.ragged.map_flat_values(op, *args, **kwargs)`: `op` on the flat values of the ragged
    arguments (which share their row partitions); the result has their rows."""
    leaves = flatten([args, kwargs])
    ragged = [x for x in leaves if isinstance(x, RaggedTensor)]
    if not ragged:
        return op(*args, **kwargs)
    ref = ragged[0]
    for other in ragged[1:]:
        _check_partitions(ref, other)
    new = [x.flat_values if isinstance(x, RaggedTensor) else x for x in leaves]
    args2, kwargs2 = pack_sequence_as([args, kwargs], new)
    out = op(*args2, **kwargs2)
    return ref.with_flat_values(out)


# ---- reductions -----------------------------------------------------------------------------

def _identity(kind: str, dtype: d.DType):
    """The value an empty row reduces to (TensorFlow's segment reductions: the lowest value
    for max, the highest for min)."""
    if kind in ("sum", "mean"):
        return np.zeros((), dtype.as_numpy_dtype)
    if kind == "prod":
        return np.ones((), dtype.as_numpy_dtype)
    if kind == "any":
        return False
    if kind == "all":
        return True
    info = np.finfo if dtype.is_floating else np.iinfo
    limits = info(dtype.as_numpy_dtype)
    return np.array(limits.min if kind == "max" else limits.max, dtype.as_numpy_dtype)


IDENTITY_OF_REDUCTION = _identity


def _dense_reduce(kind, x, axis, keepdims):
    fn = {"sum": r.reduce_sum, "prod": r.reduce_prod, "max": r.reduce_max,
          "min": r.reduce_min, "any": r.reduce_any, "all": r.reduce_all,
          "mean": r.reduce_mean}[kind]
    return fn.dense_function(x, axis=axis, keepdims=keepdims) if \
        hasattr(fn, "dense_function") else fn(x, axis=axis, keepdims=keepdims)


def _mean_dtype(dtype: d.DType) -> d.DType:
    return d.float64 if dtype.is_integer else dtype


def _reduce_axis(kind, rt, axis, keepdims):
    """One axis of a ragged value reduced (axis >= 0)."""
    if axis >= 2:
        values = rt.values
        inner = _reduce_axis(kind, values, axis - 1, keepdims) if \
            isinstance(values, RaggedTensor) else _dense_reduce(kind, values, axis - 1,
                                                                keepdims)
        return rt.with_values(inner)
    if kind == "mean":
        dtype = _mean_dtype(rt.dtype)
        total = _reduce_axis("sum", rt.with_flat_values(m.cast(rt.flat_values, dtype)), axis,
                             keepdims)
        count = _reduce_axis("sum", rt.with_flat_values(ones_like(rt.flat_values, dtype)),
                             axis, keepdims)
        return m.truediv(total, count)
    if axis == 1 and rt.ragged_rank == 2 and not keepdims:
        return _reduce_sub_rows(kind, rt)
    if rt.ragged_rank != 1:
        raise NotImplementedError(f"reducing axis {axis} of a RaggedTensor of ragged_rank "
                                  f"{rt.ragged_rank} is not supported in tracegraph; reduce "
                                  "the inner axes first, or the whole tensor (axis=None)")
    dense = rt.to_tensor(default_value=_identity(kind, rt.dtype))
    return _dense_reduce(kind, dense, axis, keepdims)


def _reduce_sub_rows(kind, rt):
    """Axis 1 of `[n, (r1), (r2), ...]`: row i combines its sub-rows position by position,
    as long as its longest sub-row (a ragged `[n, (r2), ...]`)."""
    identity = _identity(kind, rt.dtype)
    inner = rt.values
    padded = inner.to_tensor(default_value=identity)
    outer = RaggedTensor.from_row_splits(padded, rt.row_splits, validate=False)
    dense = _dense_reduce(kind, outer.to_tensor(default_value=identity), 1, False)
    lengths = RaggedTensor.from_row_splits(inner.row_lengths(), rt.row_splits, validate=False)
    longest = m.maximum(_reduce_axis("max", lengths, 1, False), 0)
    return RaggedTensor.from_tensor(dense, lengths=longest,
                                    row_splits_dtype=rt.row_splits.dtype)


def ragged_reduce(kind: str):
    """The handler of `tf.reduce_<kind>` for ragged values."""
    def reduce(input_tensor, axis=None, keepdims=False, name=None):
        rt = input_tensor
        if axis is None:
            flat = rt.flat_values
            if kind == "mean":
                flat = m.cast(flat, _mean_dtype(flat.dtype))
            out = _dense_reduce(kind, flat, None, False)
            if keepdims:
                out = reshape(out, [1] * rt.shape.rank)
            return out
        axes = axis if isinstance(axis, (list, tuple)) else \
            [int(a) for a in np.asarray(convert_to_tensor(axis).numpy()).reshape(-1)] \
            if not isinstance(axis, int) else [axis]
        rank = rt.shape.rank
        out = rt
        for a in sorted({int(a) % rank for a in axes}, reverse=True):
            if not isinstance(out, RaggedTensor):
                out = _dense_reduce(kind, out, a, keepdims)
            else:
                out = _reduce_axis(kind, out, a, keepdims)
        return out
    reduce.__name__ = f"ragged_reduce_{kind}"
    return reduce
