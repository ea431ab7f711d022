"""The new op records export to GraphDefs TensorFlow accepts: only TensorFlow's attrs on every
node and, with TRACEGRAPH_TF_PYTHON set, TensorFlow runs them to tracegraph's results."""

from __future__ import annotations

import numpy as np
import pytest

import tracegraph as tf

pytest.importorskip("tensorboard")

from tests.formats.tensorflow.test_tensorflow_interop import (  # noqa: E402
    _case,
    _run_under_tensorflow,
    needs_tf,
)
from tracegraph.formats.tensorflow.op_signatures import OP_SIGNATURES  # noqa: E402

X = np.arange(12, dtype=np.float32).reshape(4, 3) / 7


def _scatter_segments(x):
    return (tf.tensor_scatter_nd_max(x, [[0, 1], [2, 2]], [5., -1.]),
            tf.math.segment_mean(x, [0, 0, 1, 1]), tf.math.unsorted_segment_min(x, [1, 0, 1, 0],
                                                                                  2),
            tf.searchsorted(tf.sort(x), x), tf.repeat(x, [1, 0, 2, 1], axis=0),
            tf.reverse_sequence(x, [1, 2, 3, 0], seq_axis=1),
            tf.broadcast_dynamic_shape(tf.shape(x), [1, 1]))


def _loops(x):
    return (tf.map_fn(lambda r: r * tf.reduce_sum(r), x), tf.scan(lambda a, r: a * 0.5 + r, x),
            tf.foldr(lambda a, r: a - r, x))


def _image(x):
    image = tf.reshape(tf.concat([x, x, x], 0), [1, 6, 3, 2])
    return (tf.image.resize(image, [4, 5]), tf.image.resize(image, [3, 7], method="bicubic"),
            tf.image.resize(image, [2, 2], method="area"),
            tf.image.resize(image, [2, 2], antialias=True),
            tf.image.resize(image, [9, 2], method="nearest"),
            tf.image.adjust_contrast(image, 1.5),
            tf.image.crop_and_resize(image, [[0.1, 0.2, 0.8, 0.9]], [0], [3, 2]))


def _signal(x):
    return (tf.abs(tf.signal.fft(tf.complex(x, x))), tf.signal.irfft(tf.signal.rfft(x)),
            tf.math.real(tf.signal.rfft2d(x)))


def _gradients(x):
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.reduce_sum(tf.math.segment_max(x, [0, 0, 1, 1]) ** 2) + tf.reduce_sum(
            tf.image.resize(tf.reshape(x, [1, 4, 3, 1]), [5, 5])) + tf.reduce_sum(
            tf.abs(tf.signal.rfft(x))) + tf.reduce_sum(tf.image.crop_and_resize(
            tf.reshape(x, [1, 4, 3, 1]), tf.reshape(x[:2, :2], [1, 4]), [0], [2, 2]))
    return tape.gradient(y, x)


CASES = {"scatter_segments": _scatter_segments, "loops": _loops, "image": _image,
         "signal": _signal, "gradients": _gradients}


def _cases():
    return [_case(name, tf.function(f), [X]) for name, f in CASES.items()]


def test_nodes_carry_only_tensorflow_attrs():
    for case in _cases():
        nodes = list(case["graph_def"].node) + [n for f in case["graph_def"].library.function
                                                for n in f.node_def]
        for node in nodes:
            assert node.op in OP_SIGNATURES, node.op
            extra = [k for k in node.attr if k not in OP_SIGNATURES[node.op][1]
                     and not k.startswith("_")]
            assert not extra, (node.op, extra)


@needs_tf
def test_tensorflow_runs_them(tmp_path):
    _run_under_tensorflow(_cases(), tmp_path)


def test_hash_buckets_export():
    f = tf.function(lambda s: (tf.strings.to_hash_bucket_fast(s, 10),
                               tf.strings.to_hash_bucket_strong(s, 10, [3, 4])))
    case = _case("hashes", f, [np.array([b"a", b"bc"])])
    ops = {n.op for n in case["graph_def"].node}
    assert {"StringToHashBucketFast", "StringToHashBucketStrong"} <= ops
