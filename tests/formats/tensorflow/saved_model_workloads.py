"""Modules tracegraph saves in TensorFlow's SavedModel format for the round-trip tests, and the
calls each is checked with.

    write_workloads(directory) -> manifest   # saves every workload, records its outputs

Each workload is saved to `directory/<name>` (signatures as `tf.saved_model.save` chooses them,
or given), then the calls of its `CALLS` run on the original module in order; their inputs and
outputs go to `directory/<name>/../<name>.expected.npz` and the manifest (`manifest.json`) says,
per call, which attribute is called (`__call__`, `count`, `signatures/serving_default`) with
which arrays. `run_saved_models.py` replays the manifest on a loaded model, under TensorFlow or
tracegraph, and the outputs must agree. Variable values are listed by attribute path too.
"""

import json
import os

import numpy as np

import tracegraph as tf

from .run_saved_models import flat_outputs, resolve

RNG = np.random.default_rng(0)
X4 = RNG.normal(size=(5, 4)).astype(np.float32)
IMAGES = RNG.normal(size=(2, 8, 8, 1)).astype(np.float32)


class Dense(tf.Module):
    def __init__(self, n_in, n_out, seed, activation=None):
        super().__init__()
        rng = np.random.default_rng(seed)
        self.kernel = tf.Variable(rng.normal(size=(n_in, n_out)).astype(np.float32) * 0.3)
        self.bias = tf.Variable(rng.normal(size=n_out).astype(np.float32) * 0.1)
        self.activation = activation

    def __call__(self, x):
        y = tf.matmul(x, self.kernel) + self.bias
        return self.activation(y) if self.activation else y


class MLP(tf.Module):
    """Two dense layers; a training step (gradients and assignments) traced with it."""

    def __init__(self):
        super().__init__()
        self.layers = [Dense(4, 8, 1, tf.nn.relu), Dense(8, 3, 2)]

    @tf.function(input_signature=[tf.TensorSpec([None, 4], tf.float32, name="x")])
    def __call__(self, x):
        for layer in self.layers:
            x = layer(x)
        return tf.nn.softmax(x)

    @tf.function(input_signature=[tf.TensorSpec([None, 4], tf.float32),
                                  tf.TensorSpec([None], tf.int32),
                                  tf.TensorSpec([], tf.float32)])
    def train_step(self, x, labels, learning_rate):
        with tf.GradientTape() as tape:
            logits = x
            for layer in self.layers:
                logits = layer(logits)
            loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(
                labels=labels, logits=logits))
        variables = self.trainable_variables
        for v, g in zip(variables, tape.gradient(loss, variables)):
            v.assign_sub(learning_rate * g)
        return loss


class CNN(tf.Module):
    """Convolution, pooling, a dense layer; a dict of outputs (`serving_default`)."""

    def __init__(self):
        super().__init__()
        rng = np.random.default_rng(3)
        self.filters = tf.Variable(rng.normal(size=(3, 3, 1, 4)).astype(np.float32) * 0.3)
        self.dense = Dense(4 * 4 * 4, 5, 4)

    @tf.function(input_signature=[tf.TensorSpec([None, 8, 8, 1], tf.float32, name="images")])
    def __call__(self, images):
        h = tf.nn.relu(tf.nn.conv2d(images, self.filters, strides=1, padding="SAME"))
        h = tf.nn.max_pool2d(h, 2, 2, "VALID")
        logits = self.dense(tf.reshape(h, [-1, 4 * 4 * 4]))
        return {"logits": logits, "classes": tf.argmax(logits, axis=-1)}


class Loops(tf.Module):
    """A while loop holding a cond, a variable updated by the call, a TensorArray."""

    def __init__(self):
        super().__init__()
        self.total = tf.Variable(0.0)
        self.w = tf.Variable(np.linspace(-1, 1, 12, dtype=np.float32).reshape(4, 3))

    @tf.function(input_signature=[tf.TensorSpec([None, 4], tf.float32),
                                  tf.TensorSpec([], tf.int32)])
    def __call__(self, x, n):
        h = tf.matmul(x, self.w)
        for i in tf.range(n):
            if tf.reduce_mean(h) > 0:
                h = tf.tanh(h) - tf.cast(i, tf.float32)
            else:
                h = tf.abs(h) + 1.0
        self.total.assign_add(tf.reduce_sum(h))
        return {"h": h, "total": self.total.read_value()}

    @tf.function(input_signature=[tf.TensorSpec([], tf.int32)])
    def squares(self, n):
        ta = tf.TensorArray(tf.float32, size=0, dynamic_size=True)
        for i in tf.range(n):
            ta = ta.write(i, tf.cast(i * i, tf.float32))
        return ta.stack()


class Methods(tf.Module):
    """Several tf.functions: traces for two signatures, a Python default, a counter, a
    captured constant, a setter with an input signature."""

    def __init__(self):
        super().__init__()
        self.scale = tf.Variable(2.0)
        self.offset = tf.Variable([1.0, 2.0, 3.0])
        self.counter = tf.Variable(0, dtype=tf.int64)
        self.table = tf.constant([10.0, 20.0, 30.0])

    @tf.function
    def affine(self, x, shift=0.0):
        return x * self.scale + self.offset + shift

    @tf.function
    def count(self):
        self.counter.assign_add(1)
        return self.counter.read_value()

    @tf.function
    def lookup(self, i):
        return tf.gather(self.table, i) * self.scale

    @tf.function(input_signature=[tf.TensorSpec([3], tf.float32)])
    def set_offset(self, value):
        self.offset.assign(value)
        return self.offset.read_value()


class Served(tf.Module):
    """No input signature of its own: saved with an explicit `serving_default`."""

    def __init__(self):
        super().__init__()
        self.w = tf.Variable(np.arange(6, dtype=np.float32).reshape(3, 2) / 10)

    @tf.function
    def predict(self, features):
        y = tf.matmul(features, self.w)
        return {"scores": tf.sigmoid(y), "best": tf.reduce_max(y, axis=1)}


class Classifier(tf.Module):
    """Ops TFLite has builtins for, one serving signature: what the TFLite converter takes."""

    def __init__(self):
        super().__init__()
        self.hidden = Dense(4, 16, 5, tf.nn.relu)
        self.out = Dense(16, 3, 6)

    @tf.function(input_signature=[tf.TensorSpec([1, 4], tf.float32, name="x")])
    def __call__(self, x):
        return {"probabilities": tf.nn.softmax(self.out(self.hidden(x)))}


def _methods():
    m = Methods()
    m.affine(tf.constant([1.0, 1.0, 1.0]))
    m.affine(tf.constant(2.0), shift=1.0)
    m.count()
    m.lookup(tf.constant(1))
    m.lookup(tf.constant([0, 2]))
    return m, None


def _served():
    s = Served()
    spec = tf.TensorSpec([None, 3], tf.float32, name="features")
    return s, {"serving_default": s.predict.get_concrete_function(spec)}


# name -> (build: () -> (module, signatures), calls [(attribute, args, kwargs)],
#          variables by attribute path, whether TensorFlow trains it after loading)
WORKLOADS = {
    "mlp": (lambda: (MLP(), None),
            [("__call__", [X4], {}),
             ("train_step", [X4, np.array([0, 1, 2, 0, 1], np.int32), np.float32(0.5)], {}),
             ("__call__", [X4], {})],
            ["layers/0/kernel", "layers/0/bias", "layers/1/kernel", "layers/1/bias"], True),
    "cnn": (lambda: (CNN(), None),
            [("__call__", [IMAGES], {}), ("signatures/serving_default", [], {"images": IMAGES})],
            ["filters", "dense/kernel", "dense/bias"], True),
    "loops": (lambda: (Loops(), None),
              [("__call__", [X4, np.int32(3)], {}), ("__call__", [X4, np.int32(1)], {}),
               ("squares", [np.int32(5)], {})],
              ["total", "w"], False),
    "methods": (_methods,
                [("affine", [np.array([1.0, 2.0, 3.0], np.float32)], {}),
                 ("affine", [np.float32(2.0)], {"shift": 1.0}),
                 ("count", [], {}), ("count", [], {}),
                 ("lookup", [np.int32(2)], {}), ("lookup", [np.array([1, 0], np.int32)], {}),
                 ("set_offset", [np.array([0.5, 0.5, 0.5], np.float32)], {}),
                 ("affine", [np.array([1.0, 2.0, 3.0], np.float32)], {}),
                 ("signatures/serving_default", [], {"value": np.ones(3, np.float32)})],
                ["scale", "offset", "counter"], False),
    "tflite": (lambda: (Classifier(), None),
               [("__call__", [X4[:1]], {}), ("signatures/serving_default", [], {"x": X4[:1]})],
               ["hidden/kernel", "out/bias"], False),
    "served": (_served,
               [("signatures/serving_default", [], {"features": X4[:, :3]})],
               ["w"], False),
}


def _signature(module, signatures, attribute):
    """The original of a saved signature: keyword tensors in, a dict out."""
    if not attribute.startswith("signatures/"):
        return None
    name = attribute.split("/", 1)[1]
    if signatures:
        fn = signatures[name]
    else:
        fn = next(f for f in (getattr(module, a, None) for a in ("__call__", "set_offset"))
                  if getattr(f, "input_signature", None) is not None)

    def call(**kwargs):
        out = fn(**kwargs)
        return out if isinstance(out, dict) else {"output_0": out}
    return call


def write_workloads(directory) -> dict:
    """Saves every workload under `directory` in TensorFlow's format; returns the manifest
    (also written as `directory/manifest.json`), with the expected arrays beside it."""
    directory = str(directory)
    manifest = {}
    for name, (build, calls, variables, train) in WORKLOADS.items():
        module, signatures = build()
        path = os.path.join(directory, name)
        tf.saved_model.save(module, path, signatures=signatures, format="tensorflow")
        arrays = {f"var|{v}": resolve(module, v).numpy() for v in variables}
        entries = []
        for k, (attribute, args, kwargs) in enumerate(calls):
            for i, a in enumerate(args):
                arrays[f"in|{k}|{i}"] = np.asarray(a)
            for key, a in kwargs.items():
                arrays[f"kw|{k}|{key}"] = np.asarray(a)
            fn = _signature(module, signatures, attribute) or resolve(module, attribute)
            out = fn(*[tf.constant(a) for a in args],
                     **{k2: tf.constant(v) if isinstance(v, np.ndarray) else v
                        for k2, v in kwargs.items()})
            for j, a in enumerate(flat_outputs(out)):
                arrays[f"out|{k}|{j}"] = a
            entries.append({"attribute": attribute, "args": len(args),
                            "kwargs": {k2: isinstance(v, np.ndarray)
                                       for k2, v in kwargs.items()}})
        np.savez(os.path.join(directory, f"{name}.expected.npz"), **arrays)
        manifest[name] = {"calls": entries, "variables": variables, "train": train,
                          "train_input": "in|0|0", "tflite": "x" if name == "tflite" else None}
    with open(os.path.join(directory, "manifest.json"), "w") as f:
        json.dump(manifest, f, indent=1)
    return manifest
