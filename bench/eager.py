"""Eager per-op cost: `x + 1` on a scalar, a 10x10 matmul, and the seed's `power(x, 100)`.

    python bench/eager.py [--compare /tmp/tfenv/bin/python]
"""

import numpy as np
from harness import Workload, main


def scalar_add(tf):
    x = tf.constant(1.0)
    return lambda: x + 1


def matmul_10(tf):
    a = tf.constant(np.ones((10, 10), np.float32))
    return lambda: tf.matmul(a, a)


def power(tf):
    """The seed's example: 100 int32 10x10 matmuls per call, eagerly."""
    x = tf.random.uniform(shape=[10, 10], minval=-1, maxval=2, dtype=tf.dtypes.int32)

    def power(x, y):
        result = tf.eye(10, dtype=tf.dtypes.int32)
        for _ in range(y):
            result = tf.matmul(x, result)
        return result
    return lambda: power(x, 100)


def numpy_scalar_add():
    x = np.float32(1.0)
    return lambda: x + np.float32(1)


def numpy_matmul_10():
    a = np.ones((10, 10), np.float32)
    return lambda: np.matmul(a, a)


def numpy_power():
    x = np.random.randint(-1, 2, size=(10, 10)).astype(np.int32)

    def power(x, y):
        result = np.eye(10, dtype=np.int32)
        for _ in range(y):
            result = np.matmul(x, result)
        return result
    return lambda: power(x, 100)


WORKLOADS = [
    Workload("scalar x + 1", scalar_add, number=20000, numpy=numpy_scalar_add),
    Workload("matmul 10x10 float32", matmul_10, number=20000, numpy=numpy_matmul_10),
    Workload("seed power(x, 100), eager", power, number=200, numpy=numpy_power,
             note="101 ops per call (eye + 100 int32 matmuls)"),
]

if __name__ == "__main__":
    main("Eager execution: per-op cost", WORKLOADS)
