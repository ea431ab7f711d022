"""save/load and cache(filename): round trips of every leaf kind through tracegraph's safe
format (JSON index + npz chunks, no pickle), and corrupt files as DataLossError."""

import collections
import json

import numpy as np
import pytest

import tracegraph as tf
from tests.data.helpers import values

P = collections.namedtuple("P", "a b")


def _mixed():
    return tf.data.Dataset.from_tensor_slices({
        "id": np.arange(5, dtype=np.int64),
        "name": np.array([b"a", b"bb", b"", b"dddd", b"e"], dtype=object),
        "x": np.arange(10, dtype=np.float32).reshape(5, 2),
    })


@pytest.mark.parametrize("compression", [None, "GZIP"])
def test_save_load_round_trip(tmp_path, compression):
    ds = _mixed()
    ds.save(str(tmp_path / "ds"), compression=compression)
    loaded = tf.data.Dataset.load(str(tmp_path / "ds"))
    assert repr(loaded.element_spec) == repr(ds.element_spec)
    assert values(loaded) == values(ds)
    assert repr(loaded).startswith("<_LoadDataset")


def test_ragged_sparse_namedtuples_and_shards(tmp_path):
    ragged = tf.data.Dataset.range(6).map(lambda x: tf.fill([x % 3], x)).ragged_batch(2)
    ragged.save(str(tmp_path / "r"))
    assert values(tf.data.Dataset.load(str(tmp_path / "r"))) == values(ragged)
    sp = tf.SparseTensor(indices=[[0, 0], [1, 2]], values=[1.5, 2.5], dense_shape=[3, 4])
    sparse = tf.data.Dataset.from_tensors(sp).repeat(2)
    sparse.save(str(tmp_path / "s"))
    assert values(tf.data.Dataset.load(str(tmp_path / "s"))) == values(sparse)
    pairs = tf.data.Dataset.from_tensor_slices(P([1, 2, 3], [4.0, 5.0, 6.0]))
    pairs.save(str(tmp_path / "p"), shard_func=lambda p: p.a % 2)
    loaded = tf.data.Dataset.load(str(tmp_path / "p"))
    assert sorted(values(loaded)) == [(1, 4.0), (2, 5.0), (3, 6.0)]
    assert type(loaded.element_spec).__name__ == "P"
    index = json.loads((tmp_path / "p" / "dataset_spec.json").read_text())
    assert sorted(index["shards"]) == ["0", "1"]
    interleaved = tf.data.Dataset.load(
        str(tmp_path / "p"), reader_func=lambda shards: shards.interleave(lambda d: d,
                                                                          cycle_length=2))
    assert values(interleaved) == [(2, 5.0), (1, 4.0), (3, 6.0)]


def test_corrupt_saves_are_data_loss_errors(tmp_path):
    tf.data.Dataset.range(5).save(str(tmp_path / "ds"))
    chunk = next((tmp_path / "ds").glob("*.npz"))
    chunk.write_bytes(chunk.read_bytes()[:40])
    with pytest.raises(tf.errors.DataLossError, match="unreadable dataset chunk"):
        list(tf.data.Dataset.load(str(tmp_path / "ds")))
    (tmp_path / "ds" / "dataset_spec.json").write_text('{"format": "other"}')
    with pytest.raises(tf.errors.DataLossError, match="not a tracegraph saved dataset"):
        tf.data.Dataset.load(str(tmp_path / "ds"))
    with pytest.raises(tf.errors.NotFoundError):
        tf.data.Dataset.load(str(tmp_path / "missing"))
    tf.data.Dataset.range(3).save(str(tmp_path / "ok"))
    index = json.loads((tmp_path / "ok" / "dataset_spec.json").read_text())
    index["shards"]["0"] = ["../../etc/passwd"]
    (tmp_path / "ok" / "dataset_spec.json").write_text(json.dumps(index))
    with pytest.raises(tf.errors.DataLossError, match="malformed shard table"):
        tf.data.Dataset.load(str(tmp_path / "ok"))


def test_datasets_of_datasets_cannot_be_saved(tmp_path):
    with pytest.raises(TypeError, match="dataset of datasets"):
        tf.data.Dataset.range(3).window(2).save(str(tmp_path / "w"))


def test_memory_cache_fills_once_and_drops_partial_reads():
    calls = []

    def gen():
        calls.append(1)
        yield from range(4)
    ds = tf.data.Dataset.from_generator(gen, output_signature=tf.TensorSpec((), tf.int64))
    cached = ds.cache()
    assert values(cached.take(2)) == [0, 1]            # partial: nothing is kept
    assert values(cached) == [0, 1, 2, 3] and values(cached) == [0, 1, 2, 3]
    assert len(calls) == 2


def test_file_cache_is_read_by_later_datasets(tmp_path):
    calls = []

    def gen():
        calls.append(1)
        yield from ["a", "bc"]
    prefix = str(tmp_path / "cache")

    def make():
        return tf.data.Dataset.from_generator(
            gen, output_signature=tf.TensorSpec((), tf.string)).cache(prefix)
    assert values(make()) == [b"a", b"bc"]
    assert (tmp_path / "cache.index").exists()
    assert values(make()) == [b"a", b"bc"] and len(calls) == 1
