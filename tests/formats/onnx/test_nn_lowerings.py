"""tf.nn functions that lower to several ONNX nodes, exported whole and run in onnxruntime:
dilated pooling (SpaceToBatchND, pooling, BatchToSpaceND), LRN, depth/space blocks, bincount and
in_top_k, against tracegraph's own values."""

import numpy as np
import pytest

import tracegraph as tf

from .test_onnx import assert_same, run_onnx

pytest.importorskip("onnx")
pytest.importorskip("onnxruntime")

X = np.random.default_rng(4).standard_normal((2, 9, 8, 4)).astype(np.float32)


@pytest.mark.parametrize("fn", [
    lambda x: tf.nn.pool(x, [2, 2], "MAX", padding="VALID", dilations=[2, 3]),
    lambda x: tf.nn.pool(x, [3, 2], "AVG", padding="VALID", dilations=[2, 2]),
    lambda x: tf.nn.lrn(x, 1, 0.5, 0.2, 0.75),
    lambda x: tf.nn.space_to_depth(tf.nn.depth_to_space(x, 2)[:, :16], 4),
])
def test_image_functions_match_onnxruntime(fn):
    f = tf.function(fn, input_signature=[tf.TensorSpec(X.shape)])
    (got,) = run_onnx(tf.onnx.export(f), [X])
    assert_same(f(X).numpy(), got, loose=True)


def test_counting_functions_match_onnxruntime():
    @tf.function(input_signature=[tf.TensorSpec([5, 4]), tf.TensorSpec([5], tf.int32),
                                  tf.TensorSpec([2, 3], tf.int32)])
    def f(p, t, ids):
        return (tf.math.in_top_k(t, p, 2), tf.math.bincount(ids, axis=-1, minlength=6),
                tf.math.bincount(ids, weights=tf.cast(ids, tf.float32) * 0.5, minlength=6))
    p = np.float32([[1, 3, 3, -1], [0.5, 0.1, 2, 2], [4, 1, np.inf, 0], [0, 1, 2, 3],
                    [5, 5, 5, 5]])
    t = np.int32([2, 3, 0, 7, 1])
    ids = np.int32([[1, 1, 3], [0, 5, 5]])
    got = run_onnx(tf.onnx.export(f), [p, t, ids])
    for want, g in zip(f(p, t, ids), got):
        assert_same(want.numpy(), g)
