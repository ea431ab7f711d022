"""Property test: on random pipelines over in-memory arrays, the batch path (blocks of rows,
vectorized maps and filters, block shuffles) gives exactly the elements, in the same order, as
the element-by-element path."""

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import tracegraph as tf
from tests.data.helpers import element_by_element, values

DTYPES = [np.int64, np.int32, np.float32]


@st.composite
def sources(draw):
    n = draw(st.integers(0, 40))
    kind = draw(st.sampled_from(["range", "slices", "pair"]))
    if kind == "range":
        return ("range", n)
    dtype = draw(st.sampled_from(DTYPES))
    width = draw(st.integers(1, 3))
    return (kind, n, np.dtype(dtype).name, width)


STAGES = st.one_of(
    st.tuples(st.just("batch"), st.integers(1, 7), st.booleans()),
    st.tuples(st.just("unbatch")),
    st.tuples(st.just("shuffle"), st.integers(1, 50), st.integers(0, 5)),
    st.tuples(st.just("repeat"), st.integers(0, 3)),
    st.tuples(st.just("take"), st.integers(-1, 30)),
    st.tuples(st.just("skip"), st.integers(-1, 30)),
    st.tuples(st.just("shard"), st.integers(1, 4), st.integers(0, 3)),
    st.tuples(st.just("map"), st.sampled_from(["affine", "cast", "square"])),
    st.tuples(st.just("filter"), st.integers(2, 4)),
    st.tuples(st.just("zip")),
    st.tuples(st.just("concatenate")),
    st.tuples(st.just("prefetch"), st.integers(0, 3)),
    st.tuples(st.just("cache")),
    st.tuples(st.just("enumerate")),
)


def _source(spec):
    if spec[0] == "range":
        return tf.data.Dataset.range(spec[1])
    _, n, dtype, width = spec
    x = (np.arange(n * width) % 17).astype(dtype).reshape(n, width)
    if spec[0] == "slices":
        return tf.data.Dataset.from_tensor_slices(x)
    return tf.data.Dataset.from_tensor_slices((x, np.arange(n)))


def _on_first_leaf(ds, op):
    """A function of an element changing its first leaf (elements may be nested tuples)."""
    def fn(*xs):
        element = xs if len(xs) > 1 else xs[0]
        flat = tf.nest.flatten(element)
        return tf.nest.pack_sequence_as(element, [op(flat[0])] + flat[1:])
    return fn


def _first_leaf(op):
    def fn(*xs):
        return op(tf.nest.flatten(xs)[0])
    return fn


def _apply(ds, stage):
    kind = stage[0]
    rank = tf.nest.flatten(ds.element_spec)[0].shape.rank
    if kind == "batch":
        return ds.batch(stage[1], drop_remainder=stage[2])
    if kind == "unbatch":
        ranks = [s.shape.rank for s in tf.nest.flatten(ds.element_spec)]
        return ds.unbatch() if all(r for r in ranks) and len(set(
            s.shape[0] for s in tf.nest.flatten(ds.element_spec))) == 1 else ds
    if kind == "shuffle":
        return ds.shuffle(stage[1], seed=stage[2])
    if kind == "repeat":
        return ds.repeat(stage[1])
    if kind == "take":
        return ds.take(stage[1])
    if kind == "skip":
        return ds.skip(stage[1])
    if kind == "shard":
        return ds.shard(stage[1], stage[2] % stage[1])
    if kind == "map":
        op = {"affine": lambda v: v * 3 + 1, "cast": lambda v: tf.cast(v, tf.float64) / 2,
              "square": lambda v: v * v}[stage[1]]
        return ds.map(_on_first_leaf(ds, op))
    if kind == "filter" and rank == 0:
        mod = stage[1]
        return ds.filter(_first_leaf(lambda v: tf.cast(v, tf.int64) % mod != 0))
    if kind == "zip":
        return tf.data.Dataset.zip((ds, tf.data.Dataset.range(100)))
    if kind == "concatenate":
        return ds.concatenate(ds)
    if kind == "prefetch":
        return ds.prefetch(stage[1])
    if kind == "cache":
        return ds.cache()
    if kind == "enumerate":
        return ds.enumerate(3)
    return ds


def _outcome(dataset):
    """The elements, or the type of the error the iteration raised (a pipeline may be
    invalid, e.g. batching rows of different lengths: both paths must then fail alike)."""
    try:
        return values(dataset)
    except tf.errors.OpError as e:
        return type(e).__name__


def both_paths(make):
    return _outcome(make()), _outcome(element_by_element(make()))


def _pipeline(source, stages):
    def make():
        ds = _source(source)
        for stage in stages:
            ds = _apply(ds, stage)
        return ds.take(200)
    return make


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(sources(), st.lists(STAGES, max_size=5))
def test_batch_path_equals_element_path(source, stages):
    fast, slow = both_paths(_pipeline(source, stages))
    assert fast == slow


@pytest.mark.slow
@settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(sources(), st.lists(STAGES, max_size=8))
def test_batch_path_equals_element_path_many(source, stages):
    fast, slow = both_paths(_pipeline(source, stages))
    assert fast == slow
