"""The optimizer's effect where it matters, optimized vs unoptimized and vs TensorFlow:

1. the Grappler guide's constant folding example, scaled to this CPU (a 500x500 constant,
   20 matmuls, reduce_mean(c + input_arg)), with folding off and on;
2. a graph full of common subexpressions, with CSE off and on;
3. an MLP forward pass, matmul + bias + relu (batch 128, 784-256-10), with remapping off/on;
4. peak memory of a chain of large elementwise ops, memory optimization off and on
   (tracegraph only: measured with tracemalloc, which sees NumPy's allocations);
5. each pass's speedup, off / on (the guide's constant folding example: well over 10x).

    python bench/grappler.py [--compare /tmp/tfenv/bin/python]
"""

import tracemalloc

import numpy as np
from harness import Workload, main


def _with_options(tf, options):
    tf.config.optimizer.set_experimental_options(options)


def folding(on):
    def make(tf):
        _with_options(tf, {"constant_folding": on})
        rng = np.random.default_rng(0)
        a_value = rng.standard_normal((500, 500)).astype(np.float32) / 25

        @tf.function
        def simple_function(input_arg):
            a = tf.constant(a_value, dtype=tf.float32)
            c = a
            for _ in range(20):
                c = c @ a
            return tf.reduce_mean(c + input_arg)

        x = tf.constant(2.2)
        simple_function(x)
        return lambda: simple_function(x)
    return make


def cse(on):
    def make(tf):
        _with_options(tf, {"constant_folding": True, "arithmetic_optimization": on,
                           "common_subgraph_elimination": on})

        @tf.function
        def f(x):
            total = tf.zeros_like(x)
            for _ in range(20):  # the same expression, written 20 times
                total += tf.sin(x) * tf.cos(x) + tf.exp(x * 0.5)
            return total

        x = tf.constant(np.linspace(-1, 1, 10000, dtype=np.float32))
        f(x)
        return lambda: f(x)
    return make


def mlp(on):
    def make(tf):
        _with_options(tf, {"remapping": on})
        rng = np.random.default_rng(0)
        w1 = tf.Variable(rng.standard_normal((784, 256)).astype(np.float32) * 0.05)
        b1 = tf.Variable(np.zeros(256, np.float32))
        w2 = tf.Variable(rng.standard_normal((256, 10)).astype(np.float32) * 0.05)
        b2 = tf.Variable(np.zeros(10, np.float32))

        @tf.function
        def forward(x):
            h = tf.nn.relu(tf.nn.bias_add(tf.matmul(x, w1), b1))
            return tf.nn.bias_add(tf.matmul(h, w2), b2)

        x = tf.constant(rng.standard_normal((128, 784)).astype(np.float32))
        forward(x)
        return lambda: forward(x)
    return make


def numpy_mlp():
    rng = np.random.default_rng(0)
    w1 = rng.standard_normal((784, 256)).astype(np.float32) * 0.05
    b1 = np.zeros(256, np.float32)
    w2 = rng.standard_normal((256, 10)).astype(np.float32) * 0.05
    b2 = np.zeros(10, np.float32)
    x = rng.standard_normal((128, 784)).astype(np.float32)
    return lambda: np.maximum(x @ w1 + b1, 0) @ w2 + b2


def chain(tf):
    @tf.function
    def f(x):
        y = tf.sin(x)
        for _ in range(8):
            y = tf.exp(y * 0.5) - 1.0
        return y
    return f


WORKLOADS = [
    Workload("constant folding example, folding off", folding(False), number=20, repeat=5),
    Workload("constant folding example, folding on", folding(True), number=500),
    Workload("CSE-heavy graph (10k elements), CSE off", cse(False), number=100),
    Workload("CSE-heavy graph (10k elements), CSE on", cse(True), number=100),
    Workload("MLP forward 128x784-256-10, remapping off", mlp(False), number=300),
    Workload("MLP forward 128x784-256-10, remapping on", mlp(True), number=300,
             numpy=numpy_mlp),
]


def peak_memory_report():
    import tracegraph as tf
    rows = []
    x = tf.constant(np.linspace(-1, 1, 1_000_000, dtype=np.float32))  # 4 MB
    for on in (False, True):
        tf.config.optimizer.set_experimental_options({"memory_optimization": on})
        f = chain(tf)
        f(x)
        tracemalloc.start()
        f(x)
        _, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        rows.append((on, peak))
    off, on = rows[0][1], rows[1][1]
    print("\n## Peak memory of a chain of 17 elementwise ops on a 4 MB tensor (tracemalloc)\n")
    print("| memory_optimization | peak bytes allocated during a call |")
    print("|---|---:|")
    print(f"| off | {off:,} |\n| on | {on:,} |")
    print(f"\nPeak cut by {1 - on / off:.0%}.")


SPEEDUPS = [  # (what, off workload, on workload, what the Grappler guide shows)
    ("constant folding", "constant folding example, folding off",
     "constant folding example, folding on", "well over 10x: the 20 matmuls fold away"),
    ("CSE", "CSE-heavy graph (10k elements), CSE off", "CSE-heavy graph (10k elements), CSE on",
     ""),
    ("remapping", "MLP forward 128x784-256-10, remapping off",
     "MLP forward 128x784-256-10, remapping on", ""),
]


def speedup_report(ours: dict) -> None:
    """Each pass's speedup, off / on (the figure tests/optimize/test_meta.py used to assert for
    the Grappler guide's constant folding example: tests never assert timings)."""
    print("\n## Speedup of each pass (median off / median on)\n")
    print("| pass | speedup | the Grappler guide |")
    print("|---|---:|---|")
    for what, off, on, guide in SPEEDUPS:
        if isinstance(ours.get(off), float) and isinstance(ours.get(on), float):
            print(f"| {what} | {ours[off] / ours[on]:,.1f}x | {guide or '-'} |")


if __name__ == "__main__":
    results = main("Grappler passes: optimized vs unoptimized", WORKLOADS)
    if isinstance(results, dict) and "tracegraph" in results:
        speedup_report(results["tracegraph"])
        peak_memory_report()
