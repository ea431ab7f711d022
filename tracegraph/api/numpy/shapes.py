"""`tf.experimental.numpy`: shapes, joining, indexing helpers and linear algebra."""

from __future__ import annotations

import numpy as np

from ... import dtypes as d
from ...library import array as ta
from ...library import indexing as ti
from ...library import join_split as tj
from ...library import linalg as tl
from ...library import math as tm
from ...library import rearrange as tr
from ...library.numpy_indexing import getitem
from .arrays import asarray, cast_to, default_float
from .math import promote_args
from .math import sum as tnp_sum


def shape(a):
    return tuple(asarray(a).shape.as_list())


def ndim(a):
    return asarray(a).shape.rank


def size(a, axis=None):
    dims = asarray(a).shape.as_list()
    return int(np.prod(dims)) if axis is None else dims[axis]


def reshape(a, newshape, order="C"):
    if order != "C":
        raise ValueError(f"tf.experimental.numpy.reshape supports order='C' only, got {order!r}.")
    if isinstance(newshape, (int, np.integer)):
        newshape = [newshape]
    return ta.reshape(asarray(a), newshape)


def ravel(a):
    return ta.reshape(asarray(a), [-1])


flatten = ravel


def transpose(a, axes=None):
    return ta.transpose(asarray(a), perm=None if axes is None else list(axes))


def swapaxes(a, axis1, axis2):
    a = asarray(a)
    perm = list(range(a.shape.rank))
    perm[axis1], perm[axis2] = perm[axis2], perm[axis1]
    return ta.transpose(a, perm=perm)


def moveaxis(a, source, destination):
    a = asarray(a)
    rank = a.shape.rank
    source = [s % rank for s in np.atleast_1d(source)]
    destination = [s % rank for s in np.atleast_1d(destination)]
    perm = [i for i in range(rank) if i not in source]
    for dest, src in sorted(zip(destination, source)):
        perm.insert(dest, src)
    return ta.transpose(a, perm=perm)


def expand_dims(a, axis):
    return ta.expand_dims(asarray(a), axis)


def squeeze(a, axis=None):
    return ta.squeeze(asarray(a), axis=axis)


def atleast_1d(*arys):
    out = [reshape(a, [1]) if asarray(a).shape.rank == 0 else asarray(a) for a in arys]
    return out[0] if len(out) == 1 else out


def atleast_2d(*arys):
    out = []
    for a in arys:
        a = asarray(a)
        out.append(ta.reshape(a, [1] * (2 - a.shape.rank) + a.shape.as_list())
                   if a.shape.rank < 2 else a)
    return out[0] if len(out) == 1 else out


def concatenate(arys, axis=0):
    arys = _promoted(arys)
    if axis is None:
        arys, axis = [ravel(a) for a in arys], 0
    return tj.concat(arys, axis=axis)


def _promoted(arys):
    return promote_args(*arys)[0]


def stack(arrays, axis=0):
    return tj.stack(_promoted(arrays), axis=axis)


def vstack(tup):
    return concatenate(atleast_2d(*tup) if len(tup) > 1 else [atleast_2d(tup[0])], axis=0)


def hstack(tup):
    arys = [atleast_1d(a) for a in tup]
    return concatenate(arys, axis=0 if arys[0].shape.rank == 1 else 1)


def append(arr, values, axis=None):
    return concatenate([arr, values], axis=axis)


def split(ary, indices_or_sections, axis=0):
    ary = asarray(ary)
    if isinstance(indices_or_sections, int):
        return tj.split(ary, indices_or_sections, axis=axis)
    bounds = [0, *indices_or_sections, ary.shape[axis]]
    return tj.split(ary, [b - a for a, b in zip(bounds, bounds[1:])], axis=axis)


def tile(a, reps):
    a = asarray(a)
    reps = list(np.atleast_1d(reps))
    if len(reps) < a.shape.rank:
        reps = [1] * (a.shape.rank - len(reps)) + reps
    elif len(reps) > a.shape.rank:
        a = ta.reshape(a, [1] * (len(reps) - a.shape.rank) + a.shape.as_list())
    return tr.tile(a, reps)


def repeat(a, repeats, axis=None):
    a = asarray(a)
    if axis is None:
        a, axis = ravel(a), 0
    positions = np.repeat(np.arange(a.shape[axis]), repeats)
    return ti.gather(a, positions, axis=axis)


def broadcast_to(array, shape):
    return tr.broadcast_to(asarray(array), shape)


def flip(m, axis=None):
    m = asarray(m)
    axes = list(range(m.shape.rank)) if axis is None else list(np.atleast_1d(axis))
    return tr.reverse(m, axes)


def flipud(m):
    return flip(m, 0)


def fliplr(m):
    return flip(m, 1)


def roll(a, shift, axis=None):
    a = asarray(a)
    if axis is None:
        return ta.reshape(tr.roll(ravel(a), shift, 0), a.shape.as_list())
    return tr.roll(a, shift, axis)


def pad(array, pad_width, mode="constant", constant_values=0):
    array = asarray(array)
    widths = np.broadcast_to(np.asarray(pad_width), (array.shape.rank, 2)).tolist()
    return tr.pad(array, widths, mode=mode.upper(), constant_values=constant_values)


def where(condition, x=None, y=None):
    condition = cast_to(asarray(condition), d.bool)
    if x is None and y is None:
        return tuple(tj.unstack(ti.where(condition), axis=1)) if condition.shape.rank else \
            (ti.where(condition),)
    (x, y), _ = promote_args(x, y)
    return ti.where(condition, x, y)


def nonzero(a):
    return where(asarray(a))


def take(a, indices, axis=None):
    a = asarray(a)
    if axis is None:
        a, axis = ravel(a), 0
    return ti.gather(a, asarray(indices), axis=axis)


def take_along_axis(arr, indices, axis):
    arr, indices = asarray(arr), asarray(indices)
    return ti.gather(arr, indices, axis=axis, batch_dims=axis) if axis >= 0 else \
        ti.gather(arr, indices, axis=arr.shape.rank + axis, batch_dims=arr.shape.rank + axis)


def sort(a, axis=-1, kind="quicksort", order=None):
    return ti.sort(asarray(a), axis=axis)


def argsort(a, axis=-1, kind="quicksort", order=None):
    return cast_to(ti.argsort(asarray(a), axis=axis, stable=True), d.int64)


def diag(v, k=0):
    v = asarray(v)
    if v.shape.rank == 1:
        n = v.shape[0] + abs(k)
        positions = np.zeros((n, n), dtype=np.int64) - 1
        idx = np.arange(v.shape[0])
        rows, cols = (idx, idx + k) if k >= 0 else (idx - k, idx)
        positions[rows, cols] = idx
        padded = tj.concat([v, ta.zeros([1], dtype=v.dtype)], axis=0)
        return ti.gather(padded, np.where(positions < 0, v.shape[0], positions))
    return diagonal(v, k)


def diagonal(a, offset=0, axis1=0, axis2=1):
    a = asarray(a)
    positions = np.arange(int(np.prod(a.shape.as_list()))).reshape(a.shape.as_list())
    taken = np.diagonal(positions, offset, axis1, axis2)
    return ta.reshape(ti.gather(ravel(a), taken.reshape(-1)), list(taken.shape))


def trace(a, offset=0, axis1=0, axis2=1, dtype=None):
    return tnp_sum(diagonal(a, offset, axis1, axis2), axis=-1, dtype=dtype)


def tri(N, M=None, k=0, dtype=None):  # noqa: N803 - NumPy's names
    return ta.constant(np.tri(N, M, k), dtype=dtype or default_float())


def tril(m, k=0):
    m = asarray(m)
    mask = np.tri(m.shape[-2], m.shape[-1], k, dtype=bool)
    return ti.where(mask, m, ta.zeros_like(m))


def triu(m, k=0):
    m = asarray(m)
    mask = ~np.tri(m.shape[-2], m.shape[-1], k - 1, dtype=bool)
    return ti.where(mask, m, ta.zeros_like(m))


# ---- linear algebra --------------------------------------------------------------------

def matmul(x1, x2):
    (a, b), _ = promote_args(x1, x2)
    if a.shape.rank == 1 and b.shape.rank == 1:
        return tl.tensordot(a, b, 1)
    if a.shape.rank == 1:
        return ta.squeeze(tl.matmul(ta.expand_dims(a, 0), b), axis=-2)
    if b.shape.rank == 1:
        return ta.squeeze(tl.matmul(a, ta.expand_dims(b, -1)), axis=-1)
    return tl.matmul(a, b)


def dot(a, b):
    (a, b), _ = promote_args(a, b)
    if a.shape.rank == 0 or b.shape.rank == 0:
        return a * b
    if b.shape.rank == 1:
        return tl.tensordot(a, b, [[a.shape.rank - 1], [0]])
    return tl.tensordot(a, b, [[a.shape.rank - 1], [b.shape.rank - 2]])


def vdot(a, b):
    (a, b), _ = promote_args(a, b)
    return dot(ravel(tm.conj(a) if a.dtype.is_complex else a), ravel(b))


def inner(a, b):
    (a, b), _ = promote_args(a, b)
    if a.shape.rank == 0 or b.shape.rank == 0:
        return a * b
    return tl.tensordot(a, b, [[-1], [-1]])


def outer(a, b):
    (a, b), _ = promote_args(a, b)
    return ta.reshape(ravel(a), [-1, 1]) * ta.reshape(ravel(b), [1, -1])


def tensordot(a, b, axes=2):
    (a, b), _ = promote_args(a, b)
    return tl.tensordot(a, b, axes)


def cross(a, b, axisa=-1, axisb=-1, axisc=-1, axis=None):
    (a, b), _ = promote_args(a, b)
    return tl.cross(a, b)


def kron(a, b):
    (a, b), _ = promote_args(a, b)
    out = ta.reshape(a, a.shape.as_list() + [1] * b.shape.rank) * b
    rank = a.shape.rank
    perm = [i for pair in zip(range(rank), range(rank, 2 * rank)) for i in pair]
    out = ta.transpose(out, perm)
    return ta.reshape(out, [x * y for x, y in zip(a.shape.as_list(), b.shape.as_list())])


def einsum(subscripts, *operands, **kwargs):
    operands = _promoted(operands)
    return tl.einsum(subscripts, *operands)


__all__ = [name for name in list(globals()) if not name.startswith("_") and name not in (
    "annotations", "np", "d", "ta", "ti", "tj", "tl", "tm", "tr", "asarray", "cast_to",
    "promote_args", "tnp_sum", "default_float")] + ["getitem"]
