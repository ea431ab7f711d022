"""`tf.experimental.numpy`: the rest of TensorFlow's NumPy functions, written with the others."""

from __future__ import annotations

import numpy as np

from ... import dtypes as d
from ...framework.python_function import numpy_function
from ...library import array as ta
from ...library import grids, rearrange
from ...library import indexing as ti
from ...library import math as tm
from ...library import reduce as tr
from ...trace.control_flow import while_loop
from . import math as npm
from . import shapes as nps
from .arrays import asarray, cast_to, default_float, zeros_like

__all__ = [
    "angle", "atleast_3d", "broadcast_arrays", "cbrt", "compress", "diag_indices", "diagflat",
    "diff", "dstack", "fix", "gcd", "heaviside", "iscomplex", "iscomplexobj", "isneginf",
    "isposinf", "isreal", "isrealobj", "isscalar", "ix_", "lcm", "logaddexp", "logaddexp2",
    "meshgrid", "nanmean", "nextafter", "polyval", "rot90", "select", "signbit", "sinc",
    "vander",
]


def angle(z, deg=False):
    z = asarray(z)
    out = tm.atan2(tm.imag(z), tm.real(z)) if z.dtype.is_complex else \
        tm.atan2(cast_to(zeros_like(z), default_float()), npm._floating(z))
    return out * np.asarray(180 / np.pi, out.dtype.as_numpy_dtype) if deg else out


def cbrt(x):
    x = npm._floating(asarray(x))
    return tm.sign(x) * tm.pow(tm.abs(x), np.asarray(1 / 3, x.dtype.as_numpy_dtype))


def fix(x):
    x = npm._floating(asarray(x))
    return tm.sign(x) * tm.floor(tm.abs(x))


def signbit(x):
    x = asarray(x)
    if x.dtype.is_floating:   # -0.0 has its sign bit set
        return tm.logical_or(tm.less(x, 0), tm.less(tm.reciprocal(x), 0))
    return tm.less(x, 0) if not x.dtype.is_unsigned else tm.not_equal(x, x)


def sinc(x):
    x = npm._floating(asarray(x))
    pi_x = x * np.asarray(np.pi, x.dtype.as_numpy_dtype)
    safe = ti.where(tm.equal(x, 0), tm.add(x, 1), pi_x)
    return ti.where(tm.equal(x, 0), tm.add(tm.multiply(x, 0), 1), tm.sin(safe) / safe)


def heaviside(x1, x2):
    (a, b), _ = npm.promote_args(x1, x2)
    a, b = npm._floating(a), npm._floating(b)
    ones = tm.add(tm.multiply(a, 0), 1)
    return ti.where(tm.equal(a, 0), b + tm.multiply(a, 0), ti.where(tm.less(a, 0), ones * 0, ones))


def nextafter(x1, x2):
    (a, b), _ = npm.promote_args(x1, x2)
    a, b = npm._floating(a), npm._floating(b)
    np_dtype = a.dtype.as_numpy_dtype
    return numpy_function(lambda u, v: np.nextafter(u, v).astype(np_dtype), [a, b], a.dtype)


def logaddexp(x1, x2):
    (a, b), _ = npm.promote_args(x1, x2)
    a, b = npm._floating(a), npm._floating(b)
    high = tm.maximum(a, b)
    return high + tm.log1p(tm.exp(-tm.abs(a - b)))


def logaddexp2(x1, x2):
    (a, b), _ = npm.promote_args(x1, x2)
    a, b = npm._floating(a), npm._floating(b)
    ln2 = np.asarray(np.log(2.0), a.dtype.as_numpy_dtype)
    return logaddexp(a * ln2, b * ln2) / ln2


def _gcd(a, b):
    def step(x, y):   # Euclid's step where y != 0; finished entries stay
        done = tm.equal(y, 0)
        safe = ti.where(done, tm.add(y, 1), y)
        return ti.where(done, x, y), ti.where(done, y, tm.floormod(x, safe))
    a, b = tm.abs(a), tm.abs(b)
    a, b = while_loop(lambda x, y: tr.reduce_any(tm.not_equal(y, 0)), step, [a, b])
    return a


def gcd(x1, x2):
    (a, b), _ = npm.promote_args(x1, x2)
    shape = _broadcast_shape(a, b)
    a, b = rearrange.broadcast_to(a, shape), rearrange.broadcast_to(b, shape)
    return _gcd(a, b)


def lcm(x1, x2):
    (a, b), _ = npm.promote_args(x1, x2)
    shape = _broadcast_shape(a, b)
    a, b = rearrange.broadcast_to(a, shape), rearrange.broadcast_to(b, shape)
    g = _gcd(a, b)
    return ti.where(tm.equal(g, 0), g, tm.abs(tm.floordiv(a, ti.where(tm.equal(g, 0),
                                                                       tm.add(g, 1), g)) * b))


def _broadcast_shape(a, b):
    return list(np.broadcast_shapes(tuple(a.shape.as_list()), tuple(b.shape.as_list())))


def iscomplex(x):
    x = asarray(x)
    return tm.not_equal(tm.imag(x), 0) if x.dtype.is_complex else \
        cast_to(zeros_like(x), d.bool)


def isreal(x):
    return tm.logical_not(iscomplex(x))


def iscomplexobj(x):
    return asarray(x).dtype.is_complex


def isrealobj(x):
    return not iscomplexobj(x)


def isneginf(x):
    x = npm._floating(asarray(x))
    return tm.logical_and(tm.is_inf(x), tm.less(x, 0))


def isposinf(x):
    x = npm._floating(asarray(x))
    return tm.logical_and(tm.is_inf(x), tm.greater(x, 0))


def isscalar(num):
    return np.ndim(num) == 0 if not hasattr(num, "shape") else num.shape.rank == 0


def nanmean(a, axis=None, dtype=None, keepdims=None):
    a = npm._floating(asarray(a) if dtype is None else cast_to(asarray(a), dtype))
    valid = tm.logical_not(tm.is_nan(a))
    total = tr.reduce_sum(ti.where(valid, a, ta.zeros_like(a)), axis=axis,
                          keepdims=bool(keepdims))
    count = tr.reduce_sum(cast_to(valid, a.dtype), axis=axis, keepdims=bool(keepdims))
    return total / count


def diff(a, n=1, axis=-1):
    a = asarray(a)
    rank = a.shape.rank
    axis = axis % rank
    for _ in range(n):
        size = a.shape[axis]
        a = nps.take(a, np.arange(1, size), axis=axis) - nps.take(a, np.arange(size - 1),
                                                                     axis=axis)
    return a


def polyval(p, x):
    p = [asarray(c) for c in (p if isinstance(p, (list, tuple)) else nps.split(
        asarray(p), asarray(p).shape[0]))]
    out = npm.multiply(asarray(x), 0)
    for c in p:
        out = npm.add(npm.multiply(out, x), ta.reshape(c, []))
    return out


def compress(condition, a, axis=None):
    a = asarray(a)
    if axis is None:
        a, axis = nps.ravel(a), 0
    keep = np.flatnonzero(np.asarray(condition, bool))
    return ti.gather(a, keep, axis=axis)


def select(condlist, choicelist, default=0):
    out = asarray(default)
    for cond, choice in reversed(list(zip(condlist, choicelist))):
        (choice, out), _ = npm.promote_args(choice, out)
        out = ti.where(cast_to(asarray(cond), d.bool), choice, out)
    return out


def diag_indices(n, ndim=2):
    index = asarray(np.arange(n))
    return tuple(index for _ in range(ndim))


def diagflat(v, k=0):
    return nps.diag(nps.ravel(v), k)


def vander(x, N=None, increasing=False):
    x = asarray(x)
    n = x.shape[0] if N is None else N
    powers = np.arange(n) if increasing else np.arange(n - 1, -1, -1)
    return tm.pow(ta.expand_dims(x, 1), cast_to(asarray(powers), x.dtype))


def ix_(*args):
    n = len(args)
    out = []
    for i, a in enumerate(args):
        a = asarray(a)
        if a.dtype.is_bool:
            a = asarray(np.flatnonzero(a.numpy()))
        out.append(ta.reshape(a, [1] * i + [-1] + [1] * (n - i - 1)))
    return out


def broadcast_arrays(*args, subok=False):
    arrays = [asarray(a) for a in args]
    shape = np.broadcast_shapes(*(tuple(a.shape.as_list()) for a in arrays))
    return [rearrange.broadcast_to(a, list(shape)) for a in arrays]


def atleast_3d(*arys):
    out = []
    for a in arys:
        a = asarray(a)
        rank = a.shape.rank
        if rank == 0:
            a = ta.reshape(a, [1, 1, 1])
        elif rank == 1:
            a = ta.reshape(a, [1, -1, 1])
        elif rank == 2:
            a = ta.expand_dims(a, -1)
        out.append(a)
    return out[0] if len(out) == 1 else out


def dstack(tup):
    return nps.concatenate(atleast_3d(*tup) if len(tup) > 1 else [atleast_3d(tup[0])], axis=2)


def rot90(m, k=1, axes=(0, 1)):
    m = asarray(m)
    k %= 4
    a0, a1 = axes
    if k == 0:
        return m
    if k == 2:
        return nps.flip(nps.flip(m, a0), a1)
    perm = list(range(m.shape.rank))
    perm[a0], perm[a1] = perm[a1], perm[a0]
    if k == 1:
        return ta.transpose(nps.flip(m, a1), perm)
    return nps.flip(ta.transpose(m, perm), a1)


def meshgrid(*xi, **kwargs):
    indexing = kwargs.get("indexing", "xy")
    return grids.meshgrid(*(asarray(x) for x in xi), indexing=indexing)
