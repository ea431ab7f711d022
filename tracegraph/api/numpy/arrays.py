"""`tf.experimental.numpy`: ND arrays (`ndarray` is `tf.Tensor`), NumPy's dtype inference for
Python values, and array creation."""

from __future__ import annotations

import numpy as np

from ... import config
from ... import dtypes as d
from ...framework.tensor import Tensor
from ...framework.variables import Variable
from ...library import array as ta
from ...library import indexing as ti
from ...library import math as tm
from ...library import type_promotion as promotion
from ...library.join_split import stack
from ...ops.registry import convert_to_tensor

__all__ = [
    "ndarray", "asarray", "array", "asanyarray", "ascontiguousarray", "copy", "zeros", "ones",
    "full", "empty", "zeros_like", "ones_like", "full_like", "empty_like", "eye", "identity",
    "arange", "linspace", "logspace", "geomspace", "default_float", "default_dtype", "cast_to",
]

ndarray = Tensor


def default_float() -> d.DType:
    """NumPy's float64, or float32 under `prefer_float32` (and in the "all"/"safe" modes)."""
    if config.prefer_float32 or config.dtype_conversion_mode in ("all", "safe"):
        return d.float32
    return d.float64


def _weak_mode() -> bool:
    return config.dtype_conversion_mode in ("all", "safe")


def default_dtype(kind: str) -> d.DType:
    """The dtype of a Python value of `kind` ('b', 'i', 'f', 'c')."""
    if kind == "i":
        return d.int32 if _weak_mode() else d.int64
    if kind == "f":
        return default_float()
    return {"b": d.bool, "c": d.complex128}[kind]


def _is_tensor(x) -> bool:
    return isinstance(x, (Tensor, Variable)) or hasattr(x, "__tf_tensor__")


def cast_to(x, dtype):
    dtype = d.as_dtype(dtype)
    return x if x.dtype == dtype else tm.cast(x, dtype)


def asarray(a, dtype=None):
    """The value as an ND array (a tensor): tensors stay themselves (cast to `dtype` if given),
    Python values take NumPy's types (int64, float64), NumPy values keep theirs."""
    if dtype is not None:
        dtype = d.as_dtype(dtype)
    if _is_tensor(a):
        return cast_to(convert_to_tensor(a), dtype) if dtype is not None else \
            convert_to_tensor(a)
    kind = promotion.python_kind(a)
    if isinstance(a, (list, tuple)) and kind is None and any(_is_tensor(v) for v in a):
        return stack([asarray(v, dtype) for v in a])
    if dtype is None and kind is not None:
        out = ta.constant(np.asarray(a), dtype=default_dtype(kind))
        return promotion.mark_weak(out) if _weak_mode() and kind != "b" else out
    arr = np.asarray(a)
    if dtype is None and arr.dtype == object:
        raise TypeError(f"Cannot convert {a!r} to an ND array.")
    return ta.constant(arr, dtype=dtype)


def array(val, dtype=None, copy=True, ndmin=0):  # noqa: A002 - NumPy's names
    out = asarray(val, dtype)
    if ndmin > out.shape.rank:
        out = ta.reshape(out, [1] * (ndmin - out.shape.rank) + out.shape.as_list())
    return out


asanyarray = asarray
ascontiguousarray = asarray


def copy(a):
    """A copy of `a` (on the device of the current `tf.device` scope)."""
    return ta.identity(asarray(a))


def _float_or(dtype):
    return default_float() if dtype is None else d.as_dtype(dtype)


def zeros(shape, dtype=None):
    return ta.zeros(shape, dtype=_float_or(dtype))


def ones(shape, dtype=None):
    return ta.ones(shape, dtype=_float_or(dtype))


empty = zeros


def full(shape, fill_value, dtype=None):
    fill = asarray(fill_value, dtype)
    return ta.fill(shape, fill) if fill.shape.rank == 0 else \
        tm.add(fill, ta.zeros(shape, dtype=fill.dtype))


def zeros_like(a, dtype=None):
    return ta.zeros_like(asarray(a), dtype=dtype)


def ones_like(a, dtype=None):
    return ta.ones_like(asarray(a), dtype=dtype)


empty_like = zeros_like


def full_like(a, fill_value, dtype=None):
    a = asarray(a)
    fill = asarray(fill_value, dtype or a.dtype)
    return tm.add(ta.zeros_like(a, dtype=fill.dtype), fill)


def eye(N, M=None, k=0, dtype=float):  # noqa: N803 - NumPy's names
    dtype = default_float() if dtype is float else d.as_dtype(dtype)
    M = N if M is None else M
    return ta.constant(np.eye(N, M, k), dtype=dtype)


def identity(n, dtype=float):
    return eye(n, dtype=dtype)


def arange(start, stop=None, step=1, dtype=None):
    """NumPy's `arange`: ints give int64, floats the default float."""
    if stop is None:
        start, stop = 0, start
    if dtype is None:
        kinds = [promotion.python_kind(v) or _tensor_kind(v) for v in (start, stop, step)]
        dtype = default_dtype(max(kinds, key="bifc".index))
    dtype = d.as_dtype(dtype)
    if all(not _is_tensor(v) for v in (start, stop, step)):
        return ta.constant(np.arange(start, stop, step, dtype=dtype.as_numpy_dtype))
    return cast_to(tm.range_(tm.cast(start, d.float64), tm.cast(stop, d.float64),
                             tm.cast(step, d.float64)), dtype)


def _tensor_kind(v) -> str:
    dtype = asarray(v).dtype
    if dtype.is_bool:
        return "b"
    return "i" if dtype.is_integer else "c" if dtype.is_complex else "f"


def linspace(start, stop, num=50, endpoint=True, retstep=False, dtype=float, axis=0):
    dtype = default_float() if dtype is float else d.as_dtype(dtype)
    start, stop = asarray(start, d.float64), asarray(stop, d.float64)
    if endpoint:
        values = ti.linspace(start, stop, num, axis=axis)
        step = (stop - start) / max(num - 1, 1)
    else:
        step = (stop - start) / num
        values = ti.linspace(start, stop - step, num, axis=axis)
    values = cast_to(values, dtype)
    return (values, step) if retstep else values


def logspace(start, stop, num=50, endpoint=True, base=10.0, dtype=None, axis=0):
    exponents = linspace(start, stop, num, endpoint, dtype=d.float64, axis=axis)
    return cast_to(tm.pow(asarray(base, d.float64), exponents), _float_or(dtype))


def geomspace(start, stop, num=50, endpoint=True, dtype=None, axis=0):
    logs = linspace(tm.log(asarray(start, d.float64)), tm.log(asarray(stop, d.float64)), num,
                    endpoint, dtype=d.float64, axis=axis)
    return cast_to(tm.exp(logs), _float_or(dtype))
