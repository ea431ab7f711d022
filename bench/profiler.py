"""What tf.profiler costs: per-call times with the profiler off (must equal a tracegraph without
a profiler: the untimed code is unchanged) and while a profile is being taken.

    python bench/profiler.py [--rounds 5]

Run it under another checkout's tracegraph (PYTHONPATH=/path/to/checkout) to compare the
"off" column with a version before the profiler; that version prints "-" for "on".
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402

import tracegraph as tf  # noqa: E402


def _workloads():
    x = tf.constant(np.ones((4, 4), np.float32))

    @tf.function
    def small(x):
        return tf.nn.relu(tf.matmul(x, x) - 1.0)

    @tf.function
    def chain(x):
        for _ in range(30):
            x = x * 1.001 + 0.5
        return x

    s = tf.constant(1.0)
    yield "tf.function, 3 ops", lambda: small(x)
    yield "tf.function, 60 ops", lambda: chain(x)
    yield "eager x + 1", lambda: s + 1


def _median_us(fn, number=2000, repeat=5) -> float:
    fn()
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        for _ in range(number):
            fn()
        times.append((time.perf_counter() - start) / number)
    return statistics.median(times) * 1e6


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    has_profiler = hasattr(tf, "profiler")
    results: dict = {}
    for _ in range(args.rounds):
        for name, fn in _workloads():
            off = _median_us(fn)
            on = None
            if has_profiler:
                with tempfile.TemporaryDirectory() as logdir:
                    tf.profiler.experimental.start(logdir)
                    on = _median_us(fn, number=500)
                    tf.profiler.experimental.stop(save=False)
            results.setdefault(name, []).append((off, on))
    print(f"{'workload':<22}{'off (us)':>10}{'on (us)':>10}   (medians of {args.rounds} rounds)")
    for name, rows in results.items():
        off = statistics.median(r[0] for r in rows)
        on = statistics.median(r[1] for r in rows) if has_profiler else None
        print(f"{name:<22}{off:>10.2f}{'-' if on is None else f'{on:.2f}':>10}")


if __name__ == "__main__":
    main()
