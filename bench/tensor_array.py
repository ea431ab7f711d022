"""`tf.TensorArray` accumulation in a `tf.range` loop (the "Better performance with
tf.function" guide's pattern): 1000 writes of a [4] float32 row and a `stack()`, in a graph;
and `tf.py_function` called from a graph (per-call overhead of an op calling Python).

    python bench/tensor_array.py [--compare /tmp/tfenv/bin/python]
"""

import numpy as np
from harness import Workload, main


def accumulate(tf):
    @tf.function
    def f(n):
        ta = tf.TensorArray(tf.float32, size=0, dynamic_size=True)
        row = tf.ones([4])
        for i in tf.range(n):
            ta = ta.write(i, row * tf.cast(i, tf.float32))
        return ta.stack()

    n = tf.constant(1000)
    f(n)
    return lambda: f(n)


def py_function(tf):
    @tf.function
    def f(x):
        return tf.py_function(lambda v: v * 2, [x], tf.float32)

    x = tf.constant([1.0, 2.0])
    f(x)
    return lambda: f(x)


def numpy_accumulate():
    """The floor: a Python list of 1000 NumPy rows and np.stack."""
    row = np.ones([4], np.float32)

    def run():
        return np.stack([row * np.float32(i) for i in range(1000)])
    return run


WORKLOADS = [
    Workload("TensorArray: 1000 writes in a tf.range loop + stack, graph", accumulate,
             number=20, repeat=5, numpy=numpy_accumulate),
    Workload("tf.py_function call from a graph", py_function, number=500),
]

if __name__ == "__main__":
    main("tf.TensorArray and tf.py_function", WORKLOADS)
