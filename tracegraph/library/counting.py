"""Counting and ranking as TensorFlow writes them: `tf.math.bincount` (`DenseBincount`),
`tf.math.confusion_matrix` (a `ScatterNd` of ones or weights at (label, prediction)),
`tf.math.in_top_k` (`InTopKV2`)."""

from __future__ import annotations

import numpy as np

from .. import dtypes as d
from ..ops.counting import dense_bincount_op, in_top_k_op
from ..ops.registry import bind, convert_to_tensor
from .array import ones_like, reshape, size, squeeze
from .indexing import scatter_nd
from .join_split import stack
from .logging import ASSERTS
from .math import add, cast, greater, maximum, minimum, multiply
from .reduce import reduce_max

__all__ = ["bincount", "confusion_matrix", "in_top_k"]


def bincount(arr, weights=None, minlength=None, maxlength=None, dtype=d.int32, name=None,
             axis=None, binary_output=False):
    """How often each value in `arr` occurs (weighted: the sum of its weights), over all of
    `arr` (axis=None or 0) or per row of a matrix (axis=-1); `binary_output` marks presence."""
    arr = convert_to_tensor(arr)
    if weights is not None:
        weights = convert_to_tensor(weights)
    if weights is not None and binary_output:
        raise ValueError("Arguments `binary_output` and `weights` are mutually exclusive. "
                         "Please specify only one.")
    if not arr.dtype.is_integer:
        arr = cast(arr, d.int32)
    axis = 0 if axis is None else axis
    if axis not in (0, -1):
        raise ValueError(f"Unsupported value for argument axis={axis}. Only 0 and -1 are "
                         f"currently supported.")
    nonempty = cast(greater(size(arr), 0), arr.dtype)
    output_size = multiply(nonempty, add(reduce_max(arr), 1))
    if minlength is not None:
        output_size = maximum(convert_to_tensor(minlength, dtype=arr.dtype), output_size)
    if maxlength is not None:
        output_size = minimum(convert_to_tensor(maxlength, dtype=arr.dtype), output_size)
    if axis == 0:
        if weights is not None:
            weights = reshape(weights, [-1])
        arr = reshape(arr, [-1])
    if weights is None:
        weights = np.zeros((0,), d.as_dtype(dtype).as_numpy_dtype)
    return bind(dense_bincount_op, (arr, output_size, weights),
                {"binary_output": bool(binary_output)}, name)


def _remove_squeezable_dimensions(labels, predictions):
    lr, pr = labels.shape.rank, predictions.shape.rank
    if lr is not None and pr is not None:
        if pr - lr == 1 and predictions.shape.as_list()[-1] in (1, None):
            predictions = squeeze(predictions, [-1])
        elif pr - lr == -1 and labels.shape.as_list()[-1] in (1, None):
            labels = squeeze(labels, [-1])
    return labels, predictions


def confusion_matrix(labels, predictions, num_classes=None, weights=None, dtype=d.int32,
                     name=None):
    """`[num_classes, num_classes]` counts (or summed weights) of each (label, prediction)."""
    labels, predictions = _remove_squeezable_dimensions(convert_to_tensor(labels),
                                                        convert_to_tensor(predictions))
    predictions = cast(predictions, d.int64)
    labels = cast(labels, d.int64)
    # the checks run before the scatter: eagerly now, in a graph as stateful ops (every
    # stateful op of a traced function runs)
    ASSERTS["assert_non_negative"](labels, message="`labels` contains negative values")
    ASSERTS["assert_non_negative"](predictions, message="`predictions` contains negative values")
    if num_classes is None:
        num_classes = add(maximum(reduce_max(predictions), reduce_max(labels)), 1)
    else:
        bound = cast(num_classes, d.int64)
        ASSERTS["assert_less"](labels, bound, message="`labels` out of bound")
        ASSERTS["assert_less"](predictions, bound, message="`predictions` out of bound")
    if weights is not None:
        weights = convert_to_tensor(weights)
        if not predictions.shape.is_compatible_with(weights.shape):
            raise ValueError(f"Shapes {predictions.shape} and {weights.shape} are incompatible")
        weights = cast(weights, dtype)
    shape = cast(stack([num_classes, num_classes]), d.int64)
    indices = stack([labels, predictions], axis=1)
    values = ones_like(predictions, dtype=dtype) if weights is None else weights
    return scatter_nd(indices, values, shape, name=name)


def in_top_k(targets, predictions, k, name=None):
    """Whether `predictions[i, targets[i]]` is among the `k` largest of row i (ties count for
    the target; a row holding a non-finite value, or a target out of range, is False)."""
    targets = convert_to_tensor(targets)
    predictions = convert_to_tensor(predictions, dtype=d.float32)
    return bind(in_top_k_op, (predictions, targets, convert_to_tensor(k, dtype=targets.dtype)),
                {}, name)
