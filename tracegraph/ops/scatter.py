"""Scattering into an existing tensor: TensorScatterUpdate, TensorScatterAdd, TensorScatterSub,
TensorScatterMin, TensorScatterMax (`tf.tensor_scatter_nd_*`). `ScatterNd` (into zeros) lives
with gather_nd in `indexing.py`.
"""

from __future__ import annotations

import numpy as np

from ..errors import InvalidArgumentError
from ..shapes import TensorType, format_dims
from .infer import runtime as _runtime
from .registry import ALL_TYPES, INDEX, NUMBER, PURE, REAL, TypeAttr, defop


def _check_tensor_scatter(tensor: tuple, indices: tuple, updates: tuple) -> None:
    """TensorFlow's shape checks for tensor_scatter_nd_*, in its order and words."""
    if None in tensor or None in indices or None in updates:
        return
    if len(indices) < 1:
        raise ValueError(f"Indices shape must have rank at least one. Found:"
                         f"{format_dims(indices)}")
    k = indices[-1]
    if k > len(tensor):
        raise ValueError(f"Index innermost dimension length must be <= tensor rank; saw: {k} "
                         f"vs. {len(tensor)}")
    batch = len(indices) - 1
    expected = indices[:-1] + tensor[k:]
    if tuple(updates) != tuple(expected):
        raise ValueError(f"Dimensions [0,{batch}) of indices[shape={format_dims(indices)}] = "
                         f"{format_dims(indices[:-1])} must match dimensions [0,{batch}) of "
                         f"updates[shape={format_dims(updates)}] = "
                         f"{format_dims(updates[:batch])}"
                         if tuple(updates[:batch]) != tuple(indices[:-1]) else
                         f"Dimensions [{k},{len(tensor)}) of input[shape={format_dims(tensor)}] "
                         f"= {format_dims(tensor[k:])} must match dimensions [{batch},"
                         f"{len(updates)}) of updates[shape={format_dims(updates)}] = "
                         f"{format_dims(updates[batch:])}")


def infer_tensor_scatter(tensor, indices, updates):
    if tensor.shape is not None and indices.shape is not None and updates.shape is not None:
        _check_tensor_scatter(tensor.shape, indices.shape, updates.shape)
    return TensorType(tensor.dtype, tensor.shape)


def _flat_index(tensor: np.ndarray, indices: np.ndarray):
    """The rows of `indices` as a NumPy fancy index, after TensorFlow's bounds check."""
    k = indices.shape[-1]
    flat = indices.reshape(-1, k)
    for j in range(k):
        bad = (flat[:, j] < 0) | (flat[:, j] >= tensor.shape[j])
        if bad.any():
            row = int(np.argmax(bad))
            raise InvalidArgumentError(f"indices[{row}] = [{', '.join(map(str, flat[row]))}] "
                                       f"does not index into param shape "
                                       f"{format_dims(tensor.shape)}, node name: "
                                       f"TensorScatter")
    return tuple(flat[:, j] for j in range(k)), flat.shape[0]


def _scatter_kernel(combine):
    def kernel(tensor, indices, updates):
        tensor, indices, updates = np.asarray(tensor), np.asarray(indices), np.asarray(updates)
        _runtime(_check_tensor_scatter, tensor.shape, indices.shape, updates.shape)
        out = tensor.copy()
        index, n = _flat_index(tensor, indices)
        combine(out, index, updates.reshape((n,) + tensor.shape[indices.shape[-1]:]))
        return out
    return kernel


def _update(out, index, upd):                # duplicates: the last update wins, as TF's CPU
    out[index] = upd


def _subtract(out, index, upd):
    np.subtract.at(out, index, upd)


def _record(name: str, tf_type: str, combine, types) -> object:
    return defop(name, tf_type, inputs=("tensor: T", "indices: Tindices", "updates: T"),
                 attrs={"T": TypeAttr(types), "Tindices": TypeAttr(INDEX)},
                 infer=infer_tensor_scatter, kernel=_scatter_kernel(combine), flags=PURE)


tensor_scatter_update_op = _record("tensor_scatter_update", "TensorScatterUpdate", _update,
                                   ALL_TYPES)
tensor_scatter_add_op = _record("tensor_scatter_add", "TensorScatterAdd", np.add.at, NUMBER)
tensor_scatter_sub_op = _record("tensor_scatter_sub", "TensorScatterSub", _subtract, NUMBER)
tensor_scatter_min_op = _record("tensor_scatter_min", "TensorScatterMin", np.minimum.at, REAL)
tensor_scatter_max_op = _record("tensor_scatter_max", "TensorScatterMax", np.maximum.at, REAL)
