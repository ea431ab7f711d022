"""Functions and models the distribute tests map and train (from the guides), and a helper to
re-pack a bundle after editing one of its files (hostile and mismatched bundles)."""

import hashlib
import json

import numpy as np

import tracegraph as tf
from tracegraph.distribute import shipping
from tracegraph.formats.native.saving import manifest_bytes


def assert_within_rounding(got, want, x, layers):
    """`got` and `want` are the same float32 layers `x @ w + b` (relu or not) summed in other
    orders: another BLAS kernel (OpenBLAS picks one per CPU core type, block size and thread
    count), another block size, another process. Each is within `terms * u * mag` of the exact
    value (the classic bound for sums of products, u = eps / 2, `mag` the same layers on
    absolute values; a relu does not grow an error), so they differ by at most `terms * eps *
    mag`, whatever kernel either used."""
    mag, terms = np.abs(np.asarray(x, np.float64)), 0
    for w, b in layers:
        mag = mag @ np.abs(np.asarray(w, np.float64)) + np.abs(np.asarray(b, np.float64))
        terms += np.shape(w)[0] + 1
    bound = (terms + 1) * np.finfo(np.float32).eps * mag
    diff = np.abs(np.asarray(got, np.float64) - np.asarray(want, np.float64))
    worst = np.unravel_index(np.argmax(diff - bound), diff.shape)
    assert np.all(diff <= bound), (f"at {worst}: {got[worst]!r} vs {want[worst]!r}, "
                                   f"beyond the rounding bound {bound[worst]:.3g}")


def outer_function():
    """The tf.function guide's `outer_function` (a matmul by fixed weights plus a bias)."""
    def inner_function(x, y, b):
        return tf.matmul(x, y) + b

    @tf.function
    def outer(x):
        y = tf.constant([[2.0], [3.0]])
        b = tf.constant(4.0)
        return inner_function(x, y, b)
    return outer


def make_chain():
    """Elementwise math and a row reduction, with a None batch dim in its input_signature.
    (Functions are made inside tests, after the suite's executor mode is set.)"""
    @tf.function(input_signature=[tf.TensorSpec([None, 3], tf.float32)])
    def chain(x):
        y = tf.nn.relu(x * 1.5 + 0.25) * tf.tanh(x) - 0.5 * x
        return {"y": y, "norm": tf.reduce_sum(y * y, axis=1)}
    return chain


def make_branches():
    """The AutoGraph guide's data-dependent branch (per block: the sum decides)."""
    @tf.function
    def branches(x):
        if tf.reduce_sum(x) > 0:
            y = x * 2.0
        else:
            y = -x
        return y
    return branches


class Dense(tf.Module):
    def __init__(self, in_features, out_features, seed, name=None):
        super().__init__(name=name)
        rng = np.random.default_rng(seed)
        self.w = tf.Variable(rng.normal(scale=0.5, size=(in_features, out_features))
                             .astype(np.float32), name="w")
        self.b = tf.Variable(np.zeros(out_features, np.float32), name="b")

    def __call__(self, x):
        return tf.nn.relu(tf.matmul(x, self.w) + self.b)


class SequentialModule(tf.Module):
    """The Modules guide's model."""

    def __init__(self, name=None):
        super().__init__(name=name)
        self.dense_1 = Dense(3, 3, 1)
        self.dense_2 = Dense(3, 2, 2)

    @tf.function
    def __call__(self, x):
        return self.dense_2(self.dense_1(x))


class MLP(tf.Module):
    """A small regression MLP (8 -> 16 -> 1) for the data-parallel training test."""

    def __init__(self, seed=0):
        super().__init__()
        rng = np.random.default_rng(seed)
        self.w1 = tf.Variable(rng.normal(scale=0.3, size=(8, 16)).astype(np.float32))
        self.b1 = tf.Variable(np.zeros(16, np.float32))
        self.w2 = tf.Variable(rng.normal(scale=0.3, size=(16, 1)).astype(np.float32))
        self.b2 = tf.Variable(np.zeros(1, np.float32))

    def __call__(self, x):
        h = tf.tanh(tf.matmul(x, self.w1) + self.b1)
        return tf.matmul(h, self.w2) + self.b2


def regression_data(n=256, seed=1):
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(n, 8)).astype(np.float32)
    y = (np.sin(x[:, :1]) + 0.1 * x[:, 1:2] ** 2).astype(np.float32)
    return x, y


def train_step_fn(model, global_batch):
    """Per-replica loss scaled by the global batch (TensorFlow's recipe), and its gradients."""
    def step(x, y):
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum((model(x) - y) ** 2) / global_batch
        return loss, tape.gradient(loss, model.trainable_variables)
    return step


def repack(bundle_data: bytes, edit) -> tuple[str, bytes]:
    """(key, data) of a bundle whose saved_model.json went through `edit(doc)`; the checksums
    are recomputed so only the edit differs."""
    files = shipping._unpack(bundle_data, hashlib.sha256(bundle_data).hexdigest())
    doc = json.loads(files["saved_model.json"])
    edit(doc)
    files["saved_model.json"] = json.dumps(doc).encode()
    files["checksum.json"] = manifest_bytes(files)
    names = list(shipping._FILES)
    header = json.dumps({"format": shipping.BUNDLE_FORMAT, "version": 1,
                         "files": [[n, len(files[n])] for n in names]}).encode() + b"\n"
    data = header + b"".join(files[n] for n in names)
    return hashlib.sha256(data).hexdigest(), data


def unknown_op(doc):
    """Renames the last op of the first graph to one this tracegraph does not have."""
    op = doc["graphs"][0]["ops"][-1]
    op["type"], op["op"] = "OpFromTheFuture", "op_from_the_future"
