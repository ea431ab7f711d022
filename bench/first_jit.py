"""The first call of a 200-op `jit_compile=True` function (bench/function.py's f200: 40 x
matmul, mul, add, tanh, mul on 16x16), each in a fresh process: tracegraph with an empty kernel
cache (cold), with the cache the cold run left (warm), both with kernels compiled in the
background (the default) and on the first call (`TRACEGRAPH_JIT_BACKGROUND=0`); TensorFlow's
first XLA call in a fresh process beside them. The import is not timed; the first call is
`f(x, w)` from the Function's creation to its result.

    python bench/first_jit.py [--rounds 5] [--compare ~/.cache/tracegraph-tf221/bin/python]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile

from busy import load

_PROGRAM = """
import os, sys, time
os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
import numpy as np
import {module} as tf

def f(x, w):
    for _ in range(40):
        y = tf.matmul(x, w)
        x = tf.tanh(y * 0.1 + x)
        x = x * 0.9
    return x

rng = np.random.default_rng(0)
x = tf.constant(rng.standard_normal((16, 16)).astype(np.float32))
w = tf.constant(rng.standard_normal((16, 16)).astype(np.float32))
start = time.perf_counter()
g = tf.function(f, jit_compile=True)
g(x, w).numpy()
first = time.perf_counter() - start
start = time.perf_counter()
g(x, w).numpy()
print("RESULT", first, time.perf_counter() - start)
"""


def _run(python: str, module: str, env: dict) -> tuple[float, float]:
    proc = subprocess.run([python, "-c", _PROGRAM.format(module=module)], capture_output=True,
                          text=True, env={**os.environ, **env}, timeout=600)
    lines = [x for x in proc.stdout.splitlines() if x.startswith("RESULT")]
    if not lines:
        raise RuntimeError(proc.stderr[-2000:])
    _, first, second = lines[-1].split()
    return float(first), float(second)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--compare", help="a Python interpreter with TensorFlow installed")
    args = parser.parse_args()
    rows: dict[str, list] = {}
    print(f"before: {load()}")
    for _ in range(args.rounds):
        for mode, background in (("background", "1"), ("on the first call", "0")):
            with tempfile.TemporaryDirectory() as cache:
                env = {"TRACEGRAPH_CACHE_DIR": cache, "TRACEGRAPH_JIT_BACKGROUND": background}
                rows.setdefault(f"tracegraph, empty cache, kernels {mode}", []).append(
                    _run(sys.executable, "tracegraph", env))
                rows.setdefault(f"tracegraph, warm cache, kernels {mode}", []).append(
                    _run(sys.executable, "tracegraph", env))
        if args.compare:
            rows.setdefault("TensorFlow 2.21 (XLA), fresh process", []).append(
                _run(args.compare, "tensorflow", {}))
    print(f"after: {load()}")
    print(f"\n## First call of a 200-op jit_compile function, fresh processes "
          f"(medians of {args.rounds} rounds)\n")
    print("| run | first call (ms) | second call (ms) |")
    print("|---|---:|---:|")
    for name, values in rows.items():
        first = statistics.median(v[0] for v in values) * 1e3
        second = statistics.median(v[1] for v in values) * 1e3
        print(f"| {name} | {first:,.1f} | {second:,.2f} |")


if __name__ == "__main__":
    main()
