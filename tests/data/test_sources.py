"""Sources: element specs, printing, values and cardinality as TensorFlow 2.21 gives them
(expected texts recorded from TF 2.21), on both execution paths."""

import collections

import numpy as np
import pytest

import tracegraph as tf
from tests.data.helpers import both_paths, values

I32 = "TensorSpec(shape=(), dtype=tf.int32, name=None)"
I64 = "TensorSpec(shape=(), dtype=tf.int64, name=None)"


def test_from_tensor_slices_prints_and_iterates():
    ds = tf.data.Dataset.from_tensor_slices([8, 3, 0, 8, 2, 1])
    assert repr(ds) == f"<_TensorSliceDataset element_spec={I32}>"
    assert [str(e) for e in ds][:2] == ["tf.Tensor(8, shape=(), dtype=int32)",
                                        "tf.Tensor(3, shape=(), dtype=int32)"]
    assert both_paths(ds) == ([8, 3, 0, 8, 2, 1],) * 2
    assert int(ds.cardinality()) == 6 and len(ds) == 6


def test_structures_of_slices():
    ds = tf.data.Dataset.from_tensor_slices({"a": [1, 2], "b": [[1.0, 2.0], [3.0, 4.0]]})
    assert repr(ds.element_spec) == ("{'a': TensorSpec(shape=(), dtype=tf.int32, name=None), "
                                     "'b': TensorSpec(shape=(2,), dtype=tf.float32, name=None)}")
    assert values(ds) == [{"a": 1, "b": [1.0, 2.0]}, {"a": 2, "b": [3.0, 4.0]}]
    P = collections.namedtuple("P", "x y")
    ds = tf.data.Dataset.from_tensor_slices(P([1, 2], [3.0, 4.0]))
    assert repr(ds.element_spec).startswith("P(x=TensorSpec(shape=(), dtype=tf.int32")
    assert values(ds) == [P(1, 3.0), P(2, 4.0)]
    strings = tf.data.Dataset.from_tensor_slices(([1, 2], ["a", "b"]))
    assert list(strings.as_numpy_iterator()) == [(1, b"a"), (2, b"b")]


def test_from_tensor_slices_errors():
    with pytest.raises(ValueError, match="Dimensions 2 and 3 are not compatible"):
        tf.data.Dataset.from_tensor_slices(([1, 2], [1, 2, 3]))
    with pytest.raises(ValueError, match="Unbatching a tensor is only supported for rank >= 1"):
        tf.data.Dataset.from_tensor_slices(5)


def test_from_tensors_lists_are_tensors():
    assert repr(tf.data.Dataset.from_tensors([1, 2.0]).element_spec) == \
        "TensorSpec(shape=(2,), dtype=tf.float32, name=None)"
    ds = tf.data.Dataset.from_tensors((1, "a", 2.0))
    assert values(ds) == [(1, b"a", 2.0)] and int(ds.cardinality()) == 1
    assert repr(tf.data.Dataset.from_tensors([1, 2])) == \
        "<_TensorDataset element_spec=TensorSpec(shape=(2,), dtype=tf.int32, name=None)>"


def test_ragged_and_sparse_elements():
    r = tf.ragged.constant([[1, 2], [3]])
    ds = tf.data.Dataset.from_tensor_slices(r)
    assert repr(ds.element_spec) == "RaggedTensorSpec(TensorShape([None]), tf.int32, 0, tf.int64)"
    assert values(ds) == [[1, 2], [3]]
    batched = tf.data.Dataset.from_tensors(r).batch(2)
    assert repr(batched.element_spec) == \
        "RaggedTensorSpec(TensorShape([None, 2, None]), tf.int32, 2, tf.int64)"
    assert values(ds.batch(2)) == [("ragged", [[1, 2], [3]])]
    sp = tf.SparseTensor(indices=[[0, 0], [1, 2]], values=[1, 2], dense_shape=[3, 4])
    d4 = tf.data.Dataset.from_tensors(sp)
    assert repr(d4.element_spec) == "SparseTensorSpec(TensorShape([3, 4]), tf.int32)"
    assert d4.element_spec.value_type is tf.SparseTensor
    rows = values(tf.data.Dataset.from_tensor_slices(sp))
    assert rows == [("sparse", [[0]], [1], [4]), ("sparse", [[2]], [2], [4]),
                    ("sparse", [], [], [4])]
    assert repr(d4.batch(2).element_spec) == "SparseTensorSpec(TensorShape([None, 3, 4]), tf.int32)"


def test_range():
    ds = tf.data.Dataset.range(5)
    assert repr(ds) == f"<_RangeDataset element_spec={I64}>"
    assert both_paths(ds) == ([0, 1, 2, 3, 4],) * 2
    assert values(tf.data.Dataset.range(0, -10, -3)) == [0, -3, -6, -9]
    assert values(tf.data.Dataset.range(2, 5, output_type=tf.int32)) == [2, 3, 4]
    assert int(tf.data.Dataset.range(0, 100, 7).cardinality()) == 15
    with pytest.raises(tf.errors.InvalidArgumentError, match="step must be a non-zero"):
        tf.data.Dataset.range(0, 5, 0)


def test_counter_and_random():
    counter = tf.data.experimental.Counter()
    assert repr(counter) == f"<_ScanDataset element_spec={I64}>"
    assert int(counter.cardinality()) == tf.data.INFINITE_CARDINALITY
    assert values(counter.take(3)) == [0, 1, 2]
    assert values(tf.data.Dataset.counter(10, 5).take(3)) == [10, 15, 20]
    a = values(tf.data.Dataset.random(seed=4).take(5))
    assert a == values(tf.data.Dataset.random(seed=4).take(5)) and len(set(a)) == 5


def test_list_files(tmp_path):
    for name in ["b.txt", "a.txt", "c.csv"]:
        (tmp_path / name).write_text(name)
    names = values(tf.data.Dataset.list_files(str(tmp_path / "*.txt"), shuffle=False))
    assert names == [str(tmp_path / "a.txt").encode(), str(tmp_path / "b.txt").encode()]
    shuffled = values(tf.data.Dataset.list_files(str(tmp_path / "*"), seed=3))
    assert sorted(shuffled) == sorted(str(tmp_path / n).encode() for n in
                                      ["a.txt", "b.txt", "c.csv"])
    with pytest.raises(tf.errors.InvalidArgumentError, match="No files matched pattern"):
        tf.data.Dataset.list_files(str(tmp_path / "*.none"))


def test_from_generator_signatures_and_args():
    def count(stop):
        i = 0
        while i < stop:
            yield i
            i += 1
    ds = tf.data.Dataset.from_generator(count, args=[25], output_types=tf.int32,
                                        output_shapes=())
    assert repr(ds) == f"<_FlatMapDataset element_spec={I32}>"
    assert int(ds.cardinality()) == tf.data.UNKNOWN_CARDINALITY
    batches = [b.tolist() for b in ds.repeat().batch(10).take(3).as_numpy_iterator()]
    assert batches == [list(range(10)), list(range(10, 20)), [20, 21, 22, 23, 24, 0, 1, 2, 3, 4]]

    def series():
        yield 0, np.arange(3.0)
        yield 1, np.arange(1.0)
    ds = tf.data.Dataset.from_generator(series, output_types=(tf.int32, tf.float32),
                                        output_shapes=((), (None,)))
    assert repr(ds.element_spec) == ("(TensorSpec(shape=(), dtype=tf.int32, name=None), "
                                     "TensorSpec(shape=(None,), dtype=tf.float32, name=None))")
    assert values(ds.padded_batch(2)) == [([0, 1], [[0.0, 1.0, 2.0], [0.0, 0.0, 0.0]])]
    sig = tf.data.Dataset.from_generator(
        lambda: iter([(42, tf.ragged.constant([[1, 2], [3]]))]),
        output_signature=(tf.TensorSpec((), tf.int32),
                          tf.RaggedTensorSpec(shape=(2, None), dtype=tf.int32)))
    assert values(sig) == [(42, ("ragged", [[1, 2], [3]]))]


def test_from_generator_restarts_each_iteration():
    calls = []

    def gen():
        calls.append(1)
        yield from range(3)
    ds = tf.data.Dataset.from_generator(gen, output_signature=tf.TensorSpec((), tf.int64))
    assert values(ds.repeat(2)) == [0, 1, 2, 0, 1, 2] and len(calls) == 2


def test_from_generator_argument_errors():
    with pytest.raises(TypeError, match="`generator` must be a Python callable"):
        tf.data.Dataset.from_generator(5, output_types=tf.int32)
    with pytest.raises(TypeError, match="either the `output_signature` argument or the "
                                        "`output_types`"):
        tf.data.Dataset.from_generator(lambda: iter([]))
    with pytest.raises(TypeError, match="can not be used together"):
        tf.data.Dataset.from_generator(lambda: iter([]), output_types=tf.int32,
                                       output_signature=tf.TensorSpec((), tf.int32))
