"""The other nn and Keras ops checked against TensorFlow 2.21 (as conv_pool_cases.py): counting,
ranking, embeddings, normalization statistics, losses, activations, space/depth blocks. Values
and gradients are recorded by fixtures/make_case_fixtures.py into fixtures/nn_extras.npz."""

from __future__ import annotations

import numpy as np

rng = np.random.default_rng(5)
IMG = rng.standard_normal((2, 3, 4, 6)).astype(np.float32)
LOGITS = np.float32([[1.0, 3.0, 3.0, -1.0], [0.5, 0.1, 2.0, 2.0], [4.0, 1.0, np.inf, 0.0]])
TABLE = rng.standard_normal((10, 3)).astype(np.float32)
X = np.float32([[-3.0, -0.5, 0.0, 0.25], [1.0, 2.5, -1.5, 40.0]])
Z = np.float32([[0.0, 1.0, 0.5, 1.0], [1.0, 0.0, 0.25, 1.0]])
DW = rng.standard_normal((3, 2, 3, 2)).astype(np.float32)
DY = rng.standard_normal((2, 2, 2, 6)).astype(np.float32)
CTC_LOGITS = rng.standard_normal((2, 6, 5)).astype(np.float32)
CTC_LABELS = np.int32([[1, 2, 2, 0], [3, 1, 0, 0]])

CASES = {
    "bincount": (lambda tf, x: tf.math.bincount(x), (np.int32([1, 1, 4, 0, 2, 4, 4]),)),
    "bincount_weights": (lambda tf, x, w: tf.math.bincount(x, weights=w, minlength=7),
                         (np.int32([1, 1, 4, 0]), np.float32([0.5, 1.5, 2.0, 1.0]))),
    "bincount_maxlength": (lambda tf, x: tf.math.bincount(x, maxlength=3, dtype=tf.float64),
                           (np.int64([[1, 5], [2, 2]]),)),
    "bincount_rows": (lambda tf, x: tf.math.bincount(x, axis=-1, minlength=5),
                      (np.int32([[1, 1, 3], [0, 4, 4]]),)),
    "bincount_binary": (lambda tf, x: tf.math.bincount(x, axis=-1, binary_output=True),
                        (np.int32([[1, 1, 3], [0, 4, 4]]),)),
    "bincount_empty": (lambda tf, x: tf.math.bincount(x, minlength=2), (np.zeros(0, np.int32),)),
    "confusion_matrix": (lambda tf, y, p: tf.math.confusion_matrix(y, p),
                         (np.int32([1, 2, 4, 2]), np.int64([2, 2, 4, 0]))),
    "confusion_matrix_weights": (lambda tf, y, p, w: tf.math.confusion_matrix(
        y, p, num_classes=5, weights=w, dtype=tf.float32),
        (np.int32([[1], [2], [4]]), np.int32([2, 2, 3]), np.float32([0.5, 1.0, 2.0]))),
    "in_top_k": (lambda tf, t, p: tf.math.in_top_k(t, p, 2), (np.int32([2, 3, 0]), LOGITS)),
    "in_top_k_one": (lambda tf, t, p: tf.nn.in_top_k(t, p, 1), (np.int64([1, 2, 2]), LOGITS)),
    "embedding_lookup": (lambda tf, p, i: tf.nn.embedding_lookup(p, i),
                         (TABLE, np.int32([[1, 9], [3, 3]]))),
    "embedding_lookup_partitions": (lambda tf, p, i: tf.nn.embedding_lookup(
        [p[:4], p[4:7], p[7:]], i), (TABLE, np.int32([0, 9, 4, 6, 3, 7]))),
    "embedding_lookup_max_norm": (lambda tf, p, i: tf.nn.embedding_lookup(p, i, max_norm=1.0),
                                  (TABLE, np.int32([2, 0, 2]))),
    "lrn": (lambda tf, x: tf.nn.local_response_normalization(x, 2, 1.5, 0.3, 0.75), (IMG,)),
    "lrn_defaults": (lambda tf, x: tf.nn.lrn(x), (IMG,)),
    "moments": (lambda tf, x: tf.nn.moments(x, [0, 2], keepdims=True), (IMG,)),
    "weighted_moments": (lambda tf, x, w: tf.nn.weighted_moments(x, [1], w),
                         (X, np.float32([[1.0, 0.0, 2.0, 1.0]]))),
    "weighted_moments_zero": (lambda tf, x, w: tf.nn.weighted_moments(x, [1], w, keepdims=True),
                              (X, np.float32([[0.0], [1.0]]))),
    "sufficient_statistics": (lambda tf, x: tf.nn.sufficient_statistics(x, [1], shift=0.5)[:3],
                              (X,)),
    "normalize_moments": (lambda tf, x: tf.nn.normalize_moments(
        *tf.nn.sufficient_statistics(x, [0, 1], shift=0.5)), (X,)),
    "sigmoid_xent": (lambda tf, z, x: tf.nn.sigmoid_cross_entropy_with_logits(z, x), (Z, X)),
    "weighted_xent": (lambda tf, z, x: tf.nn.weighted_cross_entropy_with_logits(z, x, 2.5),
                      (Z, X)),
    "log_poisson": (lambda tf, z, x: tf.nn.log_poisson_loss(z * 3, x, compute_full_loss=True),
                    (Z, X)),
    "sparse_xent_rank3": (lambda tf, y, x: tf.nn.sparse_softmax_cross_entropy_with_logits(
        y, x), (np.int32([[1, 0], [2, 3]]), X[:, None, :].repeat(2, 1))),
    "sparse_xent_half": (lambda tf, y, x: tf.nn.sparse_softmax_cross_entropy_with_logits(
        y, tf.cast(x, tf.float16)), (np.int32([3, 0]), X)),
    "average_loss": (lambda tf, x: tf.nn.compute_average_loss(x), (X[0],)),
    "average_loss_weighted": (lambda tf, x, w: tf.nn.compute_average_loss(
        x, sample_weight=w, global_batch_size=8), (X, np.float32([[2.0], [0.5]]))),
    "scale_regularization": (lambda tf, x: tf.nn.scale_regularization_loss(x), (X,)),
    "log_sigmoid": (lambda tf, x: tf.math.log_sigmoid(x), (X,)),
    "crelu": (lambda tf, x: tf.nn.crelu(x, axis=0), (X,)),
    "gelu": (lambda tf, x: tf.nn.gelu(x), (X,)),
    "gelu_tanh": (lambda tf, x: tf.nn.gelu(x, approximate=True), (X,)),
    "silu_beta": (lambda tf, x: tf.nn.silu(x, beta=0.5), (X,)),
    "l2_normalize": (lambda tf, x: tf.nn.l2_normalize(x, axis=[0, 1]), (X,)),
    "depth_to_space": (lambda tf, x: tf.nn.depth_to_space(x, 2), (IMG[:, :, :, :4],)),
    "space_to_depth": (lambda tf, x: tf.nn.space_to_depth(x, 2), (IMG[:, :2],)),
    "space_to_depth_odd": (lambda tf, x: tf.nn.space_to_depth(x, 2), (IMG,)),
    "depthwise_backprop_input": (lambda tf, w, dy: tf.nn.depthwise_conv2d_backprop_input(
        [2, 3, 4, 3], w, dy, [1, 2, 2, 1], "SAME"), (DW, DY)),
    "depthwise_backprop_filter": (lambda tf, x, dy: tf.nn.depthwise_conv2d_backprop_filter(
        x, [3, 2, 3, 2], dy, [1, 2, 2, 1], "SAME"), (IMG[..., :3], DY)),
    "zero_fraction": (lambda tf, x: tf.nn.zero_fraction(x), (X,)),
    "zero_fraction_math": (lambda tf, z: tf.math.zero_fraction(z), (Z,)),
    "batch_norm_global": (lambda tf, x, m, v: tf.nn.batch_norm_with_global_normalization(
        x, m, v, m * 2, v + 1, 1e-3, True), (X, X[0], Z[0] + 0.5)),
    "batch_norm_global_unscaled": (lambda tf, x, m, v: tf.nn.batch_norm_with_global_normalization(
        x, m, v, m * 2, v + 1, 1e-3, False), (X, X[0], Z[0] + 0.5)),
    "top_k": (lambda tf, x: tf.nn.top_k(x, 2), (X,)),
    "log_softmax": (lambda tf, x: tf.math.log_softmax(x), (X,)),
    "ctc_loss": (lambda tf, y, x: tf.nn.ctc_loss(y, x, [3, 2], [6, 4], logits_time_major=False),
                 (CTC_LABELS, CTC_LOGITS)),
    "ctc_loss_blank_last": (lambda tf, y, x: tf.nn.ctc_loss(
        y, tf.transpose(x, [1, 0, 2]), [3, 2], [5, 6], blank_index=-1), (CTC_LABELS, CTC_LOGITS)),
    "ctc_loss_blank_inside": (lambda tf, y, x: tf.nn.ctc_loss(
        y, x, [3, 2], [6, 6], logits_time_major=False, blank_index=2),
        (CTC_LABELS, CTC_LOGITS)),
    "ctc_loss_repeats_and_empty": (lambda tf, y, x: tf.nn.ctc_loss(
        y, x, [2, 0], [6, 4], logits_time_major=False), (np.int32([[1, 1], [2, 2]]), CTC_LOGITS)),
}
