"""Accuracy of float32 tanh and exp, in ulps from the correctly rounded result, as a function
compiled with jit_compile=True computes them (numba kernels in tracegraph, XLA in TensorFlow)
and as the default path does. Every 16th float32 in the range where the result is not exactly
x, +-1, 0 or inf.

    python bench/accuracy.py                    # tracegraph
    /path/to/python-with-tensorflow bench/accuracy.py --module tensorflow
"""

import argparse
import importlib
import os

import numpy as np

RANGES = {"tanh": (2.0 ** -12, 9.1), "exp": (-87.0, 88.0)}


def inputs(name):
    low, high = RANGES[name]
    if low < 0:   # both signs of a range around 0: magnitudes from 1e-6 up
        pos = np.arange(np.float32(1e-6).view(np.int32), np.float32(high).view(np.int32), 16,
                        dtype=np.int32).view(np.float32)
        neg = -np.arange(np.float32(1e-6).view(np.int32), np.float32(-low).view(np.int32), 16,
                         dtype=np.int32).view(np.float32)
        return np.concatenate([neg, pos])
    bits = np.arange(np.float32(low).view(np.int32), np.float32(high).view(np.int32), 16,
                     dtype=np.int32)
    return bits.view(np.float32)


def ulps(got, ref):
    return np.abs(got.view(np.int32).astype(np.int64) - ref.view(np.int32).astype(np.int64))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--module", default="tracegraph")
    args = parser.parse_args()
    if args.module == "tensorflow":
        os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
    tf = importlib.import_module(args.module)
    print(f"## float32 accuracy under {args.module}: ulps from the correctly rounded result\n")
    print("| function | path | inputs | max ulps | correctly rounded |")
    print("|---|---|---:|---:|---:|")
    for name in ("tanh", "exp"):
        x = inputs(name)
        ref = getattr(np, name)(x.astype(np.float64)).astype(np.float32)
        fn = getattr(tf.math, name)
        for path, f in (("jit_compile=True", tf.function(fn, jit_compile=True)),
                        ("default tf.function", tf.function(fn))):
            got = np.asarray(f(tf.constant(x)))
            d = ulps(got, ref)
            print(f"| {name} | {path} | {x.size:,} | {d.max()} | {(d == 0).mean():.1%} |")


if __name__ == "__main__":
    main()
