"""Graph bundles and map_blocks in one process (dask's threaded scheduler): the fast tests.
The cluster tests (real worker processes) are in test_cluster.py, marked slow."""

import sys

import numpy as np
import pytest

import tracegraph as tf
from tracegraph.distribute import bundle_concrete, load_bundle, shipping
from tracegraph.formats.saved_data_error import SavedDataError

from . import models

da = pytest.importorskip("dask.array")


def _blocks_of(fn, x, rows):
    parts, start = [], 0
    for r in rows:
        parts.append(fn(tf.constant(x[start:start + r])))
        start += r
    return parts


def test_a_bundle_round_trips_and_is_keyed_by_its_bytes():
    cf = models.make_chain().get_concrete_function()
    bundle = bundle_concrete(cf)
    again = load_bundle(bundle.data, bundle.key)
    x = np.random.default_rng(0).normal(size=(7, 3)).astype(np.float32)
    want = cf(tf.constant(x))
    got = again.run([x])
    np.testing.assert_array_equal(got[0], want["norm"].numpy())   # dict leaves: sorted keys
    np.testing.assert_array_equal(got[1], want["y"].numpy())
    assert len(bundle.key) == 64 and bundle.output_specs[0][0] == tf.float32


def test_a_bundle_carries_the_variables_its_graph_reads():
    m = models.SequentialModule()
    cf = m.__call__.get_concrete_function(tf.TensorSpec([None, 3], tf.float32))
    bundle = bundle_concrete(cf)
    assert len(bundle.handles) == 4
    copy = load_bundle(bundle.data, bundle.key)
    x = np.ones((4, 3), np.float32)
    np.testing.assert_array_equal(copy.run([x])[0], m(tf.constant(x)).numpy())
    # new values for the variables (as a training step sends them) change the result
    values = [np.zeros_like(v) for v in bundle.variable_values()]
    np.testing.assert_array_equal(copy.run([x], values)[0], np.zeros((4, 2), np.float32))
    with pytest.raises(ValueError, match="expects float32"):
        copy.run([x], [v.astype(np.float64) for v in values])


@pytest.mark.parametrize("damage, message", [
    (lambda d: d[:-1], "do not match their key|declares"),
    (lambda d: b"not a header", "no header line"),
    (lambda d: d.replace(b'"version":1', b'"version":9', 1), "version 9 is not supported"),
    (lambda d: d.replace(b"graph_bundle", b"graph_bundlX", 1), "not a tracegraph graph bundle"),
])
def test_damaged_bundles_are_refused_with_a_clear_error(damage, message):
    bundle = bundle_concrete(models.make_chain().get_concrete_function())
    bad = damage(bundle.data)
    with pytest.raises(SavedDataError, match=message):
        load_bundle(bad, bundle.key)


def test_a_graph_with_an_unknown_op_fails_with_the_loaders_error():
    bundle = bundle_concrete(models.make_chain().get_concrete_function())
    key, data = models.repack(bundle.data, models.unknown_op)
    with pytest.raises(SavedDataError, match="OpFromTheFuture|op_from_the_future"):
        load_bundle(data, key)


def test_map_blocks_with_the_threaded_scheduler_matches_per_block_calls():
    x = np.random.default_rng(1).normal(size=(50, 3)).astype(np.float32)
    arr = da.from_array(x, chunks=(16, 2))
    out = tf.distribute.map_blocks(models.make_chain(), arr)
    assert set(out) == {"y", "norm"}
    assert out["y"].chunks == ((16, 16, 16, 2), (3,)) and out["norm"].dtype == np.float32
    got_y, got_n = out["y"].compute(scheduler="threads"), out["norm"].compute(scheduler="sync")
    parts = _blocks_of(models.make_chain(), x, (16, 16, 16, 2))
    np.testing.assert_array_equal(got_y, np.concatenate([p["y"].numpy() for p in parts]))
    np.testing.assert_array_equal(got_n, np.concatenate([p["norm"].numpy() for p in parts]))


def test_map_blocks_traces_once_for_every_block_size():
    calls = []

    def f(x):
        calls.append(1)
        return x * 2.0
    x = np.arange(30, dtype=np.float32).reshape(10, 3)
    out = tf.distribute.map_blocks(f, da.from_array(x, chunks=(4, 3)))
    np.testing.assert_array_equal(out.compute(scheduler="sync"), x * 2)
    assert len(calls) == 1


def test_map_blocks_of_functions_whose_output_rank_differs_from_the_input_rank():
    # a row-wise score [N, 8] -> [N], an added axis [N, 8] -> [N, 8, 2], and inputs of
    # different ranks ([N, 8] with [N]): the blocks' axes follow the traced signature
    x = np.random.default_rng(2).normal(size=(100, 8)).astype(np.float32)
    y = np.arange(100, dtype=np.float32)
    arr, col = da.from_array(x, chunks=(30, 4)), da.from_array(y, chunks=25)
    score = tf.function(lambda t: tf.reduce_sum(t * t, axis=1))
    out = tf.distribute.map_blocks(score, arr)
    assert out.shape == (100,) and out.chunks == ((30, 30, 30, 10),)
    got = out.compute(scheduler="sync")
    np.testing.assert_array_equal(got, np.concatenate(
        [p.numpy() for p in _blocks_of(score, x, (30, 30, 30, 10))]))
    grown = tf.distribute.map_blocks(lambda t: tf.stack([t, -t], axis=2), arr)
    assert grown.chunks == ((30, 30, 30, 10), (8,), (2,))
    np.testing.assert_array_equal(grown.compute(scheduler="sync"), np.stack([x, -x], 2))
    mixed = tf.distribute.map_blocks(lambda t, u: t[:, 0] + u, arr, col)
    np.testing.assert_array_equal(mixed.compute(scheduler="sync"), x[:, 0] + y)
    column = tf.distribute.map_blocks(lambda u: u[:, None] * 2.0, col)
    assert column.chunks == ((25, 25, 25, 25), (1,))
    np.testing.assert_array_equal(column.compute(scheduler="sync"), y[:, None] * 2)
    fixed = tf.distribute.map_blocks(lambda t: tf.reduce_sum(t, axis=0, keepdims=True), arr)
    assert fixed.chunks == ((1, 1, 1, 1), (8,))   # a known first dimension: one row per block


def test_map_blocks_refuses_what_it_cannot_chunk():
    x = da.zeros((6, 3), chunks=3, dtype=np.float32)
    with pytest.raises(ValueError, match="rows"):
        tf.distribute.map_blocks(models.make_chain(), x, da.zeros((5, 3), dtype=np.float32))
    with pytest.raises(ValueError, match="expects"):
        tf.distribute.map_blocks(models.make_chain(), x.astype(np.float64))
    with pytest.raises(ValueError, match="must be known"):
        tf.distribute.map_blocks(tf.function(lambda v: tf.reshape(v, [-1, tf.shape(v)[0]])), x)


def test_an_output_that_is_not_one_row_per_input_row_is_a_clear_error():
    x = np.ones((6, 3), np.float32)
    out = tf.distribute.map_blocks(lambda v: tf.concat([v, v], 0), da.from_array(x, chunks=3))
    with pytest.raises(ValueError, match="one row per input row"):
        out.compute(scheduler="sync")


def test_without_dask_the_error_names_the_extra(monkeypatch):
    monkeypatch.setitem(sys.modules, "dask", None)
    monkeypatch.setitem(sys.modules, "dask.array", None)
    with pytest.raises(ImportError, match=r"tracegraph\[distributed\]"):
        tf.distribute.map_blocks(models.make_chain(), np.ones((2, 3), np.float32))


def test_reduce_replicas_sums_and_averages_in_replica_order():
    a = [np.array([1.0, 2.0], np.float32)]
    b = [np.array([3.0, 6.0], np.float32)]
    np.testing.assert_array_equal(shipping.reduce_replicas("SUM", None, a, b)[0], [4.0, 8.0])
    np.testing.assert_array_equal(shipping.reduce_replicas("MEAN", None, a, b)[0], [2.0, 4.0])
    np.testing.assert_array_equal(shipping.reduce_replicas("MEAN", 0, a, b)[0], 3.0)
    assert tf.distribute.ReduceOp.SUM.value == "SUM"


def test_map_partitions_over_a_dask_dataframe():
    pd = pytest.importorskip("pandas")
    dd = pytest.importorskip("dask.dataframe")
    rng = np.random.default_rng(2)
    frame = pd.DataFrame({"a": rng.normal(size=40), "b": rng.normal(size=40),
                          "c": rng.normal(size=40), "label": np.arange(40)})
    ddf = dd.from_pandas(frame, npartitions=3)
    out = tf.distribute.map_partitions(models.make_chain(), ddf, columns=["a", "b", "c"])
    x = frame[["a", "b", "c"]].to_numpy(np.float32)
    want = models.make_chain()(tf.constant(x))
    np.testing.assert_array_equal(out["y"].compute(scheduler="sync"), want["y"].numpy())
    np.testing.assert_array_equal(out["norm"].compute(scheduler="sync"), want["norm"].numpy())


def test_variables_travel_with_their_values_at_the_time_of_the_map():
    m = models.SequentialModule()
    x = np.random.default_rng(3).normal(size=(12, 3)).astype(np.float32)
    arr = da.from_array(x, chunks=4)
    before = m(tf.constant(x)).numpy()
    first = tf.distribute.map_blocks(m.__call__, arr)
    m.dense_2.b.assign(np.full(2, 5.0, np.float32))
    second = tf.distribute.map_blocks(m.__call__, arr)
    np.testing.assert_array_equal(first.compute(scheduler="sync"), before)
    np.testing.assert_array_equal(second.compute(scheduler="sync"), m(tf.constant(x)).numpy())
    assert first.name != second.name
