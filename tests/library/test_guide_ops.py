"""The ops TensorFlow's guides and Keras reach for (issue 24, family 5), against TensorFlow
2.21's results (fixtures/guide_ops.npz, written by fixtures/make_guide_ops.py), eagerly and
inside tf.function."""

from __future__ import annotations

import os
import sys

import numpy as np
import pytest

import tracegraph as tf

from .oracle import expect

HERE = os.path.join(os.path.dirname(__file__), "fixtures")
sys.path.insert(0, HERE)
from guide_ops_cases import CASES  # noqa: E402

sys.path.remove(HERE)
FIXTURE = np.load(os.path.join(HERE, "guide_ops.npz"))


def _flat(value):
    if isinstance(value, (tuple, list)):
        return [leaf for v in value for leaf in _flat(v)]
    return [value]


def _check(name, result):
    leaves = _flat(result)
    want = sorted((k for k in FIXTURE.files if k.rsplit(".", 1)[0] == name),
                  key=lambda k: int(k.rsplit(".", 1)[1]))
    assert len(leaves) == len(want)
    for leaf, key in zip(leaves, want):
        ref = FIXTURE[key]
        if ref.dtype.kind == "S":
            ref = ref.astype(object)
        tight = ref.dtype in (np.float64, np.complex128)   # float32 kernels sum differently
        expect(leaf, ref, rtol=1e-10 if tight else 1e-5, atol=1e-10 if tight else 1e-5)


@pytest.mark.parametrize("name", sorted(CASES))
def test_eager_matches_tensorflow(name):
    _check(name, eval(CASES[name], {"tf": tf, "np": np}))


@pytest.mark.parametrize("name", sorted(CASES))
def test_tf_function_matches_tensorflow(name):
    _check(name, tf.function(lambda: eval(CASES[name], {"tf": tf, "np": np}))())


def test_loops_over_a_dynamic_number_of_rows():
    @tf.function(input_signature=[tf.TensorSpec([None, 3], tf.float32)])
    def f(x):
        return (tf.map_fn(lambda r: r * 2., x), tf.scan(lambda a, r: a + r, x),
                tf.foldl(lambda a, r: a + r, x), tf.math.segment_sum(x, tf.zeros_like(x[:, 0],
                                                                                     tf.int32)))
    x = np.arange(12, dtype=np.float32).reshape(4, 3)
    mapped, scanned, folded, summed = f(tf.constant(x))
    np.testing.assert_array_equal(mapped.numpy(), x * 2)
    np.testing.assert_array_equal(scanned.numpy(), np.cumsum(x, 0))
    np.testing.assert_array_equal(folded.numpy(), x.sum(0))
    np.testing.assert_array_equal(summed.numpy(), x.sum(0, keepdims=True))
    assert f.get_concrete_function().structured_outputs[0].shape.as_list() == [None, 3]
    mapped = tf.function(lambda x: tf.map_fn(lambda r: r * 2., x))
    assert mapped(tf.zeros([0, 3])).shape == (0, 3)


def test_map_fn_inside_function_without_a_known_result_shape_asks_for_the_signature():
    @tf.function(input_signature=[tf.TensorSpec([None], tf.int32)])
    def f(n):
        return tf.map_fn(lambda k: tf.range(k), n)
    with pytest.raises(ValueError, match="fn_output_signature"):
        f(tf.constant([1, 2]))


def test_scan_and_map_fn_check_what_fn_returns():
    with pytest.raises(ValueError, match="structure"):
        tf.scan(lambda a, x: (a, a), tf.constant([1, 2]))
    with pytest.raises(TypeError, match="fn_output_signature"):
        tf.map_fn(lambda x: tf.cast(x, tf.float32), tf.constant([1, 2]))
    with pytest.raises(ValueError, match="1\\+ dimensional"):
        tf.map_fn(lambda x: x, tf.constant(1))


def test_errors_speak_as_tensorflow():
    with pytest.raises(tf.errors.InvalidArgumentError, match="does not index into param shape"):
        tf.tensor_scatter_nd_update(tf.zeros([2]), [[5]], [1.])
    with pytest.raises(tf.errors.InvalidArgumentError, match="not increasing"):
        tf.math.segment_sum([1, 2, 3], [1, 0, 0])
    with pytest.raises(ValueError, match="side"):
        tf.searchsorted([1, 2], [1], side="middle")
    with pytest.raises(ValueError, match="contiguous"):
        tf.switch_case(0, {0: lambda: 1, 2: lambda: 2})
    with pytest.raises(ValueError, match="Incompatible shapes"):
        tf.broadcast_static_shape(tf.TensorShape([2]), tf.TensorShape([3]))


def test_static_values_and_shapes():
    assert tf.get_static_value(tf.constant([1, 2])).tolist() == [1, 2]
    assert tf.broadcast_static_shape(tf.TensorShape([None, 1]),
                                     tf.TensorShape([3])).as_list() == [None, 3]

    @tf.function(input_signature=[tf.TensorSpec([None, 2], tf.float32)])
    def f(x):
        assert tf.get_static_value(x) is None
        assert tf.get_static_value(tf.constant(3)) == 3
        return x
    f.get_concrete_function()


def test_results_are_named_as_tensorflow_names_them():
    y, idx, count = tf.unique_with_counts(tf.constant([4, 4, 1]))
    result = tf.unique_with_counts(tf.constant([4, 4, 1]))
    assert type(result).__name__ == "UniqueWithCounts"
    assert result.count.numpy().tolist() == count.numpy().tolist() == [2, 1]
    z = tf.math.complex(tf.constant([1.0]), tf.constant([2.0]))
    assert z.dtype == tf.complex64 and z.numpy()[0] == 1 + 2j
    assert tf.complex(tf.constant(1.0, tf.float64), tf.constant(0.5, tf.float64)).dtype == \
        tf.complex128
    buckets = tf.strings.to_hash_bucket(tf.constant(["a", "b"]), 7)
    assert buckets.dtype == tf.int64 and buckets.shape == (2,)


def test_vectorized_siphash_equals_the_one_string_algorithm():
    from tracegraph.ops.string_hashing import siphash24, siphash24_many
    strings = [(f"w{i}" * (i % 9)).encode() for i in range(300)] + ["日本".encode(), b""]
    key = (5, 2**64 - 3)
    assert [int(h) for h in siphash24_many(*key, strings)] == \
        [siphash24(*key, s) for s in strings]
