"""Saved models: save and load time, on-disk size, and the call time of a loaded function vs
the original, for an MLP of Variables (784-256-128-10, batch 64, matmul + bias + relu).

    python bench/saved_model.py [--compare /tmp/tfenv/bin/python]

The same code runs under TensorFlow (its `tf.Module`; tracegraph saves any object whose
attributes hold Variables and functions). The goal for the loaded call is "equal within noise".
"""

import os
import shutil
import tempfile

import numpy as np
from harness import Workload, main

_SIZES = [(784, 256), (256, 128), (128, 10)]
_DIRS: list = []


def _model(tf):
    base = getattr(tf, "Module", object)
    rng = np.random.default_rng(0)

    class MLP(base):
        def __init__(self):
            super().__init__()
            self.weights = [tf.Variable(rng.normal(0, 0.05, s).astype(np.float32))
                            for s in _SIZES]
            self.biases = [tf.Variable(np.zeros(s[1], np.float32)) for s in _SIZES]

        @tf.function(input_signature=[tf.TensorSpec([None, 784], tf.float32)])
        def __call__(self, x):
            for i, (w, b) in enumerate(zip(self.weights, self.biases)):
                x = tf.matmul(x, w) + b
                if i < len(self.weights) - 1:
                    x = tf.nn.relu(x)
            return x
    return MLP()


def _x(tf):
    return tf.constant(np.random.default_rng(1).normal(size=(64, 784)).astype(np.float32))


def _saved(tf):
    model = _model(tf)
    directory = tempfile.mkdtemp(prefix="bench_saved_model_")
    _DIRS.append(directory)
    tf.saved_model.save(model, directory)
    return model, directory


def original_call(tf):
    model = _model(tf)
    x = _x(tf)
    return lambda: model(x)


def loaded_call(tf):
    _, directory = _saved(tf)
    loaded = tf.saved_model.load(directory)
    x = _x(tf)
    return lambda: loaded(x)


class _Holder:
    pass


def _small(tf):
    holder = getattr(tf, "Module", _Holder)()
    holder.f = tf.function(lambda x: x + 1.0)
    x = tf.constant(1.0)
    holder.f(x)
    return holder, x


def small_original(tf):
    holder, x = _small(tf)
    return lambda: holder.f(x)


def small_loaded(tf):
    holder, x = _small(tf)
    directory = tempfile.mkdtemp(prefix="bench_saved_model_")
    _DIRS.append(directory)
    tf.saved_model.save(holder, directory)
    loaded = tf.saved_model.load(directory)
    loaded.f(x)
    return lambda: loaded.f(x)


def save(tf):
    model = _model(tf)
    directory = tempfile.mkdtemp(prefix="bench_saved_model_")
    _DIRS.append(directory)
    target = os.path.join(directory, "m")
    return lambda: tf.saved_model.save(model, target)


def load(tf):
    _, directory = _saved(tf)
    return lambda: tf.saved_model.load(directory)


def disk_size(tf) -> int:
    _, directory = _saved(tf)
    return sum(os.path.getsize(os.path.join(root, f))
               for root, _, files in os.walk(directory) for f in files)


def numpy_forward():
    """The floor: the same three layers on NumPy arrays."""
    rng = np.random.default_rng(0)
    weights = [rng.normal(0, 0.05, s).astype(np.float32) for s in _SIZES]
    biases = [np.zeros(s[1], np.float32) for s in _SIZES]
    x = np.random.default_rng(1).normal(size=(64, 784)).astype(np.float32)

    def forward():
        h = x
        for i, (w, b) in enumerate(zip(weights, biases)):
            h = h @ w + b
            if i < len(weights) - 1:
                h = np.maximum(h, 0)
        return h
    return forward


WORKLOADS = [
    Workload("MLP forward, original tf.function", original_call, number=200,
             numpy=numpy_forward),
    Workload("MLP forward, loaded from the saved model", loaded_call, number=200,
             numpy=numpy_forward),
    Workload("scalar x + 1 (call overhead), original tf.function", small_original,
             number=20000),
    Workload("scalar x + 1 (call overhead), loaded", small_loaded, number=20000),
    Workload("tf.saved_model.save (MLP, 235k parameters)", save, number=3, repeat=5),
    Workload("tf.saved_model.load (MLP)", load, number=3, repeat=5),
]

if __name__ == "__main__":
    import sys
    result = main("Saved models: save, load, and calls of loaded functions", WORKLOADS)
    if "--json" not in sys.argv:
        import tracegraph
        print(f"\non-disk size (tracegraph): {disk_size(tracegraph):,} bytes "
              f"(the parameters alone: {4 * sum(a * b + b for a, b in _SIZES):,} bytes)")
    for d in _DIRS:
        shutil.rmtree(d, ignore_errors=True)
