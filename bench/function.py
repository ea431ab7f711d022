"""tf.function: cached-call cost, the seed's power(x, 100) eager vs graph, and a 200-op
function's trace time, first call and steady call.

    python bench/function.py [--compare /tmp/tfenv/bin/python]
"""

import numpy as np
from harness import Workload, main


def cached_call(tf):
    f = tf.function(lambda x: x + 1)
    x = tf.constant(1.0)
    f(x)
    return lambda: f(x)


def _power(tf):
    def power(x, y):
        result = tf.eye(10, dtype=tf.dtypes.int32)
        for _ in range(y):
            result = tf.matmul(x, result)
        return result
    return power


def power_eager(tf):
    x = tf.random.uniform(shape=[10, 10], minval=-1, maxval=2, dtype=tf.dtypes.int32)
    power = _power(tf)
    return lambda: power(x, 100)


def power_graph(tf):
    x = tf.random.uniform(shape=[10, 10], minval=-1, maxval=2, dtype=tf.dtypes.int32)
    power_as_graph = tf.function(_power(tf))
    power_as_graph(x, 100)
    return lambda: power_as_graph(x, 100)


def f200(tf):
    """200 ops on 16x16 tensors: 40 x (matmul, mul, add, tanh, mul)."""
    def f(x, w):
        for _ in range(40):
            y = tf.matmul(x, w)
            x = tf.tanh(y * 0.1 + x)
            x = x * 0.9
        return x
    return f


def _inputs(tf):
    rng = np.random.default_rng(0)
    x = tf.constant(rng.standard_normal((16, 16)).astype(np.float32))
    w = tf.constant(rng.standard_normal((16, 16)).astype(np.float32))
    return x, w


def trace_200(tf):
    x, w = _inputs(tf)
    spec = tf.TensorSpec([16, 16], tf.float32)
    body = f200(tf)
    return lambda: tf.function(body).get_concrete_function(spec, spec)


def first_call_200(tf):
    x, w = _inputs(tf)
    spec = tf.TensorSpec([16, 16], tf.float32)
    body = f200(tf)

    def run():
        cf = tf.function(body).get_concrete_function(spec, spec)
        return cf(x, w)
    return run


def steady_200(tf):
    x, w = _inputs(tf)
    f = tf.function(f200(tf))
    f(x, w)
    return lambda: f(x, w)


def numpy_cached_call():
    x = np.float32(1.0)
    return lambda: x + np.float32(1)


def numpy_power():
    x = np.random.randint(-1, 2, size=(10, 10)).astype(np.int32)

    def power(x, y):
        result = np.eye(10, dtype=np.int32)
        for _ in range(y):
            result = x @ result
        return result
    return lambda: power(x, 100)


def numpy_200():
    rng = np.random.default_rng(0)
    x = rng.standard_normal((16, 16)).astype(np.float32)
    w = rng.standard_normal((16, 16)).astype(np.float32)
    a, b = np.float32(0.1), np.float32(0.9)

    def f(x, w):
        for _ in range(40):
            x = np.tanh((x @ w) * a + x) * b
        return x
    return lambda: f(x, w)


WORKLOADS = [
    Workload("cached call, scalar x + 1", cached_call, number=20000, numpy=numpy_cached_call),
    Workload("seed power(x, 100), eager", power_eager, number=200, numpy=numpy_power),
    Workload("seed power(x, 100), graph", power_graph, number=1000, numpy=numpy_power),
    Workload("200-op function: trace", trace_200, number=5, repeat=5,
             note="tf.function(...).get_concrete_function(spec, spec) on a fresh Function"),
    Workload("200-op function: first call", first_call_200, number=5, repeat=5,
             note="fresh Function: trace + optimize/compile + one run"),
    Workload("200-op function: steady call", steady_200, number=500, numpy=numpy_200),
]

if __name__ == "__main__":
    main("tf.function: call cost, seed power, 200-op function", WORKLOADS)
