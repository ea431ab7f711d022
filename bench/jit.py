"""jit_compile=True (numba kernels here, XLA in TensorFlow): the issue's elementwise chain on
4M float32 values, the same chain in a default tf.function, a lone tanh, and an AutoGraph while
loop of 1000 scalar iterations.

    python bench/jit.py [--compare /path/to/python-with-tensorflow]
"""

import numpy as np
from harness import Workload, main

N = 4_000_000


def _x(tf):
    return tf.constant(np.random.default_rng(0).normal(size=(N,)).astype(np.float32))


def _chain(tf):
    def chain(x):
        return tf.nn.relu(x * 1.5 + 0.25) * tf.tanh(x) - 0.5 * x
    return chain


def chain_jit(tf):
    f, x = tf.function(_chain(tf), jit_compile=True), _x(tf)
    return lambda: f(x)


def chain_default(tf):
    f, x = tf.function(_chain(tf)), _x(tf)
    return lambda: f(x)


def tanh_jit(tf):
    f, x = tf.function(tf.tanh, jit_compile=True), _x(tf)
    return lambda: f(x)


def loop_jit(tf):
    @tf.function(jit_compile=True)
    def loop(n):
        i, s = tf.constant(0), tf.constant(0.0)
        while i < n:
            s = s * 0.5 + tf.cast(i, tf.float32)
            i += 1
        return s
    n = tf.constant(1000)
    return lambda: loop(n)


def numpy_chain():
    x = np.random.default_rng(0).normal(size=(N,)).astype(np.float32)
    a, b, c = np.float32(1.5), np.float32(0.25), np.float32(0.5)
    return lambda: np.maximum(x * a + b, np.float32(0)) * np.tanh(x) - c * x


def numpy_scale():
    x = np.random.default_rng(0).normal(size=(N,)).astype(np.float32)
    return lambda: np.multiply(x, np.float32(1.5))


WORKLOADS = [
    Workload("7 elementwise ops on 4M float32, jit_compile=True", chain_jit, number=20,
             numpy=numpy_scale, note="floor: one NumPy pass over the array (x * 1.5)"),
    Workload("the same chain, default tf.function", chain_default, number=20,
             numpy=numpy_chain, note="floor: the chain in NumPy, op by op"),
    Workload("tanh on 4M float32, jit_compile=True", tanh_jit, number=20),
    Workload("while loop, 1000 scalar iterations, jit_compile=True", loop_jit, number=50),
]

if __name__ == "__main__":
    main("jit_compile: fused kernels vs XLA", WORKLOADS)
