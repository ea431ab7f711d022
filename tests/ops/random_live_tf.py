"""Run by test_random_live.py under TensorFlow 2.21's Python:

    python random_live_tf.py DIR

Writes DIR/saved_model, a SavedModel whose functions draw with the stateless functions and a
tf.random.Generator, DIR/expected.npz, what TensorFlow's own calls returned (the stateless
function on seed [4, 5]; the Generator's function twice, from the state saved), and
DIR/cases.npz, TensorFlow's results for random_cases.py now (as fixtures/tf_random.npz)."""

import os
import sys

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402
from random_cases import run_all  # noqa: E402


class Sampler(tf.Module):
    def __init__(self):
        super().__init__()
        self.g = tf.random.Generator.from_seed(3)

    @tf.function(input_signature=[tf.TensorSpec([2], tf.int32)])
    def stateless(self, seed):
        return (tf.random.stateless_normal([3], seed),
                tf.random.stateless_categorical([[0., 1.]], 4, seed),
                tf.random.stateless_uniform([2], seed, minval=0, maxval=10, dtype=tf.int64),
                tf.random.stateless_truncated_normal([2], seed, dtype=tf.float64),
                tf.nn.experimental.stateless_dropout(tf.ones([4]), 0.5, seed))

    @tf.function(input_signature=[])
    def draw(self):
        return self.g.normal([2]), self.g.uniform([2], maxval=5, dtype=tf.int32)


if __name__ == "__main__":
    directory = sys.argv[1]
    m = Sampler()
    tf.saved_model.save(m, os.path.join(directory, "saved_model"))
    out = {f"stateless{i}": v.numpy() for i, v in enumerate(m.stateless(tf.constant([4, 5])))}
    for call in range(2):
        out.update({f"draw{call}_{i}": v.numpy() for i, v in enumerate(m.draw())})
    np.savez(os.path.join(directory, "expected.npz"), **out)
    raw = lambda op_type, **kwargs: getattr(tf.raw_ops, op_type)(**kwargs)  # noqa: E731
    np.savez(os.path.join(directory, "cases.npz"), **run_all(tf, raw))
