"""`tf.math`."""

from ..ops.indexing import top_k  # noqa: F401
from ..ops.linalg import cross  # noqa: F401
from ..ops.math import (  # noqa: F401
    abs, acos, acosh, add, add_n, asin, asinh, atan, atan2, atanh, cast, ceil, conj, cos, cosh,
    divide, divide_no_nan, equal, erf, exp, expm1, floor, floordiv, floormod, greater,
    greater_equal, imag, invert, is_finite, is_inf, is_nan, less, less_equal, log, log1p,
    logical_and, logical_not, logical_or, logical_xor, maximum, minimum, multiply, negative,
    not_equal, pow, real, reciprocal, rint, round, rsqrt, saturate_cast, scalar_mul, sigmoid, sign,
    sin, sinh, softplus, softsign, sqrt, square, squared_difference, subtract, tan, tanh,
    truediv, truncatediv, truncatemod,
)
from ..ops.reduce import (  # noqa: F401
    argmax, argmin, count_nonzero, cumprod, cumsum, reduce_all, reduce_any,
    reduce_euclidean_norm, reduce_logsumexp,
    reduce_max, reduce_mean, reduce_min, reduce_prod, reduce_std, reduce_sum, reduce_variance,
)
from ..ops.nn import l2_normalize, softmax  # noqa: F401

mod = floormod
negative = negative
