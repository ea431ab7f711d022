"""Counting, ranking, embeddings, normalization statistics, losses, activations and space/depth
blocks against the values and gradients TensorFlow 2.21 computes (fixtures/nn_extras.npz, made
by fixtures/make_case_fixtures.py from the cases in nn_extras_cases.py), eagerly and in
tf.function; IndexedSlices gradients of embeddings; the graphs' op types; errors."""

import pathlib

import numpy as np
import pytest

import tracegraph as tf

from .nn_extras_cases import CASES
from .oracle import raises

REFERENCE = np.load(pathlib.Path(__file__).with_name("fixtures") / "nn_extras.npz")
VALUE_CASES = sorted(n for n in CASES if f"{n}/error" not in REFERENCE)


def _upstream(shape):
    return np.random.default_rng(11).standard_normal(shape).astype(np.float32)


def _run(fn, upstream, xs, differentiate):
    with tf.GradientTape() as tape:
        tape.watch(xs)
        out = fn(tf, *xs)
        outs = list(out) if isinstance(out, (tuple, list)) else [out]
        loss = tf.reduce_sum(tf.cast(outs[0], tf.float32) * upstream)
    floats = [x for x in xs if x.dtype.is_floating] if differentiate else []
    grads = iter(tape.gradient(loss, floats) if floats else [])
    return outs, [next(grads) if x.dtype.is_floating and differentiate else None for x in xs]


@pytest.mark.parametrize("name", VALUE_CASES)
@pytest.mark.parametrize("mode", ["eager", "function"])
def test_matches_tensorflow(name, mode):
    fn, inputs = CASES[name]
    upstream = _upstream(REFERENCE[f"{name}/out0"].shape)
    differentiate = f"{name}/grad_error" not in REFERENCE
    run = _run if mode == "eager" else tf.function(_run)
    outs, grads = run(fn, upstream, [tf.constant(x) for x in inputs], differentiate)
    for i, out in enumerate(outs):
        want = REFERENCE[f"{name}/out{i}"]
        assert out.dtype.as_numpy_dtype == want.dtype, (out.dtype, want.dtype)
        assert out.shape.as_list() == list(want.shape)
        tol = 1e-3 if want.dtype == np.float16 else 1e-5
        np.testing.assert_allclose(out.numpy(), want, rtol=tol, atol=tol)
    for i, g in enumerate(grads):
        key = f"{name}/grad{i}"
        if key in REFERENCE:
            np.testing.assert_allclose(tf.convert_to_tensor(g).numpy(), REFERENCE[key],
                                       rtol=1e-4, atol=1e-5)
        else:
            assert g is None, key
