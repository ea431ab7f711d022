"""TensorFlow's zero-gradient convention at singular points (issue 26 item 3): gradients of
singular_cases.py's functions plainly, scaled by 0 and masked by tf.where, to first and second
order, eagerly and in tf.function, against TensorFlow 2.21's numbers
(fixtures/tf221_singular_gradients.json, made by fixtures/make_singular_gradients.py)."""

from __future__ import annotations

import json
import pathlib

import numpy as np
import pytest

import tracegraph as tf

from . import singular_cases

TF221 = json.loads((pathlib.Path(__file__).parent / "fixtures" /
                    "tf221_singular_gradients.json").read_text())
# Deliberately different, and why.
DIFFERENT = {
    # tracegraph composes reduce_euclidean_norm from sqrt (whose gradient keeps the zero
    # convention); TensorFlow's EuclideanNorm rule divides x by norm/g: 0/(0/0), NaN
    "reduce_euclidean_norm[0]/zero": "composite", "reduce_euclidean_norm[0]/masked": "same",
    # TensorFlow's LeakyReluGrad rule returns zeros for the features input, so the second
    # derivative is 0; tracegraph's is None (no LeakyReluGrad op: its rule selects by a
    # comparison, which has no gradient)
    "leaky_relu[0]/plain2": "None for 0",
}
CASES = singular_cases.cases(tf)


def _expected(mode_table, key):
    return TF221[mode_table][key]


def _assert_same(got, want, key):
    if want is None or got is None or isinstance(want, str):
        if isinstance(want, str) and want.startswith("ERR"):
            return   # TensorFlow has no rule there (SoftsignGrad's gradient): any answer
        assert got == want, f"{key}: {got} (TensorFlow 2.21: {want})"
        return
    np.testing.assert_allclose(np.array([float(v) for v in got]),
                               np.array([float(v) for v in want]), rtol=1e-12, atol=0,
                               err_msg=key)


@pytest.mark.parametrize("name", sorted(CASES))
def test_gradients_at_singular_points_match_tensorflow(name):
    f, points = CASES[name]
    for traced, table in ((False, "eager"), (True, "traced")):
        for i, point in enumerate(points):
            for mode in singular_cases.MODES:
                key = f"{name}[{i}]/{mode}"
                if key in DIFFERENT:
                    continue
                got = singular_cases.run(tf, f, point, mode, traced)
                _assert_same(got, _expected(table, key), f"{key} ({table})")


def test_safe_sqrt_idiom_trains():
    # the masked branch's sqrt(x - 2) is NaN at x = 1, its gradient must not be
    w = tf.Variable([1.0, 4.0])
    opt = tf.optimizers.SGD(0.1)

    @tf.function
    def step():
        with tf.GradientTape() as tape:
            y = tf.reduce_sum(tf.where(w > 2.0, tf.sqrt(w - 2.0), w * w))
        g = tape.gradient(y, w)
        opt.apply_gradients([(g, w)])
        return g
    g = step()
    # TensorFlow 2.21: [2.0, 0.35355339]
    np.testing.assert_allclose(g.numpy(), [2.0, 0.5 / np.sqrt(2.0)], rtol=1e-6)
    assert np.all(np.isfinite(w.numpy()))


@pytest.mark.parametrize("traced", [False, True])
def test_zero_scaled_reduce_std_over_equal_values(traced):
    x = tf.Variable([3.0, 3.0, 3.0])

    def grad():
        with tf.GradientTape() as tape:
            y = tf.reduce_sum(x + 0.0 * tf.math.reduce_std(x))
        return tape.gradient(y, x)
    g = (tf.function(grad) if traced else grad)()
    np.testing.assert_array_equal(g.numpy(), [1.0, 1.0, 1.0])   # TensorFlow 2.21's


@pytest.mark.parametrize("traced", [False, True])
def test_cumprod_gradient_with_a_zero_element_is_finite(traced):
    x = tf.constant([2.0, 0.0, 3.0])

    def grad():
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.reduce_sum(tf.math.cumprod(x))
        return tape.gradient(y, x)
    g = (tf.function(grad) if traced else grad)()
    # TensorFlow 2.21 divides by x with div_no_nan: 0 at the zero, not the derivative 8
    np.testing.assert_array_equal(g.numpy(), [1.0, 0.0, 0.0])


def test_log_and_division_keep_nan_as_tensorflow():
    # TensorFlow's Log, RealDiv and Pow rules multiply by 1/x: 0 * inf stays NaN there
    x = tf.constant([0.0])
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        ys = [x + 0.0 * tf.math.log(x), x + 0.0 * (1.0 / x), x + 0.0 * tf.pow(x, 0.5)]
    for y in ys:
        assert np.isnan(tape.gradient(y, x).numpy()).all()
