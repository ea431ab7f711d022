"""Transformations with functions: traced once per element spec with AutoGraph, captures,
Python side effects at trace time only, vectorized blocks vs per element, parallel calls,
and errors that name the user's line with TensorFlow's types."""

import time

import numpy as np
import pytest

import tracegraph as tf
from tests.data.helpers import both_paths, values

R = tf.data.Dataset.range(10)


def test_map_traces_once_and_runs_each_element():
    traces = []

    def f(x):
        traces.append(1)             # Python side effect: at trace time only
        return x * 2
    ds = R.map(f)
    assert len(traces) == 1
    assert values(ds) == [2 * i for i in range(10)] and values(ds) == values(ds)
    assert len(traces) == 1


def test_map_structures():
    pairs = tf.data.Dataset.from_tensor_slices(([1, 2], [3.0, 4.0]))
    assert values(pairs.map(lambda a, b: {"s": tf.cast(a, tf.float32) + b})) == \
        [{"s": 4.0}, {"s": 6.0}]
    assert repr(R.map(lambda x: [x, x]).element_spec) == (
        "(TensorSpec(shape=(), dtype=tf.int64, name=None), TensorSpec(shape=(), dtype=tf.int64, "
        "name=None))")
    assert values(R.map(lambda x: (x, [x, x])).take(1)) == [(0, [0, 0])]
    assert repr(R.map(lambda x: 1).element_spec) == \
        "TensorSpec(shape=(), dtype=tf.int32, name=None)"
    assert values(R.take(2).map(lambda x: tf.data.Dataset.range(x))) == \
        [("dataset", []), ("dataset", [0])]


def test_autograph_converts_control_flow():
    def f(x):
        if x % 2 == 0:
            y = x * 10
        else:
            y = -x
        total = tf.constant(0, tf.int64)
        for i in tf.range(x):
            total += i
        return y + total
    assert values(R.take(5).map(f)) == [0, -1, 21, 0, 46]


def test_captures_and_variables_by_reference():
    scale = tf.constant(3, tf.int64)
    v = tf.Variable(1, dtype=tf.int64)
    ds = R.take(3).map(lambda x: x * scale + v)
    assert values(ds) == [1, 4, 7]
    v.assign(100)
    assert values(ds) == [100, 103, 106]


def test_stateful_functions_run_per_element():
    seen = []

    def record(x):
        seen.append(int(x))
        return x
    ds = R.take(4).map(lambda x: tf.py_function(record, [x], tf.int64))
    assert values(ds) == [0, 1, 2, 3] and seen == [0, 1, 2, 3]
    assert "per element" in ds.execution_plan()


def test_vectorized_map_matches_per_element():
    x = np.arange(24, dtype=np.float32).reshape(8, 3)
    y = np.arange(8, dtype=np.int64)

    def normalize(a, b):
        return (tf.cast(a, tf.float32) / 255.0 - 0.5) * 2.0, tf.cast(b, tf.int32)

    def make():
        return tf.data.Dataset.from_tensor_slices((x, y)).map(normalize).batch(3)
    assert "MapDataset(normalize): batch path" in make().execution_plan()
    fast, slow = both_paths(make)
    assert fast == slow
    assert fast[0][0] == pytest.approx((x[:3] / 255.0 - 0.5) * 2.0, rel=1e-6)
    broadcast = tf.data.Dataset.from_tensor_slices(x).map(lambda r: (r + 1.0, 7))
    assert both_paths(broadcast)[0] == both_paths(broadcast)[1]
    assert values(broadcast.take(1)) == [([1.0, 2.0, 3.0], 7)]


def test_filter_scan_take_while_reduce():
    def keep():
        return R.filter(lambda x: x % 3 == 0)
    assert both_paths(keep) == ([0, 3, 6, 9],) * 2
    assert "FilterDataset: batch path" in keep().execution_plan()
    assert values(R.scan(tf.constant(1, tf.int64), lambda s, x: (s * 2, s + x)).take(4)) == \
        [1, 3, 6, 11]
    assert values(R.take_while(lambda x: x < 4)) == [0, 1, 2, 3]
    assert int(R.reduce(tf.constant(0, tf.int64), lambda s, x: s + x)) == 45
    grown = tf.data.Dataset.range(3).reduce(tf.constant([], tf.int64),
                                            lambda s, x: tf.concat([s, [x]], 0))
    assert grown.numpy().tolist() == [0, 1, 2]                    # the state's shape relaxes
    counts = R.batch(4).reduce({"n": 0, "s": tf.constant(0, tf.int64)},
                               lambda c, b: {"n": c["n"] + 1, "s": c["s"] + tf.reduce_sum(b)})
    assert int(counts["n"]) == 3 and int(counts["s"]) == 45


def test_function_errors_name_the_user_line():
    def bad(x):
        return x + "a"
    with pytest.raises(TypeError) as info:
        R.map(bad)
    text = str(info.value)
    assert text.startswith("in user code:") and "test_functions.py" in text
    assert 'return x + "a"' in text
    with pytest.raises(TypeError, match="missing 1 required positional argument: 'y'"):
        R.map(lambda x, y: x)
    with pytest.raises(ValueError, match="`predicate` must return a `tf.bool` scalar tensor"):
        R.filter(lambda x: x)
    with pytest.raises(TypeError, match="in user code"):
        R.reduce(0, lambda s, x: s + x)
    with pytest.raises(TypeError, match="must return a `Dataset` object"):
        R.flat_map(lambda x: x)
    with pytest.raises(TypeError, match="returned None"):
        R.map(lambda x: None)
    with pytest.raises(TypeError, match="types for the new state must match"):
        R.scan(tf.constant(0), lambda s, x: (x, x))


def test_generator_errors_name_the_yield_line():
    def gen():
        yield 1
        yield "a"                                       # the line named in the error
    ds = tf.data.Dataset.from_generator(gen, output_signature=tf.TensorSpec((), tf.int32))
    with pytest.raises(tf.errors.InvalidArgumentError) as info:
        list(ds)
    text = str(info.value)
    assert "could not be converted to the expected type. The expected type was int32" in text
    assert "test_functions.py:" in text and "in gen" in text

    def shapes():
        yield [1, 2]
        yield [1, 2, 3]
    ds = tf.data.Dataset.from_generator(shapes, output_signature=tf.TensorSpec((2,), tf.int32))
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"yielded an element of shape \(3,\) where an element of shape "
                             r"\(2,\) was expected"):
        list(ds)

    def structure():
        yield 1
    ds = tf.data.Dataset.from_generator(structure, output_signature=(
        tf.TensorSpec((), tf.int32), tf.TensorSpec((), tf.int32)))
    with pytest.raises(tf.errors.InvalidArgumentError, match="did not match the expected "
                                                             "structure"):
        list(ds)

    def raises():
        yield 1
        raise ValueError("boom")
    ds = tf.data.Dataset.from_generator(raises, output_signature=tf.TensorSpec((), tf.int32))
    with pytest.raises(tf.errors.InvalidArgumentError, match="ValueError: boom"):
        list(ds)
    ignored = ds.ignore_errors()
    assert values(tf.data.Dataset.from_generator(
        gen, output_signature=tf.TensorSpec((), tf.int32)).ignore_errors()) == [1]
    del ignored


def test_flat_map_and_interleave_order():
    assert values(R.interleave(lambda x: tf.data.Dataset.from_tensors(x).repeat(3),
                               cycle_length=4, block_length=2).take(12)) == \
        [0, 0, 1, 1, 2, 2, 3, 3, 0, 1, 2, 3]
    expected = [0, 0, 1, 0, 1, 0, 2, 1, 2, 0, 3, 1, 2, 3, 4]
    ranges = tf.data.Dataset.range(1, 6)
    assert values(ranges.interleave(lambda x: tf.data.Dataset.range(x), cycle_length=2)) == \
        expected
    assert values(ranges.interleave(lambda x: tf.data.Dataset.range(x), cycle_length=2,
                                    num_parallel_calls=2)) == expected
    assert repr(ranges.interleave(lambda x: tf.data.Dataset.range(x), cycle_length=2,
                                  num_parallel_calls=2)).startswith("<_ParallelInterleave")
    assert values(R.take(3).flat_map(lambda x: tf.data.Dataset.from_tensors(x).repeat(2))) == \
        [0, 0, 1, 1, 2, 2]


def test_parallel_map_keeps_order_and_overlaps():
    def slow(x):
        time.sleep(0.02)
        return x
    ds = tf.data.Dataset.range(8).map(
        lambda x: tf.py_function(slow, [x], tf.int64), num_parallel_calls=4)
    assert repr(ds).startswith("<_ParallelMapDataset")
    assert values(ds) == list(range(8))
    loose = tf.data.Dataset.range(20).map(lambda x: x * 2, num_parallel_calls=3,
                                          deterministic=False)
    assert sorted(values(loose)) == [2 * i for i in range(20)]


def test_prefetch_passes_errors_and_stops_its_thread():
    def gen():
        yield 1
        raise ValueError("late")
    ds = tf.data.Dataset.from_generator(gen, output_signature=tf.TensorSpec((), tf.int32))
    with pytest.raises(tf.errors.InvalidArgumentError, match="late"):
        list(ds.prefetch(2))
    import threading
    before = threading.active_count()
    for x in tf.data.Dataset.range(10 ** 6).prefetch(4):
        if int(x) == 3:
            break
    deadline = time.time() + 5
    while threading.active_count() > before and time.time() < deadline:
        time.sleep(0.01)
    assert threading.active_count() <= before


def test_ignore_errors_drops_failed_elements():
    ds = tf.data.Dataset.from_tensor_slices([1.0, 0.0, 2.0]).map(
        lambda x: tf.debugging.check_numerics(1 / x, "x"))
    with pytest.raises(tf.errors.InvalidArgumentError, match="Tensor had Inf values"):
        list(ds)
    assert values(ds.ignore_errors()) == [1.0, 0.5]
    assert repr(ds.ignore_errors()).startswith("<_IgnoreErrorsDataset")


def test_python_iteration_needs_eager_or_a_function():
    with tf.Graph().as_default():
        with pytest.raises(RuntimeError, match="only supports Python-style iteration"):
            iter(tf.data.Dataset.range(3))

    @tf.function(autograph=False)
    def unconverted():
        total = tf.constant(0, tf.int64)
        for x in tf.data.Dataset.range(3):     # a Python loop AutoGraph did not convert
            total += x
        return total
    with pytest.raises(RuntimeError, match="never ends"):
        unconverted()
