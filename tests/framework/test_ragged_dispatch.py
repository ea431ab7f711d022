"""TensorFlow's functions and operators on ragged values (issue 24, family 4): elementwise ops
over the flat values with TensorFlow's broadcasting, reductions, concat/stack/gather/tile/
reverse/expand_dims, indexing. Each result is checked against a row-by-row NumPy oracle, and
eagerly and inside a tf.function (same values)."""

import numpy as np
import pytest

import tracegraph as tf

ROWS = [[3, 1, 4, 1], [], [5, 9, 2], [6], []]
FLOAT_ROWS = [[1.5, -2.0], [0.25], [], [3.0, 4.0, -1.0]]


def both_ways(fn, *args):
    """fn(*args) eagerly and in a tf.function: the two results (lists) must agree."""
    eager = fn(*args)
    graph = tf.function(fn)(*args)
    np.testing.assert_equal(_as_list(eager), _as_list(graph))   # NaN equals NaN
    return eager


def _as_list(x):
    if isinstance(x, tf.RaggedTensor):
        return x.to_list()
    if isinstance(x, tuple):
        return tuple(_as_list(v) for v in x)
    return x.numpy().tolist()


def test_elementwise_ops_and_operators_map_the_flat_values():
    rt = tf.ragged.constant(ROWS)
    assert both_ways(lambda x: tf.add(x, 3), rt).to_list() == [[v + 3 for v in r] for r in ROWS]
    assert both_ways(lambda x: x * 2 - 1, rt).to_list() == [[2 * v - 1 for v in r] for r in ROWS]
    assert (-rt).to_list() == [[-v for v in r] for r in ROWS]
    assert (10 - rt).to_list() == [[10 - v for v in r] for r in ROWS]
    assert (rt > 2).to_list() == [[v > 2 for v in r] for r in ROWS]
    assert tf.math.square(rt).to_list() == [[v * v for v in r] for r in ROWS]
    assert tf.cast(rt, tf.float32).dtype == tf.float32
    assert (rt + rt).to_list() == [[2 * v for v in r] for r in ROWS]
    f = tf.ragged.constant(FLOAT_ROWS)
    np.testing.assert_allclose(tf.exp(f).flat_values.numpy(),
                               np.exp(np.concatenate([np.array(r) for r in FLOAT_ROWS])),
                               rtol=1e-6)
    assert tf.where(f > 0, f, tf.zeros_like(f)).to_list() == \
        [[max(v, 0.0) for v in r] for r in FLOAT_ROWS]


def test_string_ops_map_the_flat_values():
    words = tf.ragged.constant([["So", "long"], ["thanks", "for", "all"]])
    assert tf.strings.substr(words, 0, 2).to_list() == [[b"So", b"lo"], [b"th", b"fo", b"al"]]
    assert tf.strings.length(words).to_list() == [[2, 4], [6, 3, 3]]
    assert tf.strings.join([words, words], separator="-").to_list()[0] == [b"So-So",
                                                                            b"long-long"]


def test_broadcasting_dense_operands_as_tensorflow():
    x = tf.ragged.constant([[10, 87, 12], [19, 53], [12, 32]])
    assert (x + [[1000], [2000], [3000]]).to_list() == \
        [[1010, 1087, 1012], [2019, 2053], [3012, 3032]]
    x3 = tf.ragged.constant([[[1, 2], [3, 4], [5, 6]], [[7, 8]]], ragged_rank=1)
    assert (x3 + tf.constant([[10]])).to_list() == [[[11, 12], [13, 14], [15, 16]], [[17, 18]]]
    assert (x3 * tf.constant([1, -1])).to_list() == [[[1, -2], [3, -4], [5, -6]], [[7, -8]]]
    with pytest.raises(tf.errors.InvalidArgumentError):
        tf.ragged.constant([[1, 2], [3, 4, 5, 6], [7]]) + tf.ones([3, 4], tf.int32)
    with pytest.raises(tf.errors.InvalidArgumentError):
        tf.ragged.constant([[1, 2, 3], [4], [5, 6]]) + tf.ragged.constant([[1, 2], [3, 4], [5]])


def test_reductions_along_each_axis():
    rt = tf.ragged.constant(ROWS)
    assert both_ways(lambda x: tf.reduce_sum(x, axis=1), rt).numpy().tolist() == \
        [sum(r) for r in ROWS]
    assert tf.reduce_sum(rt).numpy() == sum(map(sum, ROWS))
    means = both_ways(lambda x: tf.reduce_mean(x, axis=1), rt)
    assert means.dtype == tf.float64    # TensorFlow's: an integer mean is float64
    np.testing.assert_allclose(means.numpy(), [np.mean(r) if r else np.nan for r in ROWS])
    lowest = np.iinfo(np.int32).min
    assert tf.reduce_max(rt, axis=1).numpy().tolist() == [max(r) if r else lowest
                                                          for r in ROWS]
    assert tf.reduce_max(tf.ragged.constant(FLOAT_ROWS), axis=1).numpy()[2] == \
        np.finfo(np.float32).min
    assert tf.reduce_min(rt, axis=-1).numpy().tolist()[0] == 1
    assert tf.reduce_sum(rt, axis=0).numpy().tolist() == [14, 10, 6, 1]
    np.testing.assert_allclose(tf.reduce_mean(rt, axis=0).numpy(), [14 / 3, 5, 3, 1])
    assert tf.reduce_prod(rt, axis=1).numpy().tolist() == [12, 1, 90, 6, 1]
    assert tf.reduce_any(rt > 5, axis=1).numpy().tolist() == [False, False, True, True, False]
    nested = tf.ragged.constant([[[1, 2], [3]], [[4, 5, 6]]])
    assert tf.reduce_sum(nested, axis=2).to_list() == [[3, 3], [15]]
    assert tf.reduce_sum(nested).numpy() == 21


def test_concat_stack_and_tile_join_rows_as_tensorflow():
    digits = tf.ragged.constant(ROWS)
    assert both_ways(lambda x: tf.concat([x, [[5, 3]]], axis=0), digits).to_list() == \
        ROWS + [[5, 3]]
    x = tf.ragged.constant([["John"], ["a", "big", "dog"], ["my", "cat"]])
    y = tf.ragged.constant([["fell", "asleep"], ["barked"], ["is", "fuzzy"]])
    assert tf.concat([x, y], axis=1).to_list() == [
        [b"John", b"fell", b"asleep"], [b"a", b"big", b"dog", b"barked"],
        [b"my", b"cat", b"is", b"fuzzy"]]
    marker = tf.fill([x.nrows(), 1], "#")
    assert tf.concat([marker, x, marker], axis=1).to_list()[0] == [b"#", b"John", b"#"]
    assert both_ways(lambda v: tf.tile(v, [1, 2]), digits).to_list() == [r * 2 for r in ROWS]
    assert tf.tile(digits, [2, 1]).to_list() == ROWS * 2
    a, b = tf.ragged.constant([[1, 2], [3]]), tf.ragged.constant([[4], [5, 6]])
    stacked = tf.stack([a, b])
    assert stacked.to_list() == [[[1, 2], [3]], [[4], [5, 6]]] and stacked.ragged_rank == 2
    assert tf.stack([a, b], axis=1).to_list() == [[[1, 2], [4]], [[3], [5, 6]]]


def test_gather_reverse_and_expand_dims():
    rt = tf.ragged.constant(ROWS)
    assert both_ways(lambda x: tf.gather(x, [2, 0, 2]), rt).to_list() == \
        [ROWS[2], ROWS[0], ROWS[2]]
    assert tf.gather(rt, [[0, 2], [1, 0]]).to_list() == [[ROWS[0], ROWS[2]], [ROWS[1], ROWS[0]]]
    params = tf.constant([10, 20, 30, 40])
    ids = tf.ragged.constant([[3, 0], [], [1]])
    assert tf.gather(params, ids).to_list() == [[40, 10], [], [20]]
    assert both_ways(lambda x: tf.reverse(x, [1]), rt).to_list() == [r[::-1] for r in ROWS]
    assert tf.reverse(rt, [0]).to_list() == ROWS[::-1]
    assert tf.expand_dims(rt, 0).shape.as_list() == [1, 5, None]
    assert tf.expand_dims(rt, 1).to_list() == [[r] for r in ROWS]


def test_indexing_beyond_one_row():
    rt = tf.ragged.constant([[[1, 2, 3], [4]], [[5], [], [6]], [[7]], [[8, 9], [10]]])
    assert rt[1].to_list() == [[5], [], [6]]
    assert rt[3, 0].numpy().tolist() == [8, 9]
    assert rt[:, 1:3].to_list() == [[[4]], [[], [6]], [], [[10]]]
    assert rt[:, -1:].to_list() == [[[4]], [[6]], [[7]], [[10]]]
    assert rt[1:3].to_list() == [[[5], [], [6]], [[7]]]
    assert rt[::-1].to_list()[0] == [[8, 9], [10]]
    assert rt[-1].to_list() == [[8, 9], [10]]
    q = tf.ragged.constant([["Who", "is", "George"], ["What"], ["Goodnight", "moon"]])
    assert q[1, 0].numpy() == b"What"
    assert both_ways(lambda x: x[:, -2:], q).to_list() == \
        [[b"is", b"George"], [b"What"], [b"Goodnight", b"moon"]]
    assert q[..., :1].to_list() == [[b"Who"], [b"What"], [b"Goodnight"]]
    with pytest.raises(ValueError, match="inner ragged dimension"):
        q[:, 0]
    with pytest.raises(IndexError):
        q[3]


def test_map_flat_values_and_ragged_range():
    rt = tf.ragged.constant(ROWS)
    out = tf.ragged.map_flat_values(lambda x: x * 2 + 1, rt)
    assert out.to_list() == [[2 * v + 1 for v in r] for r in ROWS]
    assert tf.ragged.map_flat_values(tf.add, rt, rt).to_list() == [[2 * v for v in r]
                                                                  for r in ROWS]
    assert tf.ragged.range([3, 0, 2]).to_list() == [[0, 1, 2], [], [0, 1]]
    assert tf.ragged.range([1, 5], [4, 5], 2).to_list() == [[1, 3], []]
    assert tf.ragged.range(3, 10, [3, 4]).to_list() == [[3, 6, 9], [3, 7]]


def test_gradients_reach_the_flat_values():
    v = tf.Variable([1.0, 2.0, 3.0, 4.0, 5.0])
    with tf.GradientTape() as tape:
        rt = tf.RaggedTensor.from_row_lengths(v * 1.0, [2, 0, 3])
        y = tf.reduce_sum(tf.reduce_max(rt * rt, axis=1)) + \
            tf.reduce_sum(tf.reduce_sum(rt, axis=1) * tf.constant([1.0, 2.0, 3.0]))
    np.testing.assert_allclose(tape.gradient(y, v).numpy(), [1, 5, 3, 3, 13])
    with tf.GradientTape() as tape:   # through concat, gather and slicing inside rows
        rt = tf.RaggedTensor.from_row_lengths(v * 1.0, [2, 0, 3])
        joined = tf.concat([rt, rt[:, -1:]], axis=1)
        y = tf.reduce_sum(tf.gather(joined, [2, 2]).flat_values)
    np.testing.assert_allclose(tape.gradient(y, v).numpy(), [0, 0, 2, 2, 4])


def test_more_of_tf_ragged_as_tensorflow():
    a, b = tf.ragged.constant([[1, 2], [3]]), tf.ragged.constant([[4]])
    assert tf.ragged.stack([a, b]).to_list() == [[[1, 2], [3]], [[4]]]
    mask = [[True, False, True], [False, False, True]]
    assert tf.ragged.boolean_mask([[1, 2, 3], [4, 5, 6]], mask).to_list() == [[1, 3], [6]]
    assert tf.ragged.row_splits_to_segment_ids([0, 2, 2, 5]).numpy().tolist() == \
        [0, 0, 2, 2, 2]
    assert tf.ragged.segment_ids_to_row_splits([0, 0, 2, 2, 2]).numpy().tolist() == \
        [0, 2, 2, 5]
    rt = tf.RaggedTensor.from_row_lengths([1, 2, 3], [2, 1])
    assert (rt == 1).to_list() == [[True, False], [False]]
    assert (rt == None) is False   # noqa: E711 - TensorFlow's tensor_equals
    assert int(tf.size(rt)) == 3 and int(tf.rank(rt)) == 2


def test_graph_printing_shows_the_components():
    printed = []

    @tf.function
    def f(x):
        printed.append(str(x))
        return x

    f(tf.ragged.constant([[1, 2], [3]]))
    assert printed == ['tf.RaggedTensor(values=Tensor("x:0", shape=(None,), dtype=int32), '
                       'row_splits=Tensor("x_1:0", shape=(3,), dtype=int64))']


def test_reducing_the_sub_rows_of_two_ragged_dimensions():
    rt = tf.ragged.constant([[[1, 2], [3]], [[4, 5, 6]], [], [[], [7]]])
    assert both_ways(lambda x: tf.reduce_sum(x, axis=1), rt).to_list() == \
        [[4, 2], [4, 5, 6], [], [7]]
    assert tf.reduce_max(rt, axis=1).to_list() == [[3, 2], [4, 5, 6], [], [7]]
    assert tf.reduce_mean(rt, axis=1).to_list() == [[2.0, 2.0], [4.0, 5.0, 6.0], [], [7.0]]


def test_text_functions_split_every_string_of_a_ragged_value():
    rt = tf.ragged.constant([["a b", "c"], [], ["d e f"]])
    words = tf.strings.split(rt)
    assert words.to_list() == [[[b"a", b"b"], [b"c"]], [], [[b"d", b"e", b"f"]]]
    assert words.shape.as_list() == [3, None, None]
    assert tf.strings.unicode_decode(rt, "UTF-8").to_list()[0] == [[97, 32, 98], [99]]
