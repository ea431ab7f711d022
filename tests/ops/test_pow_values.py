"""`tf.pow` at the edges, as TensorFlow 2.21 computes it (C's pow): issue 14, item 6."""

import numpy as np
import pytest

import tracegraph as tf

X = [-np.inf, -0.0, 0.0, -1.0, 4.0, np.inf, np.nan, -4.0]
# TensorFlow 2.21's values (tf.pow(x, y) on float32).
EXPECTED = {
    0.5: [np.inf, 0.0, 0.0, np.nan, 2.0, np.inf, np.nan, np.nan],
    -0.5: [0.0, np.inf, np.inf, np.nan, 0.5, 0.0, np.nan, np.nan],
    1.5: [np.inf, 0.0, 0.0, np.nan, 8.0, np.inf, np.nan, np.nan],
    3.0: [-np.inf, -0.0, 0.0, -1.0, 64.0, np.inf, np.nan, -64.0],
    -1.0: [-0.0, -np.inf, np.inf, -1.0, 0.25, 0.0, np.nan, -0.25],
}


def _same(got, want):
    got, want = np.asarray(got), np.asarray(want, got.dtype)
    np.testing.assert_array_equal(got, want)
    known = ~np.isnan(want)
    assert (np.signbit(got[known]) == np.signbit(want[known])).all(), (got, want)


@pytest.mark.parametrize("dtype", [tf.float16, tf.float32, tf.float64])
@pytest.mark.parametrize("y", sorted(EXPECTED))
def test_pow_eager_matches_tensorflow(y, dtype):
    _same(tf.pow(tf.constant(X, dtype), y).numpy(), EXPECTED[y])


def test_pow_with_a_tensor_exponent_and_in_a_graph(no_optimizer):
    x = tf.constant(X)
    _same(tf.pow(x, tf.fill([8], 0.5)).numpy(), EXPECTED[0.5])
    _same(tf.function(lambda a: a ** 0.5)(x).numpy(), EXPECTED[0.5])
