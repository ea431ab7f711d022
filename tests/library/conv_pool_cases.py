"""The convolution and pooling cases checked against TensorFlow 2.21: each runs the same code on
`tf` (TensorFlow when making the fixtures, tracegraph in the tests). `make_case_fixtures.py` in
fixtures/ records every case's output and the gradients of sum(output * upstream) w.r.t. its
float inputs; `test_conv_pool.py` compares.

TensorFlow's CPU kernels compute NHWC only, so channels-first cases are checked in the tests by
transposing the channels-last ones.
"""

from __future__ import annotations

import numpy as np

rng = np.random.default_rng(7)


def _r(*shape):
    return rng.standard_normal(shape).astype(np.float32)


X1 = _r(2, 9, 3)            # NWC
X2 = _r(2, 7, 8, 3)         # NHWC
X3 = _r(2, 5, 6, 4, 3)      # NDHWC
W1 = _r(3, 3, 4)
W2 = _r(3, 2, 3, 4)
W3 = _r(2, 3, 2, 3, 4)
DW = _r(3, 3, 3, 2)         # depthwise: 3 channels, multiplier 2
PW = _r(1, 1, 6, 5)         # pointwise after DW
T1 = _r(2, 5, 4)            # transposed-convolution inputs (the forward outputs' shapes)
T2 = _r(2, 4, 4, 4)
T3 = _r(2, 3, 3, 2, 4)
TIES = np.ones((1, 4, 4, 4, 2), np.float32)   # max-pool ties: every input is the max

# name: (function of (tf, *inputs), inputs)
CASES = {
    # convolution picks conv1d / conv2d / conv3d by the filter's rank
    "convolution_1d_same_stride2": (lambda tf, x, w: tf.nn.convolution(x, w, 2, "SAME"),
                                    (X1, W1)),
    "convolution_1d_dilated": (lambda tf, x, w: tf.nn.convolution(x, w, padding="VALID",
                                                                  dilations=2), (X1, W1)),
    "conv1d_valid": (lambda tf, x, w: tf.nn.conv1d(x, w, 1, "VALID"), (X1, W1)),
    "convolution_2d_same": (lambda tf, x, w: tf.nn.convolution(x, w, [2, 1], "SAME"),
                            (X2, W2)),
    "convolution_2d_dilated_same": (lambda tf, x, w: tf.nn.convolution(
        x, w, padding="SAME", dilations=[2, 3]), (X2, W2)),
    "conv2d_explicit": (lambda tf, x, w: tf.nn.conv2d(x, w, 1, [[0, 0], [1, 2], [0, 1], [0, 0]]),
                        (X2, W2)),
    "convolution_3d_same_stride2": (lambda tf, x, w: tf.nn.convolution(x, w, 2, "SAME"),
                                    (X3, W3)),
    "convolution_3d_valid": (lambda tf, x, w: tf.nn.convolution(x, w, [1, 2, 1], "VALID"),
                             (X3, W3)),
    "convolution_3d_dilated": (lambda tf, x, w: tf.nn.convolution(
        x, w, padding="SAME", dilations=[1, 2, 2]), (X3, W3)),
    "conv3d": (lambda tf, x, w: tf.nn.conv3d(x, w, [1, 1, 2, 1, 1], "SAME"), (X3, W3)),
    # transposed convolutions
    "conv1d_transpose": (lambda tf, y, w: tf.nn.conv1d_transpose(y, w, [2, 9, 3], 2, "SAME"),
                         (T1, W1)),
    "conv2d_transpose_same": (lambda tf, y, w: tf.nn.conv2d_transpose(y, w, [2, 7, 8, 3], 2),
                              (T2, W2)),
    "conv2d_transpose_valid": (lambda tf, y, w: tf.nn.conv2d_transpose(
        y, w, [2, 12, 9, 3], [3, 2], "VALID"), (T2, W2)),
    "conv_transpose_3d": (lambda tf, y, w: tf.nn.conv_transpose(y, w, [2, 5, 6, 4, 3], 2),
                          (T3, W3)),
    "conv3d_transpose_valid": (lambda tf, y, w: tf.nn.conv3d_transpose(
        y, w, [2, 4, 7, 3, 3], [1, 1, 2, 1, 1], "VALID"), (T3, W3)),
    # depthwise and separable
    "depthwise_same_stride2": (lambda tf, x, w: tf.nn.depthwise_conv2d(
        x, w, [1, 2, 2, 1], "SAME"), (X2, DW)),
    "depthwise_valid_dilated": (lambda tf, x, w: tf.nn.depthwise_conv2d(
        x, w, [1, 1, 1, 1], "VALID", dilations=[2, 1]), (X2, DW)),
    "depthwise_explicit": (lambda tf, x, w: tf.nn.depthwise_conv2d(
        x, w, [1, 2, 2, 1], [[0, 0], [2, 0], [1, 1], [0, 0]]), (X2, DW)),
    "depthwise_unequal_strides": (lambda tf, x, w: tf.nn.depthwise_conv2d(
        x, w, [1, 1, 2, 1], "SAME"), (X2, DW)),
    "separable": (lambda tf, x, dw, pw: tf.nn.separable_conv2d(x, dw, pw, [1, 1, 1, 1], "SAME"),
                  (X2, DW, PW)),
    "separable_dilated": (lambda tf, x, dw, pw: tf.nn.separable_conv2d(
        x, dw, pw, [1, 1, 1, 1], "VALID", dilations=[2, 2]), (X2, DW, PW)),
    "atrous_conv2d": (lambda tf, x, w: tf.nn.atrous_conv2d(x, w, 2, "SAME"), (X2, W2)),
    # pooling
    "max_pool1d": (lambda tf, x: tf.nn.max_pool1d(x, 3, 2, "SAME"), (X1,)),
    "avg_pool1d": (lambda tf, x: tf.nn.avg_pool1d(x, 2, 2, "SAME"), (X1,)),
    "max_pool_rank3": (lambda tf, x: tf.nn.max_pool(x, [2], [1], "VALID"), (X1,)),
    "max_pool3d_same": (lambda tf, x: tf.nn.max_pool3d(x, 2, 2, "SAME"), (X3,)),
    "max_pool3d_valid": (lambda tf, x: tf.nn.max_pool(x, [2, 3, 2], [1, 2, 1], "VALID"), (X3,)),
    "avg_pool3d_same": (lambda tf, x: tf.nn.avg_pool3d(x, [3, 2, 3], [2, 2, 1], "SAME"), (X3,)),
    "avg_pool_rank5": (lambda tf, x: tf.nn.avg_pool(x, 2, 1, "VALID"), (X3,)),
    "max_pool3d_ties": (lambda tf, x: tf.nn.max_pool3d(x, 2, 2, "VALID"), (TIES,)),
    "max_pool2d_ties": (lambda tf, x: tf.nn.max_pool2d(x[0], 2, 1, "SAME"), (TIES,)),
    "pool_max_dilated": (lambda tf, x: tf.nn.pool(x, [2, 2], "MAX", padding="VALID",
                                                  dilations=[2, 2]), (X2,)),
    "pool_avg_dilated_1d": (lambda tf, x: tf.nn.pool(x, [2], "AVG", padding="VALID",
                                                     dilations=[3]), (X1,)),
    "pool_avg_3d": (lambda tf, x: tf.nn.pool(x, [2, 2, 2], "AVG", strides=[2, 1, 2],
                                             padding="SAME"), (X3,)),
    "max_pool_with_argmax": (lambda tf, x: tf.nn.max_pool_with_argmax(x, 3, 2, "SAME"), (X2,)),
    "max_pool_with_argmax_batch": (lambda tf, x: tf.nn.max_pool_with_argmax(
        x, [2, 3], [2, 1], "VALID", include_batch_in_index=True), (X2,)),
    # space to batch and back
    "space_to_batch_nd": (lambda tf, x: tf.space_to_batch_nd(x, [2, 3], [[1, 2], [0, 1]]),
                          (X2,)),
    "batch_to_space": (lambda tf, x: tf.batch_to_space(x, [2, 2], [[0, 1], [1, 0]]),
                          (X3[:, :, :, 0, :].repeat(2, 0),)),
}
CASES["max_pool2d_explicit"] = (lambda tf, x: tf.nn.max_pool2d(
    x, [2, 3], [1, 2], [[0, 0], [1, 0], [2, 1], [0, 0]]), (X2,))
CASES["max_pool1d_explicit"] = (lambda tf, x: tf.nn.max_pool1d(x, 2, 2, [[0, 0], [1, 1], [0, 0]]),
                                (X1,))
