"""TensorFlow's formats: loading the CNN SavedModel that TensorFlow 2.21 wrote
(tests/formats/tensorflow/fixtures/cnn: two convolutions, pools, a dense layer) and its batch-1
inference through the `serving_default` signature, side by side with TensorFlow loading and
running the same directory; and writing a SavedModel of an MLP (784-256-10, Variables, a
`tf.function` with an input signature) in TensorFlow's format, side by side with TensorFlow's
own `tf.saved_model.save` of the same module.

    python bench/tf_formats.py [--compare ~/.cache/tracegraph-tf221/bin/python] [--rounds 3]

Goals (issue 23): load at most 0.2x TensorFlow's time, inference per call at most 0.5x,
writing at most 0.5x.
tracegraph optimizes and compiles a function on its first call, so "load + first call" is
reported as well. With TensorFlow to compare, tracegraph and TensorFlow take turns for
`--rounds` rounds (the load of a shared machine changes between turns); the table gives the
median of each column over the rounds, and the range of the per-round ratios.
"""

import argparse
import os
import statistics
import sys
import tempfile

import numpy as np
from harness import ROOT, Workload, _tf_python, main, measure, report, run_other

MODEL = str(ROOT / "tests" / "formats" / "tensorflow" / "fixtures" / "cnn")
_IMAGE = np.random.default_rng(0).normal(size=(1, 16, 16, 1)).astype(np.float32)


def load(tf):
    return lambda: tf.saved_model.load(MODEL)


def load_and_first_call(tf):
    image = tf.constant(_IMAGE)

    def run():
        loaded = tf.saved_model.load(MODEL)
        return loaded.signatures["serving_default"](images=image)
    return run


def serving_signature(tf):
    loaded = tf.saved_model.load(MODEL)
    signature = loaded.signatures["serving_default"]
    image = tf.constant(_IMAGE)

    def run():
        return signature(images=image)
    run.keep = loaded   # TensorFlow deletes the variables of a loaded object no one holds
    return run


def restored_function(tf):
    loaded = tf.saved_model.load(MODEL)
    image = tf.constant(_IMAGE)

    def run():
        return loaded(image)
    return run


def save_mlp(tf):
    """`tf.saved_model.save` of a 784-256-10 MLP of Variables (traced once beforehand)."""
    rng = np.random.default_rng(1)

    class MLP(tf.Module):
        def __init__(self):
            super().__init__()
            self.w1 = tf.Variable(rng.normal(size=(784, 256)).astype(np.float32) * 0.05)
            self.b1 = tf.Variable(np.zeros(256, np.float32))
            self.w2 = tf.Variable(rng.normal(size=(256, 10)).astype(np.float32) * 0.05)
            self.b2 = tf.Variable(np.zeros(10, np.float32))

        @tf.function(input_signature=[tf.TensorSpec([None, 784], tf.float32)])
        def __call__(self, x):
            h = tf.nn.relu(tf.matmul(x, self.w1) + self.b1)
            return tf.nn.softmax(tf.matmul(h, self.w2) + self.b2)

    model = MLP()
    model(tf.constant(np.zeros((1, 784), np.float32)))
    path = os.path.join(tempfile.mkdtemp(prefix="bench-save-"), "mlp")
    extra = {"format": "tensorflow"} if tf.__name__ == "tracegraph" else {}

    def run():
        tf.saved_model.save(model, path, **extra)
    return run


WORKLOADS = [
    Workload("tf.saved_model.load (TF-written CNN)", load, number=3, repeat=7),
    Workload("load + first call (serving_default)", load_and_first_call, number=3, repeat=7),
    Workload("batch-1 inference, signatures['serving_default']", serving_signature,
             number=500, repeat=7),
    Workload("batch-1 inference, restored __call__", restored_function, number=500,
             repeat=7),
    Workload("tf.saved_model.save, MLP 784-256-10 in TF's format", save_mlp, number=3,
             repeat=7),
]

TITLE = "TensorFlow's formats: a SavedModel TensorFlow wrote, loaded and run"


def rounds(count: int, python: str) -> None:
    ours, theirs = [], []
    for _ in range(count):
        ours.append(measure(WORKLOADS, "tracegraph"))
        theirs.append(run_other(python, sys.argv[0], []))
    median = {w.name: statistics.median(r[w.name] for r in ours) for w in WORKLOADS}
    median_tf = {w.name: statistics.median(r[w.name] for r in theirs) for w in WORKLOADS}
    print(report(f"{TITLE} (medians of {count} alternating rounds)", WORKLOADS, median,
                 median_tf, {}))
    print(f"\nload average (1, 5, 15 min) at the end: {os.getloadavg()}")
    print("\nper-round ratios tg/tf:")
    for w in WORKLOADS:
        ratios = [a[w.name] / b[w.name] for a, b in zip(ours, theirs)]
        print(f"- {w.name}: {min(ratios):.3f}x .. {max(ratios):.3f}x")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(add_help=False)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--compare")
    known, rest = parser.parse_known_args()
    python = _tf_python(known) if "--module" not in rest and "--json" not in rest else None
    if python and known.rounds > 1:
        rounds(known.rounds, python)
    else:
        main(TITLE, WORKLOADS, rest + (["--compare", known.compare] if known.compare else []))
