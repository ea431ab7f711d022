"""TensorFlow's formats: loading the CNN SavedModel that TensorFlow 2.21 wrote
(tests/formats/tensorflow/fixtures/cnn: two convolutions, pools, a dense layer) and its batch-1
inference through the `serving_default` signature, side by side with TensorFlow loading and
running the same directory.

    python bench/tf_formats.py [--compare ~/.cache/tracegraph-tf221/bin/python]

Goals (issue 23): load at most 0.2x TensorFlow's time, inference per call at most 0.5x.
tracegraph optimizes and compiles a function on its first call, so "load + first call" is
reported as well. Medians of several rounds; the machine may be shared, so compare the two
columns of one run, not runs.
"""

import numpy as np
from harness import ROOT, Workload, main

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


WORKLOADS = [
    Workload("tf.saved_model.load (TF-written CNN)", load, number=3, repeat=7),
    Workload("load + first call (serving_default)", load_and_first_call, number=3, repeat=7),
    Workload("batch-1 inference, signatures['serving_default']", serving_signature,
             number=500, repeat=7),
    Workload("batch-1 inference, restored __call__", restored_function, number=500,
             repeat=7),
]

if __name__ == "__main__":
    main("TensorFlow's formats: a SavedModel TensorFlow wrote, loaded and run", WORKLOADS)
