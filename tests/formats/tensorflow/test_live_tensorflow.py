"""Live against TensorFlow 2.21 in its own environment (skipped without one; see
fixtures_util.tf_python): tracegraph writes a TensorFlow checkpoint that TensorFlow restores
(values, Adam's slots, a training step on top); TensorFlow writes SavedModels and a sliced
checkpoint that tracegraph reads and runs to TensorFlow's outputs."""

import subprocess

import numpy as np
import pytest

import tracegraph as tf

from .fixtures_util import needs_tf, tf_python

pytest.importorskip("google_crc32c")
SCRIPT = __import__("pathlib").Path(__file__).with_name("tf_live.py")


class Dense(tf.Module):
    def __init__(self, n_in, n_out, seed):
        super().__init__()
        rng = np.random.default_rng(seed)
        self.kernel = tf.Variable(rng.normal(size=(n_in, n_out)).astype(np.float32))
        self.bias = tf.Variable(rng.normal(size=n_out).astype(np.float32))

    def __call__(self, x):
        return tf.matmul(x, self.kernel) + self.bias


class Regressor(tf.Module):
    def __init__(self):
        super().__init__()
        self.dense = Dense(3, 2, 1)
        self.out = Dense(2, 1, 2)

    def __call__(self, x):
        return self.out(tf.nn.tanh(self.dense(x)))


def _step(model, optimizer):
    x = np.ones((4, 3), np.float32)
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(tf.square(model(x)))
    grads = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(grads, model.trainable_variables))


@pytest.fixture(scope="module")
def live(tmp_path_factory):
    work = tmp_path_factory.mktemp("live")
    model, optimizer = Regressor(), tf.optimizers.Adam(0.05)
    for _ in range(2):
        _step(model, optimizer)
    ckpt = tf.train.Checkpoint(model=model, optimizer=optimizer)
    ckpt.write(str(work / "from_tracegraph" / "ckpt"), format="tensorflow")
    done = subprocess.run([tf_python(), str(SCRIPT), str(work)], capture_output=True,
                          text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    return work, model, optimizer


@needs_tf
def test_tensorflow_restores_a_checkpoint_tracegraph_wrote(live):
    work, model, optimizer = live
    read = np.load(work / "from_tracegraph" / "tf_read.npz")
    key = "reader|model/dense/kernel/.ATTRIBUTES/VARIABLE_VALUE"
    np.testing.assert_array_equal(read[key], model.dense.kernel.numpy())
    assert read["restored|iterations"] == 3               # 2 steps here, one more in TF
    _step(model, optimizer)                               # the same step on tracegraph
    for i, v in enumerate(model.trainable_variables):
        np.testing.assert_allclose(read[f"stepped|{i}"], v.numpy(), rtol=1e-5, atol=1e-6)


@needs_tf
def test_tracegraph_runs_what_tensorflow_wrote(live):
    work, _, _ = live
    root = work / "from_tensorflow"
    expected = np.load(root / "expected.npz")
    module = tf.saved_model.load(str(root / "module"))
    x = tf.constant(expected["x"])
    first = module(x, tf.constant(3))
    np.testing.assert_allclose(first["h"].numpy(), expected["first_h"], rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(first["total"].numpy(), expected["first_total"], rtol=1e-5)
    second = module(x, tf.constant(1))
    np.testing.assert_allclose(second["total"].numpy(), expected["second_total"], rtol=1e-5)
    keras = tf.saved_model.load(str(root / "keras"))
    np.testing.assert_allclose(keras.serve(tf.constant(expected["xk"])).numpy(),
                               expected["keras"], rtol=1e-5, atol=1e-7)
    reader = tf.train.load_checkpoint(str(root / "sliced" / "ckpt"))
    np.testing.assert_array_equal(reader.get_tensor("big/.ATTRIBUTES/VARIABLE_VALUE"),
                                  expected["big"])
