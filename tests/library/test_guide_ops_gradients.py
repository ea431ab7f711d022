"""Gradients of the scatter, segment and loop functions (issue 24, family 5), against central
differences in float64, eagerly and from inside tf.function."""

from __future__ import annotations

import sys

import numpy as np
import pytest

import tracegraph as tf

from .test_guide_ops import FIXTURE, HERE

sys.path.insert(0, HERE)
from guide_ops_cases import GRADIENT_CASES, gradient_of  # noqa: E402

sys.path.remove(HERE)

RNG = np.random.default_rng(24)
X = RNG.uniform(0.5, 2.0, (4, 3))           # away from ties and zeros

FUNCTIONS = {
    "scatter_update": lambda x: tf.tensor_scatter_nd_update(x, [[1], [3]], x[:2] * 3.),
    "scatter_add": lambda x: tf.tensor_scatter_nd_add(x, [[0, 1], [0, 1]], x[2, :2]),
    "scatter_sub": lambda x: tf.tensor_scatter_nd_sub(x, [[2]], tf.sin(x[:1])),
    "scatter_min": lambda x: tf.tensor_scatter_nd_min(x, [[0, 0], [3, 2]], [1.0, 1.5]),
    "scatter_max": lambda x: tf.tensor_scatter_nd_max(x, [[0, 0], [3, 2]], x[1, :2] * 1.7),
    "segment_sum": lambda x: tf.math.segment_sum(x, [0, 0, 1, 3]),
    "segment_mean": lambda x: tf.math.segment_mean(x, [0, 0, 1, 1]),
    "segment_prod": lambda x: tf.math.segment_prod(x, [0, 0, 0, 2]),
    "segment_min": lambda x: tf.math.segment_min(x, [0, 1, 1, 1]),
    "segment_max": lambda x: tf.math.segment_max(x, [0, 0, 2, 2]),
    "unsorted_sum": lambda x: tf.math.unsorted_segment_sum(x, [2, -1, 0, 2], 3),
    "unsorted_prod": lambda x: tf.math.unsorted_segment_prod(x, [2, -1, 2, 2], 3),
    "unsorted_min": lambda x: tf.math.unsorted_segment_min(x, [1, 0, 1, -1], 2),
    "unsorted_max": lambda x: tf.math.unsorted_segment_max(x, [1, 0, 1, 0], 2),
    "unsorted_mean": lambda x: tf.math.unsorted_segment_mean(x, [1, 0, 1, 1], 2),
    "unsorted_sqrt_n": lambda x: tf.math.unsorted_segment_sqrt_n(x, [1, 0, 1, 1], 2),
    "map_fn": lambda x: tf.map_fn(lambda r: r * tf.reduce_sum(r), x),
    "scan": lambda x: tf.scan(lambda a, r: a * r + 1., x),
    "scan_reverse_init": lambda x: tf.scan(lambda a, r: tf.sin(a) + r, x, reverse=True,
                                           initializer=tf.ones([3], tf.float64)),
    "foldl": lambda x: tf.foldl(lambda a, r: a * r, x),
    "foldr": lambda x: tf.foldr(lambda a, r: a * 2. + r * r, x),
    "switch_case": lambda x: tf.switch_case(tf.constant(1), [lambda: x * 2., lambda: x * x]),
    "vectorized_map": lambda x: tf.vectorized_map(lambda r: tf.tanh(r), x),
    "repeat": lambda x: tf.repeat(x, [2, 0, 1, 3], axis=0),
    "reverse_sequence": lambda x: tf.reverse_sequence(x, [2, 3, 1, 0], seq_axis=1),
    # TensorFlow's own RFFT gradient fails when fft_length crops; this one crops and pads
    "rfft_crop": lambda x: tf.math.real(tf.signal.rfft(x, [2]) * tf.complex(
        tf.constant(1.5, tf.float64), tf.constant(-0.5, tf.float64))),
    "rfft_pad": lambda x: tf.math.imag(tf.signal.rfft(x, [6])),
    "irfft_pad": lambda x: tf.signal.irfft(tf.complex(x, x * x), [8]),
    "fft3d": lambda x: tf.abs(tf.signal.fft3d(tf.complex(tf.reshape(x, [2, 2, 3]), x[:1, :1]))),
    "complex_abs": lambda x: tf.abs(tf.complex(x, x - 1.)),
    "frame": lambda x: tf.signal.frame(x, 3, 2, pad_end=True),
}


def _max_error(f, x):
    theoretical, numerical = tf.test.compute_gradient(f, [x])
    return float(np.max(np.abs(theoretical[0] - numerical[0])))


@pytest.mark.parametrize("name", sorted(FUNCTIONS))
def test_eager_gradient_matches_finite_differences(name):
    assert _max_error(FUNCTIONS[name], X) < 1e-6


@pytest.mark.parametrize("name", sorted(FUNCTIONS))
def test_traced_gradient_matches_eager(name):
    f = FUNCTIONS[name]
    x = tf.constant(X)

    def grad(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = f(x)
        return tape.gradient(y, x)
    # a gradient through a gather is an IndexedSlices (as TensorFlow's): compare them dense
    eager = tf.convert_to_tensor(grad(x))
    traced = tf.convert_to_tensor(tf.function(grad)(x))
    np.testing.assert_allclose(traced.numpy(), eager.numpy(), rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("name", sorted(GRADIENT_CASES))
def test_ties_and_zeros_as_tensorflow(name):
    """Ties split the gradient evenly; a zero in a product gets the product of the others."""
    want = FIXTURE[f"gradient_{name}"]
    np.testing.assert_allclose(gradient_of(tf, GRADIENT_CASES[name]).numpy(), want, rtol=1e-6,
                               atol=1e-9)
    traced = tf.function(lambda: gradient_of(tf, GRADIENT_CASES[name]))()
    np.testing.assert_allclose(traced.numpy(), want, rtol=1e-6, atol=1e-9)
