"""tf.compat.v1.losses against TensorFlow 2.21 (values and names recorded from TF 2.21 running
the same graph), eagerly and in tf.function, with their gradient."""

import numpy as np
import pytest

import tracegraph as tf

v1 = tf.compat.v1
R = v1.losses.Reduction

LABELS, PREDS, WEIGHTS = [[1.0], [2.0], [3.0]], [[1.5], [1.0], [3.0]], [[1.0], [0.0], [2.0]]
LOGITS = [[2.0, 1.0, 0.1], [0.5, 2.5, 0.3]]
ONEHOT = [[1.0, 0.0, 0.0], [0.0, 0.0, 1.0]]


def _all_losses():
    labels, preds, w = tf.constant(LABELS), tf.constant(PREDS), tf.constant(WEIGHTS)
    logits, onehot = tf.constant(LOGITS), tf.constant(ONEHOT)
    return [
        v1.losses.mean_squared_error(labels, preds),
        v1.losses.mean_squared_error(labels, preds, weights=w),
        v1.losses.mean_squared_error(labels, preds, reduction=R.NONE, loss_collection=None),
        v1.losses.mean_squared_error(labels, preds, weights=w, reduction=R.SUM),
        v1.losses.mean_squared_error(labels, preds, weights=w, reduction=R.MEAN),
        v1.losses.absolute_difference(labels, preds),
        v1.losses.softmax_cross_entropy(onehot, logits),
        v1.losses.softmax_cross_entropy(onehot, logits, label_smoothing=0.1),
        v1.losses.sparse_softmax_cross_entropy(tf.constant([0, 2]), logits),
        v1.losses.sigmoid_cross_entropy(onehot, logits),
        v1.losses.huber_loss(labels, preds, delta=0.3),
        v1.losses.log_loss(tf.constant([1.0, 0.0]), tf.constant([0.9, 0.2])),
        v1.losses.hinge_loss(tf.constant([1.0, 0.0]), tf.constant([0.3, -0.4])),
        v1.losses.cosine_distance(tf.constant([[0.6, 0.8]]), tf.constant([[1.0, 0.0]]), axis=1),
    ]


TF221 = [0.41667, 0.125, [[0.25], [1.0], [0.0]], 0.25, 0.08333, 0.5, 1.41854, 1.42687, 1.41854,
         1.04865, 0.12, 0.16425, 0.65, 0.4]


def _check(values):
    for got, want in zip(values, TF221):
        np.testing.assert_allclose(np.asarray(got), want, rtol=0, atol=1e-5)


def test_losses_in_a_graph_named_and_collected_as_tensorflow_s():
    with tf.Graph().as_default():
        losses = _all_losses()
        assert (losses[0].name, losses[0].op.type, losses[6].name) == (
            "mean_squared_error/value:0", "DivNoNan", "softmax_cross_entropy_loss/value:0")
        assert [t.name for t in v1.losses.get_losses()] == [
            "mean_squared_error/value:0", "mean_squared_error_1/value:0",
            "mean_squared_error_3/Sum:0", "mean_squared_error_4/value:0",
            "absolute_difference/value:0", "softmax_cross_entropy_loss/value:0",
            "softmax_cross_entropy_loss_1/value:0", "sparse_softmax_cross_entropy_loss/value:0",
            "sigmoid_cross_entropy_loss/value:0", "huber_loss/value:0", "log_loss/value:0",
            "hinge_loss/value:0", "cosine_distance_loss/value:0"]
        v1.get_variable("x", [2], initializer=v1.ones_initializer(),
                        regularizer=lambda t: tf.reduce_sum(t) * 0.5)
        v1.losses.add_loss(tf.constant(10.0))
        reg, total = v1.losses.get_regularization_loss(), v1.losses.get_total_loss()
        assert (reg.name, total.name) == ("total_regularization_loss:0", "total_loss:0")
        assert len(v1.losses.get_losses()) == 14
        with v1.Session() as s:
            s.run(v1.global_variables_initializer())
            values = s.run(losses + [reg, total])
    _check(values)
    np.testing.assert_allclose(values[-2:], [1.0, 19.02186], atol=1e-4)


def test_losses_eagerly_and_in_tf_function():
    _check(_all_losses())
    assert v1.losses.get_losses() == []   # no collections in TF2
    _check(tf.function(_all_losses)())


def test_reduction_and_its_errors():
    assert R.SUM_BY_NONZERO_WEIGHTS == R.SUM_OVER_NONZERO_WEIGHTS == \
        "weighted_sum_by_nonzero_weights"
    assert R.all() == ("none", "weighted_sum", "weighted_mean", "weighted_sum_over_batch_size",
                       "weighted_sum_by_nonzero_weights", "weighted_sum_by_nonzero_weights")
    with pytest.raises(ValueError, match="Invalid Reduction Key bad."):
        v1.losses.mean_squared_error([1.0], [2.0], reduction="bad")
    with pytest.raises(ValueError, match="You must specify argument `axis`."):
        v1.losses.cosine_distance([[1.0]], [[1.0]])
    with pytest.raises(AttributeError, match="`dense` is not available with Keras 3."):
        v1.layers.dense   # noqa: B018 - TF 2.21 with Keras 3


def test_gradient_matches_finite_differences():
    labels = tf.constant([[1.0, -2.0], [0.5, 3.0]])
    preds = tf.Variable([[1.5, -1.0], [0.0, 2.0]])
    weights = tf.constant([[1.0, 0.0], [2.0, 1.0]])

    def loss():
        return v1.losses.huber_loss(labels, preds, weights=weights, delta=0.8) + \
            v1.losses.softmax_cross_entropy(tf.constant([[0.0, 1.0], [1.0, 0.0]]), preds,
                                            label_smoothing=0.2)

    with tf.GradientTape() as tape:
        value = loss()
    grad = tape.gradient(value, preds).numpy()
    base, eps, numeric = preds.numpy(), 1e-3, np.zeros((2, 2))
    for i in range(2):
        for j in range(2):
            for sign in (1, -1):
                bumped = base.copy()
                bumped[i, j] += sign * eps
                preds.assign(bumped)
                numeric[i, j] += sign * float(loss()) / (2 * eps)
    np.testing.assert_allclose(grad, numeric, atol=2e-3)
