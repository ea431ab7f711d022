"""Issue 14 item 13: trace, optimize and compile grow linearly (or n log n) in the number of ops.
Compiling a 10,000-op chain once took 13.5 s, growing quadratically in the code generator. The
test compares the CPU time of each stage on chains of about 1,000 and 4,000 ops: linear growth
gives a ratio near 4 (n log n: 4.8), quadratic 16. It checks the ratio, never a time."""

import gc
import time

import tracegraph as tf
from tracegraph.execute.compile import compile_graph
from tracegraph.optimize import optimize


def _chain(n):
    def f(x):
        for i in range(n):
            if i % 3 == 0:
                x = tf.sin(x) * 1.5
            elif i % 3 == 1:
                x = x + 1.0
            else:
                x = x - x * 0.5
        return x
    return f


def _stage_times(n):
    """CPU seconds of (trace, optimize, compile) for a chain, and its op count. The garbage
    collector is paused while timing: its pauses depend on the whole process's heap."""
    gc.collect()
    gc.disable()
    try:
        t0 = time.process_time()
        cf = tf.function(_chain(n)).get_concrete_function(tf.TensorSpec([3]))
        t1 = time.process_time()
        optimize(cf.graph)
        t2 = time.process_time()
        compile_graph(cf.graph, cf.graph.inputs, cf.graph.outputs)
        t3 = time.process_time()
    finally:
        gc.enable()
    return len(cf.graph.operations), (t1 - t0, t2 - t1, t3 - t2)


def test_trace_optimize_and_compile_grow_at_most_n_log_n():
    best = {}
    for _ in range(3):
        for n in (375, 1500):
            ops, times = _stage_times(n)
            best[n] = (ops, [min(a, b) for a, b in zip(best.get(n, (0, times))[1], times)])
    (small_ops, small), (big_ops, big) = best[375], best[1500]
    assert 900 <= small_ops <= 1100 and 3700 <= big_ops <= 4300
    growth = big_ops / small_ops
    for stage, a, b in zip(("trace", "optimize", "compile"), small, big):
        ratio = b / max(a, 1e-3)
        # linear: about `growth` (4); quadratic: growth ** 2 (16)
        assert ratio < 2 * growth, f"{stage}: {a:.3f}s -> {b:.3f}s (x{ratio:.1f})"
