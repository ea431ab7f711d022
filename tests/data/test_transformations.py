"""Transformations without functions: order, shapes, drop_remainder, cardinality and errors as
TensorFlow 2.21 gives them (expected values recorded from TF 2.21), on both paths."""

import numpy as np
import pytest

import tracegraph as tf
from tests.data.helpers import both_paths, values

R = tf.data.Dataset.range(10)


def check(dataset, expected_values, expected_card, text=None):
    fast, slow = both_paths(dataset)
    assert fast == expected_values and slow == expected_values
    assert int(dataset.cardinality()) == expected_card
    if text is not None:
        assert repr(dataset) == text


@pytest.mark.parametrize("dataset,expected,card", [
    (R.batch(3), [[0, 1, 2], [3, 4, 5], [6, 7, 8], [9]], 4),
    (R.batch(3, drop_remainder=True), [[0, 1, 2], [3, 4, 5], [6, 7, 8]], 3),
    (R.batch(3).unbatch(), list(range(10)), -2),
    (R.take(3).repeat(2), [0, 1, 2, 0, 1, 2], 6),
    (R.skip(7), [7, 8, 9], 3),
    (R.shard(3, 1), [1, 4, 7], 3),
    (R.take(0), [], 0),
    (R.take(-1), list(range(10)), 10),
    (R.skip(-1), [], 0),
    (R.enumerate(5).take(3), [(5, 0), (6, 1), (7, 2)], 3),
    (R.concatenate(tf.data.Dataset.range(3)), list(range(10)) + [0, 1, 2], 13),
    (tf.data.Dataset.from_tensor_slices([[1, 2], [3, 4]]).unbatch(), [1, 2, 3, 4], 4),
    (tf.data.Dataset.from_tensors([[1, 2], [3, 4]]).unbatch().batch(3), [[[1, 2], [3, 4]]], 1),
    (tf.data.Dataset.from_tensors(1).repeat(3), [1, 1, 1], 3),
    (tf.data.Dataset.range(0).repeat(), [], 0),
    (R.batch(3).rebatch(4), [[0, 1, 2, 3], [4, 5, 6, 7], [8, 9]], -2),
    (R.prefetch(2), list(range(10)), 10),
    (R.cache(), list(range(10)), 10),
])
def test_order_and_cardinality(dataset, expected, card):
    check(dataset, expected, card)


def test_batch_specs_and_errors():
    assert repr(R.batch(3)) == \
        "<_BatchDataset element_spec=TensorSpec(shape=(None,), dtype=tf.int64, name=None)>"
    assert repr(R.batch(3, drop_remainder=True).element_spec) == \
        "TensorSpec(shape=(3,), dtype=tf.int64, name=None)"
    uneven = R.take(2).map(lambda x: tf.fill([x], x)).batch(2)
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"Cannot add tensor to the "
                       r"batch: number of elements does not match. Shapes are: \[tensor\]: "
                       r"\[1\], \[batch\]: \[0\]"):
        list(uneven)
    with pytest.raises(tf.errors.InvalidArgumentError, match="Batch size must be greater"):
        R.batch(0)


def test_cardinality_rules():
    gen = tf.data.Dataset.from_generator(lambda: iter([1, 2]),
                                         output_signature=tf.TensorSpec((), tf.int64))
    cards = [tf.data.Dataset.zip((R.take(3), gen)), tf.data.Dataset.zip((R.take(3), R.repeat())),
             tf.data.Dataset.zip((gen, R.repeat())), gen.take(2), R.repeat().take(2),
             R.skip(50), gen.skip(1), R.repeat().skip(2), R.repeat(0), gen.repeat(2),
             R.concatenate(gen), R.repeat().concatenate(R), R.repeat().batch(2),
             R.window(2), R.window(3, drop_remainder=True), R.window(2, shift=1),
             R.filter(lambda x: True), R.map(lambda x: x)]
    assert [int(tf.data.experimental.cardinality(c)) for c in cards] == \
        [-2, 3, -2, -2, 2, 0, -2, -1, 0, -2, -2, -1, -1, 5, 3, 10, -2, 10]
    assert tf.data.INFINITE_CARDINALITY == -1 and tf.data.UNKNOWN_CARDINALITY == -2
    with pytest.raises(TypeError, match="The dataset is infinite."):
        len(R.repeat())
    with pytest.raises(TypeError, match="The dataset length is unknown."):
        len(R.filter(lambda x: True))


def test_shard_errors():
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"Number of shards must be greater than zero \(currently "
                             r"num_shards = 0\)"):
        R.shard(0, 0)
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"Index must be between 0 and 1"):
        R.shard(2, 3)


def test_zip_structures_and_errors():
    ds = tf.data.Dataset.zip({"a": R, "b": R.map(lambda x: x * 2)}).take(2)
    assert values(ds) == [{"a": 0, "b": 0}, {"a": 1, "b": 2}]
    nested = tf.data.Dataset.zip((R, (R.skip(1), R.skip(2)))).take(1)
    assert values(nested) == [(0, (1, 2))]
    assert values(tf.data.Dataset.zip(datasets=(R.take(1), R.take(1)))) == [(0, 0)]
    with pytest.raises(TypeError, match="Python `list` is not supported"):
        tf.data.Dataset.zip([R, 1])


def test_concatenate_specs():
    mixed = tf.data.Dataset.from_tensor_slices([[1], [2]]).concatenate(
        tf.data.Dataset.from_tensor_slices([[1, 2]]))
    assert repr(mixed.element_spec) == "TensorSpec(shape=(None,), dtype=tf.int32, name=None)"
    with pytest.raises(TypeError, match="Incompatible dataset elements"):
        R.concatenate(tf.data.Dataset.from_tensor_slices([1.0]))


def test_padded_batch():
    lengths = tf.data.Dataset.range(5).map(lambda x: tf.fill([x], x))
    check(lengths.padded_batch(2, padding_values=tf.constant(-1, tf.int64)),
          [[[-1], [1]], [[2, 2, -1], [3, 3, 3]], [[4, 4, 4, 4]]], 3)
    check(lengths.padded_batch(2, padded_shapes=[6]),
          [[[0] * 6, [1] + [0] * 5], [[2, 2, 0, 0, 0, 0], [3, 3, 3, 0, 0, 0]],
           [[4, 4, 4, 4, 0, 0]]], 3)
    with_strings = tf.data.Dataset.range(3).map(lambda x: (tf.fill([x], x),
                                                           tf.strings.as_string(x)))
    assert values(with_strings.padded_batch(2)) == [([[0], [1]], [b"0", b"1"]), ([[2, 2]], [b"2"])]
    assert repr(lengths.padded_batch(2, padded_shapes=[6], drop_remainder=True).element_spec) \
        == "TensorSpec(shape=(2, 6), dtype=tf.int64, name=None)"
    with pytest.raises(tf.errors.InvalidArgumentError, match="smaller size"):
        list(lengths.padded_batch(2, padded_shapes=[2]))
    with pytest.raises(TypeError, match="does not match type"):
        lengths.padded_batch(2, padding_values=1.5)
    with pytest.raises(TypeError, match="not supported for datasets of datasets"):
        R.window(2).padded_batch(2)


def test_ragged_batch_and_ragged_rows():
    ds = tf.data.Dataset.range(6).map(lambda x: tf.fill([x % 3], x)).ragged_batch(2)
    assert repr(ds.element_spec) == \
        "RaggedTensorSpec(TensorShape([None, None]), tf.int64, 1, tf.int64)"
    assert values(ds) == [("ragged", [[], [1]]), ("ragged", [[2, 2], []]),
                          ("ragged", [[4], [5, 5]])]
    assert values(ds.unbatch()) == [[], [1], [2, 2], [], [4], [5, 5]]


def test_window():
    assert repr(R.window(2).element_spec) == \
        "DatasetSpec(TensorSpec(shape=(), dtype=tf.int64, name=None), TensorShape([]))"
    assert values(tf.data.Dataset.range(3).window(2)) == [("dataset", [0, 1]), ("dataset", [2])]
    check(R.window(3, shift=2, stride=2).flat_map(lambda w: w.batch(3)),
          [[0, 2, 4], [2, 4, 6], [4, 6, 8], [6, 8], [8]], -2)
    check(R.window(3, shift=2, drop_remainder=True).flat_map(lambda w: w.batch(3)),
          [[0, 1, 2], [2, 3, 4], [4, 5, 6], [6, 7, 8]], -2)
    pairs = tf.data.Dataset.zip((R, R.map(lambda x: -x))).window(2).take(1)
    (a, b), = [tuple(w) for w in pairs]
    assert values(a) == [0, 1] and values(b) == [0, -1]


def test_group_by_window_and_buckets():
    check(R.group_by_window(lambda x: x % 3, lambda k, w: w.batch(2), window_size=2),
          [[0, 3], [1, 4], [2, 5], [6, 9], [7], [8]], -2)
    check(R.group_by_window(lambda x: x % 2, lambda k, w: w.map(lambda v: v + 100 * k).batch(10),
                            window_size_func=lambda k: k + 2),
          [[0, 2], [101, 103, 105], [4, 6], [8], [107, 109]], -2)
    buckets = tf.data.Dataset.range(8).map(lambda x: tf.fill([x], x)).bucket_by_sequence_length(
        lambda x: tf.shape(x)[0], [3, 6], [2, 2, 2])
    assert values(buckets) == [[[0], [1]], [[3, 3, 3, 0], [4, 4, 4, 4]],
                               [[6, 6, 6, 6, 6, 6, 0], [7, 7, 7, 7, 7, 7, 7]], [[2, 2]],
                               [[5, 5, 5, 5, 5]]]
    with pytest.raises(ValueError, match="Either the `window_size` argument or"):
        R.group_by_window(lambda x: x, lambda k, w: w)
    with pytest.raises(ValueError, match="must return a single `tf.int64` scalar"):
        R.group_by_window(lambda x: tf.cast(x, tf.int32), lambda k, w: w, window_size=2)


def test_unique():
    check(tf.data.Dataset.from_tensor_slices(["a", "b", "a", "c"]).unique(), [b"a", b"b", b"c"],
          -2)
    with pytest.raises(TypeError, match="does not support type"):
        tf.data.Dataset.from_tensor_slices([1.0]).unique()


def test_choose_and_sample_from_datasets():
    choice = tf.data.Dataset.from_tensor_slices(tf.constant([0, 1, 1, 0, 0], tf.int64))
    mixed = tf.data.Dataset.choose_from_datasets([tf.data.Dataset.range(3),
                                                  tf.data.Dataset.range(10, 13)], choice)
    assert repr(mixed).startswith("<_DirectedInterleaveDataset")
    assert values(mixed) == [0, 10, 11, 1, 2]
    a, b = tf.data.Dataset.range(100), tf.data.Dataset.range(1000, 1100)
    sampled = values(tf.data.Dataset.sample_from_datasets([a, b], [0.25, 0.75], seed=3))
    assert sorted(sampled) == list(range(100)) + list(range(1000, 1100))
    first_half = sampled[:100]
    assert 55 <= sum(v >= 1000 for v in first_half) <= 95       # about 75 of 100
    assert sampled == values(tf.data.Dataset.sample_from_datasets([a, b], [0.25, 0.75], seed=3))
    stop = tf.data.Dataset.sample_from_datasets([a.take(2), b], seed=1,
                                                stop_on_empty_dataset=True)
    assert len(values(stop)) < 102


def test_rejection_resample_balances_classes():
    labels = (np.arange(4000) % 10 == 0).astype(np.int32)        # 10% class 1
    ds = tf.data.Dataset.from_tensor_slices(labels)
    out = ds.rejection_resample(lambda x: x, target_dist=[0.5, 0.5],
                                initial_dist=[0.9, 0.1], seed=2)
    classes = [int(c) for c, _ in out.take(400).as_numpy_iterator()]
    assert 140 <= sum(classes) <= 260
    estimated = ds.apply(tf.data.experimental.rejection_resample(lambda x: x, [0.5, 0.5], seed=1))
    pairs = list(estimated.take(200).as_numpy_iterator())
    assert all(c == x for c, x in pairs) and 40 <= sum(c for c, _ in pairs) <= 160


def test_assert_cardinality():
    assert values(tf.data.Dataset.range(3).apply(tf.data.experimental.assert_cardinality(3))) \
        == [0, 1, 2]
    with pytest.raises(tf.errors.FailedPreconditionError, match="expected to contain 4 elements "
                                                                 "but contained only 3 elements"):
        list(tf.data.Dataset.range(3).apply(tf.data.experimental.assert_cardinality(4)))
    with pytest.raises(tf.errors.FailedPreconditionError, match="at least 3 elements"):
        list(R.filter(lambda x: True).apply(tf.data.experimental.assert_cardinality(2)))


def test_options_merge_and_read_only():
    options = tf.data.Options()
    options.deterministic = False
    options.experimental_optimization.map_parallelization = True
    ds = R.with_options(options)
    got = ds.options()
    assert got.deterministic is False and got.experimental_optimization.map_parallelization
    other = tf.data.Options()
    other.deterministic = True
    assert ds.with_options(other).options().deterministic is True      # the last set wins
    with pytest.raises(ValueError, match="has no effect"):
        got.deterministic = True
    with pytest.raises(AttributeError, match="Cannot set the property"):
        options.no_such_option = 1
    with pytest.raises(TypeError, match='must be of type'):
        options.deterministic = 3
    assert repr(ds).startswith("<_OptionsDataset")


def test_execution_plan_names_the_path():
    plan = tf.data.Dataset.from_tensor_slices(np.zeros((6, 2))).shuffle(6).batch(2)
    assert plan.execution_plan().splitlines() == [
        "BatchDataset(batch_size=2, drop_remainder=False): batches cut from its input's blocks",
        "  ShuffleDataset(buffer_size=6): batch path (blocks of rows)",
        "  " * 2 + "TensorSliceDataset: batch path (blocks of rows)"]
    per_element = R.map(lambda x: tf.reduce_sum(tf.fill([3], x)))
    assert "per element: Fill is not elementwise" in per_element.execution_plan()
    assert "element by element" in per_element.execution_plan()


def test_iterator_protocol():
    it = iter(tf.data.Dataset.range(2))
    assert int(next(it)) == 0 and int(it.get_next()) == 1
    with pytest.raises(StopIteration):
        next(it)
    with pytest.raises(tf.errors.OutOfRangeError):
        it.get_next()
    assert repr(it.element_spec) == "TensorSpec(shape=(), dtype=tf.int64, name=None)"
    it = iter(tf.data.Dataset.range(1))
    first, second = it.get_next_as_optional(), it.get_next_as_optional()
    assert bool(first.has_value()) and int(first.get_value()) == 0
    assert not bool(second.has_value())
    with pytest.raises(tf.errors.InvalidArgumentError, match="does not have a value"):
        second.get_value()
    assert int(R.take(1).get_single_element()) == 0
    with pytest.raises(tf.errors.InvalidArgumentError, match="more than one element"):
        R.get_single_element()
    optional = tf.experimental.Optional.from_value((1, 2.0))
    assert values([optional.get_value()]) == [(1, 2.0)]
    assert not bool(tf.experimental.Optional.empty(tf.TensorSpec((), tf.int32)).has_value())
