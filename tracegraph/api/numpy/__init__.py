"""`tf.experimental.numpy` (`import tensorflow.experimental.numpy as tnp`): the NumPy API on
tracegraph tensors. `ndarray` is `tf.Tensor`; functions take tensors, NumPy values and Python
values, promote dtypes by NumPy's rules (or the lattice of TF's type-promotion guide, see
`experimental_enable_numpy_behavior`), and run eagerly or inside `tf.function`."""

import numpy as _np

from ... import dtypes as _d
from . import random
from .arrays import (  # noqa: F401
    arange, array, asanyarray, asarray, ascontiguousarray, copy, empty, empty_like, eye, full,
    full_like, geomspace, identity, linspace, logspace, ndarray, ones, ones_like, zeros,
    zeros_like,
)
from .behavior import experimental_enable_numpy_behavior, promote_types, result_type  # noqa
from .math import (  # noqa: F401
    abs, absolute, add, all, allclose, amax, amin, any, arccos, arccosh, arcsin, arcsinh, arctan,
    arctan2, arctanh, argmax, argmin, around, array_equal, average, bitwise_and, bitwise_not,
    bitwise_or, bitwise_xor, ceil, clip, conj, conjugate, cos, cosh, count_nonzero, cumprod,
    cumsum, deg2rad, divide, divmod, equal, exp, exp2, expm1, fabs, float_power, floor,
    floor_divide, greater, greater_equal, hypot, imag, isclose, isfinite, isinf, isnan, less,
    less_equal, log, log1p, log2, log10, logical_and, logical_not, logical_or, logical_xor, max,
    maximum, mean, min, minimum, mod, multiply, negative, not_equal, positive, power, prod, ptp,
    rad2deg, real, reciprocal, remainder, rint, sign, sin, sinh, sqrt, square, std, subtract,
    sum, tan, tanh, true_divide, var,
)
from .math import round_ as round  # noqa: F401
from .more import (  # noqa: F401
    angle, atleast_3d, broadcast_arrays, cbrt, compress, diag_indices, diagflat, diff, dstack,
    fix, gcd, heaviside, iscomplex, iscomplexobj, isneginf, isposinf, isreal, isrealobj,
    isscalar, ix_, lcm, logaddexp, logaddexp2, meshgrid, nanmean, nextafter, polyval, rot90,
    select, signbit, sinc, vander,
)
from .shapes import (  # noqa: F401
    append, argsort, atleast_1d, atleast_2d, broadcast_to, concatenate, cross, diag, diagonal,
    dot, einsum, expand_dims, flatten, flip, fliplr, flipud, hstack, inner, kron, matmul,
    moveaxis, ndim, nonzero, outer, pad, ravel, repeat, reshape, roll, shape, size, sort, split,
    squeeze, stack, swapaxes, take, take_along_axis, tensordot, tile, trace, transpose, tri,
    tril, triu, vdot, vstack, where,
)

# dtypes: TensorFlow's own DTypes under NumPy's names.
bool_ = _d.bool
int8, int16, int32, int64 = _d.int8, _d.int16, _d.int32, _d.int64
uint8, uint16, uint32, uint64 = _d.uint8, _d.uint16, _d.uint32, _d.uint64
float16, float32, float64 = _d.float16, _d.float32, _d.float64
bfloat16 = _d.bfloat16
complex64, complex128 = _d.complex64, _d.complex128
float_, complex_, int_ = _d.float64, _d.complex128, _d.int64
object_, string_, unicode_ = _np.object_, _np.bytes_, _np.str_
iinfo, finfo, issubdtype = _np.iinfo, _np.finfo, _np.issubdtype
inexact, floating, integer, signedinteger, unsignedinteger, number, complexfloating = (
    _np.inexact, _np.floating, _np.integer, _np.signedinteger, _np.unsignedinteger, _np.number,
    _np.complexfloating)
generic = _np.generic

e, pi, inf, nan = _np.e, _np.pi, _np.inf, _np.nan
newaxis = None
