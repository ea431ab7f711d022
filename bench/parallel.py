"""The inter-op thread pool: 8 independent chains of four 256x256 float32 matmuls in one
tf.function (TensorFlow runs independent ops on its inter-op pool; so does tracegraph).

    python bench/parallel.py [--compare /path/to/python-with-tensorflow]
"""

import numpy as np
from harness import Workload, main


def _inputs(tf):
    rng = np.random.default_rng(0)
    return (tf.constant(rng.normal(size=(256, 256)).astype(np.float32) / 256),
            tf.constant(rng.normal(size=(256, 256)).astype(np.float32)))


def _chains(tf):
    def f(x, w):
        outs = []
        for i in range(8):
            y = x * float(i + 1)
            for _ in range(4):
                y = tf.matmul(y, w)
            outs.append(y)
        return outs
    return f


def chains(tf):
    f, (x, w) = tf.function(_chains(tf)), _inputs(tf)
    return lambda: f(x, w)


def numpy_serial():
    rng = np.random.default_rng(0)
    x = rng.normal(size=(256, 256)).astype(np.float32) / 256
    w = rng.normal(size=(256, 256)).astype(np.float32)

    def run():
        outs = []
        for i in range(8):
            y = x * np.float32(i + 1)
            for _ in range(4):
                y = y @ w
            outs.append(y)
        return outs
    return run


WORKLOADS = [
    Workload("8 independent chains of four 256x256 matmuls", chains, number=50,
             numpy=numpy_serial, note="floor: the same matmuls in NumPy, one after another"),
]

if __name__ == "__main__":
    main("parallel executor: independent branches on the inter-op pool", WORKLOADS)
