"""Writes `nan_order_tf221.json`: where TensorFlow 2.21's TopKV2 (tf.math.top_k, tf.sort,
tf.argsort) puts the values of rows holding NaN. Run it with a Python that has TensorFlow (never
a tracegraph dependency):

    /path/to/python-with-tensorflow tests/ops/make_nan_order.py
"""

import json
import pathlib

import numpy as np
import tensorflow as tf


def rows():
    """Rows of small integers, inf and NaN (ties, +-inf and NaN in every mix), 1 to 1000 long
    (past 16 values the sort partitions, past 2*log2(n) levels it heapsorts)."""
    rng = np.random.default_rng(26)
    for n in [*range(1, 34), 40, 64, 100, 300, 1000]:
        for share in (0.05, 0.3, 0.8) if n < 1000 else (0.3,):
            x = rng.integers(-4, 5, size=n).astype(np.float64)
            x[rng.random(n) < 0.1] = np.inf
            x[rng.random(n) < 0.1] = -np.inf
            x[rng.random(n) < share] = np.nan
            yield x
    for n in (100, 300):   # runs already in order: NaN unbalances the partitions (heapsort)
        for x in (np.arange(n, dtype=np.float64), np.arange(n, 0, -1, dtype=np.float64)):
            x[rng.random(n) < 0.1] = np.nan
            yield x


cases = []
for x in rows():
    case = {"x": [None if np.isnan(v) else v for v in x.tolist()]}
    for dtype in ("float32", "float64", "float16"):
        t = tf.constant(x, getattr(tf, dtype))
        n = len(x)
        case[dtype] = {
            "argsort": tf.argsort(t).numpy().tolist(),
            "argsort_descending": tf.argsort(t, direction="DESCENDING").numpy().tolist(),
            **{f"top_{k}": tf.math.top_k(t, k).indices.numpy().tolist()
               for k in (1, 2, 3, 7) if k < n}}
    cases.append(case)
out = {"tensorflow": tf.__version__, "cases": cases}
path = pathlib.Path(__file__).with_name("nan_order_tf221.json")
path.write_text(json.dumps(out, separators=(",", ":")).replace("Infinity", "1e999") + "\n")
print(f"wrote {path} ({len(cases)} rows)")
