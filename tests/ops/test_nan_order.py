"""Where tf.sort, tf.argsort and tf.math.top_k put NaN: as TensorFlow 2.21's kernel does (issue
26, item 19). The expected indices were written by TensorFlow 2.21 (make_nan_order.py) for rows
of 1 to 1000 values mixing ties, +-inf and NaN, in float32, float64 and float16."""

import json
import math
import pathlib

import numpy as np
import pytest

import tracegraph as tf
from tracegraph.ops import nan_order

REFERENCE = json.loads(pathlib.Path(__file__).with_name("nan_order_tf221.json").read_text())
CASES = REFERENCE["cases"]
DTYPES = ("float32", "float64", "float16")


def _row(case, dtype):
    return np.array([math.nan if v is None else v for v in case["x"]], dtype)


@pytest.mark.parametrize("dtype", DTYPES)
def test_every_row_is_ordered_as_tensorflow_orders_it(dtype):
    wrong = []
    for i, case in enumerate(CASES):
        want = case[dtype]
        x = tf.constant(_row(case, dtype))
        got = {"argsort": tf.argsort(x),
               "argsort_descending": tf.argsort(x, direction="DESCENDING"),
               **{key: tf.math.top_k(x, int(key[4:])).indices for key in want
                  if key.startswith("top_")}}
        wrong += [f"row {i} ({len(case['x'])} values) {key}" for key, t in got.items()
                  if t.numpy().tolist() != want[key]]
    assert not wrong, wrong[:10]


def test_sort_values_and_graphs_on_every_executor_agree():
    case = next(c for c in CASES if len(c["x"]) == 300)
    x = _row(case, "float32")
    want = case["float32"]["argsort"]
    for executor in ("interpreter", "codegen", "parallel"):
        f = tf.function(lambda v: (tf.sort(v), tf.argsort(v), tf.sort(v, direction="DESCENDING")),
                        executor=executor)
        values, order, descending = f(tf.constant(x))
        assert order.numpy().tolist() == want
        np.testing.assert_array_equal(values.numpy(), x[want])
        np.testing.assert_array_equal(descending.numpy(),
                                      x[case["float32"]["argsort_descending"]])


def test_rows_without_nan_keep_the_fast_order_in_a_batch():
    clean = np.array([3.0, -0.0, 2.0, 0.0, 3.0, -np.inf, np.inf], np.float32)
    dirty = np.array([3.0, np.nan, 2.0, 0.0, np.nan, -np.inf, np.inf], np.float32)
    got = tf.argsort(tf.constant(np.stack([clean, dirty, clean]))).numpy().tolist()
    assert got[0] == got[2] == [5, 1, 3, 2, 0, 4, 6]   # -0.0 and 0.0 tie: index order
    assert got[1] == nan_order.nan_row_order(-dirty, 7)


def test_the_heapsort_fallback_is_exercised():
    calls = []
    original = nan_order._heapsort

    def counting(*args):
        calls.append(1)
        return original(*args)

    nan_order._heapsort = counting
    try:
        for case in CASES:   # as top_k(x, n) and as argsort (top_k(-x, n))
            for x in (_row(case, "float32"), -_row(case, "float32")):
                nan_order.nan_row_order(x, len(x))
    finally:
        nan_order._heapsort = original
    assert calls
