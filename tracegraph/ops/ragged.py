"""`RaggedTensorToTensor`: a ragged tensor's flat values and row splits to a padded dense
tensor (record only; the `RaggedTensor` class is in the framework layer).

The splits list runs from the outermost ragged dimension inward; each dim of the result is the
longest row at that level (or `shape`'s entry when given, cutting longer rows as TensorFlow
does), and the rest is `default_value`.
"""

from __future__ import annotations

import numpy as np

from ..shapes import TensorType
from .allocation import check_allocation
from .registry import ALL_TYPES, INDEX, TypeAttr, defop

__all__ = ["ragged_to_tensor_op"]


def infer_ragged_to_tensor(values, default_value, splits, shape=None):
    inner = None if values.shape is None else values.shape[1:]
    nrows = None
    if splits and splits[0].shape is not None and splits[0].shape[0] is not None:
        nrows = splits[0].shape[0] - 1
    dims = (nrows,) + (None,) * len(splits)
    if inner is None:
        return TensorType(values.dtype, None)
    out = dims + tuple(inner)
    if shape is not None:
        out = tuple(s if s is not None else o for s, o in zip(shape, out))
    return TensorType(values.dtype, out)


def kernel_ragged_to_tensor(values, default_value, splits, shape=None):
    values = np.asarray(values)
    splits = [np.asarray(s, np.int64) for s in splits]
    dims = [len(splits[0]) - 1]
    for s in splits:
        lengths = np.diff(s)
        dims.append(int(lengths.max()) if lengths.size else 0)
    dims += list(values.shape[1:])
    if shape is not None:
        dims = [s if s is not None else o for s, o in zip(shape, dims)]
    check_allocation(dims, values.dtype)
    out = np.empty(dims, dtype=values.dtype)
    out[...] = np.asarray(default_value, dtype=values.dtype)
    # The position of every flat value in the output: walk the levels from the inside out.
    index = np.arange(values.shape[0])
    coords = []
    for s in reversed(splits):
        row = np.searchsorted(s, index, side="right") - 1
        coords.append(index - s[row])
        index = row
    coords.append(index)
    coords.reverse()
    keep = np.ones(values.shape[0], dtype=bool)
    for c, n in zip(coords, dims):
        keep &= c < n
    out[tuple(c[keep] for c in coords)] = values[keep]
    return out


ragged_to_tensor_op = defop(
    "ragged_to_tensor", "RaggedTensorToTensor",
    inputs=("values: T", "default_value: T", "splits: N * Tindex"),
    attrs={"T": TypeAttr(ALL_TYPES), "Tindex": TypeAttr(INDEX, None), "shape": None},
    infer=infer_ragged_to_tensor, kernel=kernel_ragged_to_tensor,
    flags={"pure", "data_dependent_shape"})
