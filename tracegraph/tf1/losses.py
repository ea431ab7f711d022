"""`tf.compat.v1.losses`: TF1's loss functions, which weight, reduce and collect their loss.

Each loss is computed elementwise (in float32), multiplied by `weights` (a scalar or a tensor
broadcastable to the losses) and reduced as `reduction` says; by default
`SUM_BY_NONZERO_WEIGHTS`: the weighted sum divided by the number of elements whose weight is
not 0 (`DivNoNan`, 0 when there are none), the op named `value` in the loss's name scope (as
TensorFlow names it: `mean_squared_error/value:0`). In a TF1 graph the loss joins the `losses`
collection, which `get_losses` and `get_total_loss` read (with the `get_variable`
regularizers' `regularization_losses`); eagerly there are no collections, as in TF 2.
"""

from __future__ import annotations

from .. import dtypes as d
from ..framework.contexts import init_scope_context
from ..framework.name_scopes import name_scope_v2 as name_scope
from ..library.array import ones_like, stop_gradient
from ..library.indexing import where
from ..library.math import (
    abs,  # noqa: A004 - TensorFlow's name
    add_n,
    cast,
    divide_no_nan,
    equal,
    log,
    minimum,
    multiply,
    squared_difference,
)
from ..library.nn import (
    relu,
    sigmoid_cross_entropy_with_logits,
    softmax_cross_entropy_with_logits,
    sparse_softmax_cross_entropy_with_logits,
)
from ..library.reduce import reduce_sum
from ..ops.registry import convert_to_tensor
from .variable_scope import REGULARIZATION_LOSSES

__all__ = ["Reduction", "compute_weighted_loss", "absolute_difference", "mean_squared_error",
           "huber_loss", "log_loss", "hinge_loss", "cosine_distance", "softmax_cross_entropy",
           "sparse_softmax_cross_entropy", "sigmoid_cross_entropy", "add_loss", "get_losses",
           "get_regularization_losses", "get_regularization_loss", "get_total_loss"]

LOSSES = "losses"


class Reduction:
    """How a weighted loss is reduced to the value returned."""

    NONE = "none"
    SUM = "weighted_sum"
    SUM_OVER_BATCH_SIZE = "weighted_sum_over_batch_size"
    MEAN = "weighted_mean"
    SUM_BY_NONZERO_WEIGHTS = "weighted_sum_by_nonzero_weights"
    SUM_OVER_NONZERO_WEIGHTS = SUM_BY_NONZERO_WEIGHTS

    @classmethod
    def all(cls):
        return (cls.NONE, cls.SUM, cls.MEAN, cls.SUM_OVER_BATCH_SIZE,
                cls.SUM_OVER_NONZERO_WEIGHTS, cls.SUM_BY_NONZERO_WEIGHTS)

    @classmethod
    def validate(cls, key) -> None:
        if key not in cls.all():
            raise ValueError(f"Invalid Reduction Key {key}.")


def _graph():
    return getattr(init_scope_context(), "graph", None)


def add_loss(loss, loss_collection=LOSSES) -> None:
    """Adds `loss` to the graph's `loss_collection` (nothing eagerly)."""
    graph = _graph()
    if loss_collection and graph is not None:
        graph.add_to_collection(loss_collection, loss)


def get_losses(scope=None, loss_collection=LOSSES) -> list:
    graph = _graph()
    return graph.get_collection(loss_collection, scope) if graph is not None else []


def get_regularization_losses(scope=None) -> list:
    graph = _graph()
    return graph.get_collection(REGULARIZATION_LOSSES, scope) if graph is not None else []


def get_regularization_loss(scope=None, name="total_regularization_loss"):
    """The sum of the regularization losses (0.0 when there are none)."""
    losses = get_regularization_losses(scope)
    if losses:
        return add_n(losses, name=name)
    return convert_to_tensor(0.0)


def get_total_loss(add_regularization_losses=True, name="total_loss", scope=None):
    """The sum of the collected losses and (by default) the regularization losses."""
    losses = get_losses(scope) + (get_regularization_losses(scope)
                                  if add_regularization_losses else [])
    if not losses:
        raise ValueError("No losses found.")
    return add_n(losses, name=name)


def _present(losses, weights):
    """How many elements of `losses` have a weight that is not 0 (weights broadcast)."""
    nonzero = where(equal(weights, 0.0), 0.0 * weights, ones_like(weights))
    return reduce_sum(nonzero * ones_like(losses))


def compute_weighted_loss(losses, weights=1.0, scope=None, loss_collection=LOSSES,
                          reduction=Reduction.SUM_BY_NONZERO_WEIGHTS):
    """`losses * weights` reduced as `reduction` says, added to `loss_collection`."""
    Reduction.validate(reduction)
    with name_scope(scope or "weighted_loss"):
        losses = convert_to_tensor(losses)
        input_dtype = losses.dtype
        losses = cast(losses, d.float32)
        weights = cast(weights, d.float32)
        weighted = multiply(losses, weights)
        if reduction == Reduction.NONE:
            loss = weighted
        else:
            loss = reduce_sum(weighted)
            if reduction == Reduction.MEAN:
                loss = divide_no_nan(loss, reduce_sum(ones_like(losses) * weights),
                                     name="value")
            elif reduction == Reduction.SUM_BY_NONZERO_WEIGHTS:
                loss = divide_no_nan(loss, _present(losses, weights), name="value")
            elif reduction == Reduction.SUM_OVER_BATCH_SIZE:
                count = reduce_sum(ones_like(losses))
                loss = divide_no_nan(loss, count, name="value")
        loss = cast(loss, input_dtype)
        add_loss(loss, loss_collection)
        return loss


def _pair(labels, predictions):
    labels, predictions = cast(labels, d.float32), cast(predictions, d.float32)
    predictions.shape.assert_is_compatible_with(labels.shape)
    return labels, predictions


def _weighted(losses, weights, scope, loss_collection, reduction):
    return compute_weighted_loss(losses, weights, scope, loss_collection, reduction)


_SUM_BY_NONZERO = Reduction.SUM_BY_NONZERO_WEIGHTS


def absolute_difference(labels, predictions, weights=1.0, scope=None, loss_collection=LOSSES,
                        reduction=_SUM_BY_NONZERO):
    with name_scope(scope or "absolute_difference") as opened:
        labels, predictions = _pair(labels, predictions)
        losses = abs(predictions - labels)
        return _weighted(losses, weights, opened, loss_collection, reduction)


def mean_squared_error(labels, predictions, weights=1.0, scope=None, loss_collection=LOSSES,
                       reduction=_SUM_BY_NONZERO):
    with name_scope(scope or "mean_squared_error") as opened:
        labels, predictions = _pair(labels, predictions)
        losses = squared_difference(predictions, labels)
        return _weighted(losses, weights, opened, loss_collection, reduction)


def huber_loss(labels, predictions, weights=1.0, delta=1.0, scope=None,
               loss_collection=LOSSES, reduction=_SUM_BY_NONZERO):
    """Quadratic within `delta` of the label, linear beyond."""
    with name_scope(scope or "huber_loss") as opened:
        labels, predictions = _pair(labels, predictions)
        error = abs(predictions - labels)
        quadratic = minimum(error, delta)
        losses = 0.5 * quadratic * quadratic + delta * (error - quadratic)
        return _weighted(losses, weights, opened, loss_collection, reduction)


def log_loss(labels, predictions, weights=1.0, epsilon=1e-7, scope=None,
             loss_collection=LOSSES, reduction=_SUM_BY_NONZERO):
    with name_scope(scope or "log_loss") as opened:
        labels, predictions = _pair(labels, predictions)
        losses = -labels * log(predictions + epsilon) - (1.0 - labels) * log(
            1.0 - predictions + epsilon)
        return _weighted(losses, weights, opened, loss_collection, reduction)


def hinge_loss(labels, logits, weights=1.0, scope=None, loss_collection=LOSSES,
               reduction=_SUM_BY_NONZERO):
    """Labels 0/1 become -1/+1; the loss is `relu(1 - label * logit)`."""
    with name_scope(scope or "hinge_loss") as opened:
        labels, logits = _pair(labels, logits)
        losses = relu(1.0 - (2.0 * labels - 1.0) * logits)
        return _weighted(losses, weights, opened, loss_collection, reduction)


def cosine_distance(labels, predictions, axis=None, weights=1.0, scope=None,
                    loss_collection=LOSSES, reduction=_SUM_BY_NONZERO, dim=None):
    """1 - the dot product along `axis` (of unit-normalized labels and predictions)."""
    axis = axis if axis is not None else dim
    if axis is None:
        raise ValueError("You must specify argument `axis`.")
    with name_scope(scope or "cosine_distance_loss") as opened:
        labels, predictions = _pair(labels, predictions)
        losses = 1.0 - reduce_sum(labels * predictions, axis=axis, keepdims=True)
        return _weighted(losses, weights, opened, loss_collection, reduction)


def softmax_cross_entropy(onehot_labels, logits, weights=1.0, label_smoothing=0.0, scope=None,
                          loss_collection=LOSSES, reduction=_SUM_BY_NONZERO):
    """Softmax cross-entropy of one-hot labels (smoothed toward 1/classes)."""
    with name_scope(scope or "softmax_cross_entropy_loss") as opened:
        logits = convert_to_tensor(logits)
        labels = cast(onehot_labels, logits.dtype)
        if label_smoothing > 0:
            classes = cast(logits.shape[-1], logits.dtype)
            labels = labels * (1.0 - label_smoothing) + label_smoothing / classes
        losses = softmax_cross_entropy_with_logits(labels=stop_gradient(labels), logits=logits)
        return _weighted(losses, weights, opened, loss_collection, reduction)


def sparse_softmax_cross_entropy(labels, logits, weights=1.0, scope=None,
                                 loss_collection=LOSSES, reduction=_SUM_BY_NONZERO):
    with name_scope(scope or "sparse_softmax_cross_entropy_loss") as opened:
        losses = sparse_softmax_cross_entropy_with_logits(labels=labels, logits=logits)
        return _weighted(losses, weights, opened, loss_collection, reduction)


def sigmoid_cross_entropy(multi_class_labels, logits, weights=1.0, label_smoothing=0.0,
                          scope=None, loss_collection=LOSSES, reduction=_SUM_BY_NONZERO):
    """Sigmoid cross-entropy of 0/1 labels (smoothed toward 1/2)."""
    with name_scope(scope or "sigmoid_cross_entropy_loss") as opened:
        logits = convert_to_tensor(logits)
        labels = cast(multi_class_labels, logits.dtype)
        if label_smoothing > 0:
            labels = labels * (1.0 - label_smoothing) + 0.5 * label_smoothing
        losses = sigmoid_cross_entropy_with_logits(labels=labels, logits=logits)
        return _weighted(losses, weights, opened, loss_collection, reduction)
