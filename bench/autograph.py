"""An AutoGraph `while` loop of 1000 iterations with scalar tensor state and about 5 scalar
ops per iteration (a series sum with a tensor counter), eager vs graph.

    python bench/autograph.py [--compare /tmp/tfenv/bin/python]
"""

import numpy as np
from harness import Workload, main


def _series(tf):
    def series(n):
        i = tf.constant(0)
        s = tf.constant(0.0)
        while i < n:
            s += 1.0 / tf.cast((i + 1) * (i + 1), tf.float32)
            i += 1
        return s
    return series


def graph(tf):
    f = tf.function(_series(tf))
    n = tf.constant(1000)
    f(n)
    return lambda: f(n)


def eager(tf):
    f = _series(tf)
    n = tf.constant(1000)
    return lambda: f(n)


def numpy_loop():
    """The floor: the same loop on NumPy scalars (one float32/int32 op per step)."""
    one, n = np.float32(1.0), np.int32(1000)

    def series():
        i, s = np.int32(0), np.float32(0.0)
        while i < n:
            s = s + one / np.float32((i + 1) * (i + 1))
            i = i + np.int32(1)
        return s
    return series


WORKLOADS = [
    Workload("series while loop (1000 iterations), graph", graph, number=200,
             numpy=numpy_loop),
    Workload("series while loop (1000 iterations), eager", eager, number=5, repeat=5,
             numpy=numpy_loop),
]

if __name__ == "__main__":
    main("AutoGraph: a tensor while loop", WORKLOADS)
