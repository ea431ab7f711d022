"""Records of the special functions (`tf.math.lgamma`, `digamma`, `polygamma`, `zeta`,
`erfinv`, `ndtri`) and of the x-weighted functions that are 0 where x is 0 (`xlogy`,
`xlog1py`, `xdivy`), with TensorFlow 2.21's values at poles, at 0 and out of domain. The
special functions compute in float64 (`special_numerics.py`) and round to the input's dtype."""

from __future__ import annotations

import numpy as np

from .. import dtypes as d
from . import infer as I
from . import special_numerics as S
from .registry import COMPLEX, FLOAT, TypeAttr, defop

__all__ = ["lgamma_op", "digamma_op", "polygamma_op", "zeta_op", "erfinv_op", "ndtri_op",
           "xlogy_op", "xlog1py_op", "xdivy_op"]

_EW = {"elementwise", "pure", "fresh_output"}
_T_FLOAT = {"T": TypeAttr(FLOAT)}
_T_FLOATC = {"T": TypeAttr(FLOAT | COMPLEX)}
_T_F32_F64 = {"T": TypeAttr({d.float32, d.float64})}   # TensorFlow's Polygamma and Zeta


def _in_float64(fn):
    """A kernel computing `fn` on float64 values, its result in the inputs' dtype."""
    def kernel(*args):
        arrays = [np.asarray(a) for a in args]
        dtype = arrays[-1].dtype
        with np.errstate(all="ignore"):
            return np.asarray(fn(*arrays)).astype(dtype, copy=False)
    kernel.__name__ = f"kernel_{fn.__name__}"
    return kernel


def kernel_erfinv(x):
    return np.asarray(S.erfinv(np.asarray(x))).astype(np.asarray(x).dtype, copy=False)


def _unary(name, tf_type, kernel):
    return defop(name, tf_type, inputs=("x: T",), attrs=_T_FLOAT, infer=I.same, kernel=kernel,
                 flags=_EW)


lgamma_op = _unary("lgamma", "Lgamma", _in_float64(S.lgamma))
digamma_op = _unary("digamma", "Digamma", _in_float64(S.digamma))
erfinv_op = _unary("erfinv", "Erfinv", kernel_erfinv)
ndtri_op = _unary("ndtri", "Ndtri", _in_float64(S.ndtri))
polygamma_op = defop("polygamma", "Polygamma", inputs=("a: T", "x: T"), attrs=_T_F32_F64,
                     infer=I.binary, kernel=_in_float64(S.polygamma), flags=_EW)
zeta_op = defop("zeta", "Zeta", inputs=("x: T", "q: T"), attrs=_T_F32_F64, infer=I.binary,
                kernel=_in_float64(S.zeta), flags=_EW)


# ---- 0 where x is 0, whatever y is ------------------------------------------------------------

def _zero_where_x_is_zero(x, value):
    x, value = np.broadcast_arrays(np.asarray(x), np.asarray(value))
    return np.where(x == 0, np.zeros((), value.dtype), value)


def kernel_xlogy(x, y):
    with np.errstate(all="ignore"):
        return _zero_where_x_is_zero(x, x * np.log(y))


def kernel_xlog1py(x, y):
    with np.errstate(all="ignore"):
        return _zero_where_x_is_zero(x, x * np.log1p(y))


def kernel_xdivy(x, y):
    with np.errstate(all="ignore"):
        return _zero_where_x_is_zero(x, x / y)


_XY = ("x: T", "y: T")
xlogy_op = defop("xlogy", "Xlogy", inputs=_XY, attrs=_T_FLOATC, infer=I.binary,
                 kernel=kernel_xlogy, flags=_EW)
xlog1py_op = defop("xlog1py", "Xlog1py", inputs=_XY, attrs=_T_FLOATC, infer=I.binary,
                   kernel=kernel_xlog1py, flags=_EW)
xdivy_op = defop("xdivy", "Xdivy", inputs=_XY, attrs=_T_FLOATC, infer=I.binary,
                 kernel=kernel_xdivy, flags=_EW)
