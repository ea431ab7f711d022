"""The functions whose TF1 signatures `tf.compat.v1` keeps: the reductions with
`reduction_indices` and `keep_dims`, `argmax(input, axis, name, dimension, output_type)`,
`expand_dims(dim=)`, `squeeze(squeeze_dims=)`, `norm(keep_dims=)`, and in
`tf.compat.v1.nn`: `dropout(keep_prob=)`, `softmax`/`log_softmax(dim=)` and TF1's
`softmax_cross_entropy_with_logits` (no gradient into the labels, TF's deprecation notice).
Each resolves its old argument names as TensorFlow's `deprecated_argument_lookup` does, then
calls the TF2 function.
"""

from __future__ import annotations

import sys

from .. import dtypes as d
from ..library import array as _array
from ..library import nn as _nn
from ..library import reduce as _reduce
from ..library.array import stop_gradient
from ..library.linalg import norm as _norm
from ..tf_logging import deprecation_notice

__all__ = ["reduce_sum", "reduce_mean", "reduce_max", "reduce_min", "reduce_prod", "reduce_all",
           "reduce_any", "reduce_logsumexp", "count_nonzero", "argmax", "argmin", "expand_dims",
           "squeeze", "norm", "dropout", "softmax", "log_softmax",
           "softmax_cross_entropy_with_logits"]


def _either(new_name: str, new, old_name: str, old):
    """TensorFlow's `deprecated_argument_lookup`: the value given under either name."""
    if old is not None:
        if new is not None:
            raise ValueError(f"Cannot specify both '{old_name}' and '{new_name}'.")
        return old
    return new


def _reduction(reduce):
    def v1_reduce(input_tensor, axis=None, keepdims=None, name=None, reduction_indices=None,
                  keep_dims=None):
        axis = _either("axis", axis, "reduction_indices", reduction_indices)
        keepdims = _either("keepdims", keepdims, "keep_dims", keep_dims)
        return reduce(input_tensor, axis=axis, keepdims=bool(keepdims), name=name)
    v1_reduce.__name__ = v1_reduce.__qualname__ = reduce.__name__
    v1_reduce.__doc__ = f"TF1's `{reduce.__name__}` (`reduction_indices`, `keep_dims`)."
    return v1_reduce


reduce_sum = _reduction(_reduce.reduce_sum)
reduce_mean = _reduction(_reduce.reduce_mean)
reduce_max = _reduction(_reduce.reduce_max)
reduce_min = _reduction(_reduce.reduce_min)
reduce_prod = _reduction(_reduce.reduce_prod)
reduce_all = _reduction(_reduce.reduce_all)
reduce_any = _reduction(_reduce.reduce_any)
reduce_logsumexp = _reduction(_reduce.reduce_logsumexp)


def count_nonzero(input_tensor=None, axis=None, keepdims=None, dtype=d.int64, name=None,
                  reduction_indices=None, keep_dims=None, input=None):  # noqa: A002
    input_tensor = _either("input_tensor", input_tensor, "input", input)
    axis = _either("axis", axis, "reduction_indices", reduction_indices)
    keepdims = _either("keepdims", keepdims, "keep_dims", keep_dims)
    return _reduce.count_nonzero(input_tensor, axis=axis, keepdims=bool(keepdims), dtype=dtype,
                                 name=name)


def argmax(input, axis=None, name=None, dimension=None, output_type=d.int64):  # noqa: A002
    axis = _either("axis", axis, "dimension", dimension)
    return _reduce.argmax(input, 0 if axis is None else axis, output_type=output_type,
                          name=name)


def argmin(input, axis=None, name=None, dimension=None, output_type=d.int64):  # noqa: A002
    axis = _either("axis", axis, "dimension", dimension)
    return _reduce.argmin(input, 0 if axis is None else axis, output_type=output_type,
                          name=name)


def expand_dims(input, axis=None, name=None, dim=None):  # noqa: A002
    axis = _either("axis", axis, "dim", dim)
    if axis is None:
        raise ValueError("Must specify an axis argument to tf.expand_dims()")
    return _array.expand_dims(input, axis, name=name)


def squeeze(input, axis=None, name=None, squeeze_dims=None):  # noqa: A002
    axis = _either("axis", axis, "squeeze_dims", squeeze_dims)
    return _array.squeeze(input, axis, name=name)


def norm(tensor, ord="euclidean", axis=None, keepdims=None, name=None,  # noqa: A002
         keep_dims=None):
    keepdims = _either("keepdims", keepdims, "keep_dims", keep_dims)
    return _norm(tensor, ord=ord, axis=axis, keepdims=keepdims, name=name)


# ---- tf.compat.v1.nn ----------------------------------------------------------------------------

def dropout(x, keep_prob=None, noise_shape=None, seed=None, name=None, rate=None):
    """TF1's dropout: keeps each element with probability `keep_prob` (or drops with `rate`)."""
    if keep_prob is not None:
        if rate is not None:
            raise ValueError("Cannot specify both 'rate' and 'keep_prob'.")
        rate = 1 - keep_prob
    return _nn.dropout(x, rate, noise_shape=noise_shape, seed=seed, name=name)


def softmax(logits, axis=None, name=None, dim=None):
    return _nn.softmax(logits, _either("axis", axis, "dim", dim), name=name)


def log_softmax(logits, axis=None, name=None, dim=None):
    return _nn.log_softmax(logits, _either("axis", axis, "dim", dim), name=name)


def softmax_cross_entropy_with_logits(_sentinel=None, labels=None, logits=None, dim=-1,
                                      name=None, axis=None):
    """TF1's version: the labels get no gradient (`_v2` lets it flow)."""
    if _sentinel is not None:
        raise ValueError("Only call `softmax_cross_entropy_with_logits` with named arguments "
                         "(labels=..., logits=..., ...). Received unnamed argument: "
                         f"{_sentinel}")
    deprecation_notice(
        "softmax_cross_entropy_with_logits", "tensorflow.python.ops.nn_ops",
        "\nFuture major versions of TensorFlow will allow gradients to flow\ninto the labels "
        "input on backprop by default.\n\nSee `tf.nn.softmax_cross_entropy_with_logits_v2`.\n",
        sys._getframe(1))
    axis = _either("axis", axis, "dim", dim)
    return _nn.softmax_cross_entropy_with_logits(stop_gradient(labels), logits, axis=axis,
                                                 name=name)
