"""Static shapes kept where TensorFlow 2.21 keeps them (issue 14, item 9), and the small kernels
the same item names (pad of bool/string, exclusive scans over an empty axis)."""

import numpy as np
import pytest

import tracegraph as tf

I32 = tf.TensorSpec([], tf.int32)


def _shapes(fn, *specs):
    out = tf.function(fn).get_concrete_function(*specs).structured_outputs
    outs = out if isinstance(out, (list, tuple)) else [out]
    return [o.shape.as_list() if o.shape.rank is not None else None for o in outs]


def test_indexing_with_a_tensor_keeps_the_other_dims():
    assert _shapes(lambda x, i: x[i], tf.TensorSpec([3, 2]), I32) == [[2]]
    assert _shapes(lambda x, i: x[i], tf.TensorSpec([None, 2, 5]), I32) == [[2, 5]]
    # TensorFlow 2.21's shapes for the same expressions.
    assert _shapes(lambda x, i: (x[i, 1:], x[1:, i], x[:, i], x[..., i], x[i:i + 2],
                                 x[tf.newaxis, i], x[::2, i]),
                   tf.TensorSpec([3, 4]), I32) == [[None], [None], [3], [3], [None, 4],
                                                   [1, 4], [2]]


def test_iterating_rows_into_an_accumulator_of_the_row_shape_traces():
    @tf.function
    def last_doubled(x):
        acc = tf.zeros([2])
        for row in x:
            acc = row * 2.0
        return acc

    x = tf.constant([[1., 2.], [3., 4.], [5., 6.]])
    np.testing.assert_array_equal(last_doubled(x).numpy(), [10., 12.])
    v = tf.Variable(tf.zeros([2]))

    @tf.function
    def total(x):
        for row in x:
            v.assign_add(row)
        return v.read_value()

    np.testing.assert_array_equal(total(x).numpy(), [9., 12.])


def test_broadcast_to_with_unknown_shapes():
    bt = tf.function(tf.broadcast_to)
    assert bt.get_concrete_function(tf.TensorSpec(None), tf.TensorSpec([2], tf.int32)) \
        .structured_outputs.shape.as_list() == [None, None]
    c = bt.get_concrete_function(tf.TensorSpec([None, 3]), tf.TensorSpec([None], tf.int32))
    assert c.structured_outputs.shape.rank is None
    assert c(tf.ones([1, 3]), tf.constant([2, 2, 3])).shape == (2, 2, 3)


def test_a_general_spec_is_never_served_by_a_specific_trace():
    f = tf.function(lambda s: tf.zeros(s))
    specific = f.get_concrete_function(tf.constant([2]))
    general = f.get_concrete_function(tf.TensorSpec([None], tf.int32))
    assert general is not specific and general.structured_outputs.shape.rank is None


def test_sort_of_unknown_rank():
    f = tf.function(lambda a: (tf.sort(a), tf.argsort(a), tf.sort(a, direction="DESCENDING")))
    c = f.get_concrete_function(tf.TensorSpec(None))
    assert all(o.shape.rank is None for o in c.structured_outputs)
    values, order, down = c(tf.constant([[3., 1.], [0., 2.]]))
    np.testing.assert_array_equal(values.numpy(), [[1., 3.], [0., 2.]])
    np.testing.assert_array_equal(order.numpy(), [[1, 0], [0, 1]])
    np.testing.assert_array_equal(down.numpy(), [[3., 1.], [2., 0.]])
    with pytest.raises(ValueError, match="axis=-1"):
        f = tf.function(lambda a: tf.sort(a, axis=0))
        f.get_concrete_function(tf.TensorSpec(None))


def test_pad_bool_and_string_with_the_default_value():
    assert tf.pad(tf.constant([True, False]), [[1, 1]]).numpy().tolist() == \
        [False, True, False, False]
    assert tf.pad(tf.constant(["a", "b"]), [[1, 2]]).numpy().tolist() == \
        [b"", b"a", b"b", b"", b""]
    assert tf.pad(tf.constant([["a"]]), [[1, 0], [0, 1]], constant_values="z").numpy() \
        .tolist() == [[b"z", b"z"], [b"a", b"z"]]


@pytest.mark.parametrize("scan", [tf.math.cumsum, tf.math.cumprod])
@pytest.mark.parametrize("reverse", [False, True])
def test_exclusive_scans_over_an_empty_axis(scan, reverse):
    for shape, axis in (([0], 0), ([0, 3], 0), ([2, 0], 1)):
        out = scan(tf.zeros(shape), axis=axis, exclusive=True, reverse=reverse)
        assert out.shape == tuple(shape)
    g = tf.function(lambda a: scan(a, exclusive=True, reverse=reverse))
    assert g(tf.zeros([0])).shape == (0,)


def test_reshape_and_fill_to_a_shape_known_in_part():
    # a shape vector built from tf.shape(x) keeps what is known of it (TensorFlow's partial
    # shapes): stacks, concatenations and slices of it; TensorFlow 2.21's static shapes
    s = tf.TensorSpec
    cases = [
        (lambda x: tf.reshape(x, tf.stack([tf.shape(x)[0], 4])), [s([None, 2, 2])], [None, 4]),
        (lambda x: tf.reshape(x, [tf.shape(x)[0], 2, -1]), [s([None, 2, 2])], [None, 2, None]),
        (lambda x: tf.reshape(x, tf.concat([[-1], tf.shape(x)[2:]], 0)), [s([None, 3, 5, 7])],
         [None, 5, 7]),
        (lambda x: tf.reshape(x, [tf.shape(x)[0], -1]), [s([None, 2, 3])], [None, None]),
        (lambda x: tf.reshape(x, [tf.shape(x)[0], -1]), [s([4, 2, 3])], [4, 6]),
        (lambda x, y: tf.reshape(x, [tf.shape(y)[0], 3]), [s([6, 2]), s([None])], [4, 3]),
        (lambda x: tf.reshape(x, tf.shape(x)[::-1]), [s([None, 2, 3])], [3, 2, None]),
        (lambda x: tf.reshape(x, tf.shape(x, out_type=tf.int64)), [s([None, 2, 3])],
         [None, 2, 3]),
        (lambda x: tf.fill(tf.stack([tf.shape(x)[0], 3]), 0.), [s([None, 2])], [None, 3]),
        (lambda x: tf.zeros(tf.concat([tf.shape(x), [5]], 0)), [s([None, 2])], [None, 2, 5]),
        (lambda x: tf.ones([tf.shape(x)[0], tf.shape(x)[1] * 2]), [s([None, 2])], [None, 4]),
    ]
    for fn, specs, want in cases:
        assert _shapes(fn, *specs) == [want], (specs, want)
    with pytest.raises(ValueError, match="Dimension size must be evenly divisible by 5 but "
                                         "is 12"):
        _shapes(lambda x, y: tf.reshape(x, [tf.shape(y)[0], 5]), s([6, 2]), s([None]))


def test_reshape_to_a_shape_known_in_part_runs():
    @tf.function(input_signature=[tf.TensorSpec([None, 2, 3])])
    def flatten_rows(x):
        return tf.reshape(x, tf.concat([tf.shape(x)[:1], [6]], 0))
    x = np.arange(12, dtype=np.float32).reshape(2, 2, 3)
    assert flatten_rows.get_concrete_function().structured_outputs.shape.as_list() == [None, 6]
    np.testing.assert_array_equal(flatten_rows(x).numpy(), x.reshape(2, 6))
