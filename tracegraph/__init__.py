"""tracegraph: TensorFlow 2's graph system rebuilt in Python on NumPy.

    import tracegraph as tf

This module is the public, TensorFlow-shaped namespace. It re-exports; it defines nothing.
"""

import types as _types
import warnings as _warnings

# NumPy reports overflow, division by zero and invalid values as RuntimeWarnings; TensorFlow's
# kernels never warn (1/0 is inf, ints wrap). Silence them only when raised from our own code,
# the kernels and the code we generate, never from the user's.
_warnings.filterwarnings("ignore", category=RuntimeWarning, module=r"tracegraph(\.|$)")

from . import config, dtypes, errors, nest  # noqa: E402, F401
from .api import autograph, bitwise, debugging, linalg, math, nn, random, strings  # noqa: E402, F401
from .dtypes import (  # noqa: E402, F401
    DType, as_dtype, bfloat16, bool, complex64, complex128, double, float16, float32, float64,
    half, int8, int16, int32, int64, resource, string, uint8, uint16, uint32, uint64, variant,
)
from .framework import eager as _eager  # noqa: E402, F401  (installs the eager context)
from .framework.tensor import Tensor  # noqa: E402
from .graph.graph import Graph  # noqa: E402, F401
from .framework.variables import Variable  # noqa: E402
from .ops.array import (  # noqa: E402, F401
    constant, ensure_shape, expand_dims, fill, identity, ones, ones_like, rank_ as rank, reshape,
    shape, size, squeeze, stop_gradient, transpose, zeros, zeros_like,
)
from .ops.pieces import (  # noqa: E402, F401
    broadcast_to, concat, pad, reverse, roll, slice_ as slice, split, stack, tile, unstack,
)
from .ops.indexing import (  # noqa: E402, F401
    argsort, boolean_mask, clip_by_value, gather, gather_nd, linspace, one_hot, range_ as range,
    scatter_nd, sequence_mask, sort, unique, where,
)
from .ops.linalg import einsum, eye, matmul, norm, tensordot  # noqa: E402, F401
from .ops.logging import Assert, no_op, print_ as print  # noqa: E402, F401
from .ops.math import (  # noqa: E402, F401
    abs, add, add_n, cast, cos, divide, equal, exp, greater, greater_equal, less, less_equal,
    logical_and, logical_not, logical_or, maximum, minimum, multiply, negative, not_equal, pow,
    saturate_cast, truediv, truncatediv, truncatemod, round, sigmoid, sign, sin, sqrt, square,
    subtract, tanh,
)
from .ops.reduce import (  # noqa: E402, F401
    argmax, argmin, cumsum, reduce_all, reduce_any, reduce_logsumexp, reduce_max, reduce_mean,
    reduce_min, reduce_prod, reduce_std, reduce_sum, reduce_variance,
)
from .ops import functional as _functional  # noqa: E402, F401  (registers control flow ops)
from .ops.registry import convert_to_tensor  # noqa: E402, F401
from .ops.slicing import strided_slice  # noqa: E402, F401
from .shapes import TensorShape, TensorSpec  # noqa: E402, F401
from .trace.concrete import ConcreteFunction  # noqa: E402, F401
from .trace.control_flow import cond, while_loop  # noqa: E402, F401
from .trace.function import Function, function  # noqa: E402, F401

from .execute import runner as _runner  # noqa: E402, F401  (installs optimize + compile)
from .optimize import options as _optimizer_options  # noqa: E402

# tf.config.optimizer: the options live in the optimizer's layer; the namespace is wired here.
config.optimizer = _types.SimpleNamespace(
    set_experimental_options=_optimizer_options.set_experimental_options,
    get_experimental_options=_optimizer_options.get_experimental_options,
    effective_options=_optimizer_options.effective_options,
    reset=_optimizer_options.reset,
)

# tf.dtypes also offers the casts (the dtypes module itself is plain values, layer 1).
dtypes.cast = cast
dtypes.saturate_cast = saturate_cast

newaxis = None
__version__ = "0.1.0"


def executing_eagerly() -> bool:
    """True outside `tf.function` graphs (and inside them under `run_functions_eagerly`)."""
    from .ops.registry import current_context
    return current_context().executing_eagerly


def is_tensor(x) -> bool:
    return isinstance(x, (Tensor, Variable))
