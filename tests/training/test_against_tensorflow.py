"""Every optimizer, trained 20 steps eagerly and inside tf.function, ends where TensorFlow 2.21
ends (`reference.json`, made by `make_reference.py` with the same workload code)."""

import json
import pathlib

import numpy as np
import pytest

import tracegraph as tf

from . import workload

REFERENCE = json.loads(pathlib.Path(__file__).with_name("reference.json").read_text())


@pytest.mark.parametrize("in_function", [False, True], ids=["eager", "function"])
@pytest.mark.parametrize("key", sorted(workload.CONFIGS))
def test_matches_tensorflow(key, in_function):
    w, b = workload.train(tf, workload.CONFIGS[key], in_function)
    expected = REFERENCE["results"][key]
    np.testing.assert_allclose(w.ravel(), expected["w"], rtol=2e-5, atol=2e-5)
    np.testing.assert_allclose(b.ravel(), expected["b"], rtol=2e-5, atol=2e-5)


def test_the_reference_covers_every_workload():
    assert set(REFERENCE["results"]) == set(workload.CONFIGS)
    assert REFERENCE["steps"] == workload.STEPS


@pytest.mark.parametrize("in_function", [False, True], ids=["eager", "function"])
@pytest.mark.parametrize("key", ["sgd_momentum", "adam", "adamw", "rmsprop", "adagrad",
                                 "adam_global_clipnorm", "sgd_cosine_warmup"])
def test_with_gradient_tape_matches_tensorflow(key, in_function):
    """Gradients from tf.GradientTape instead of the written-out formula: the same end point
    (the two gradients differ only in float32 rounding)."""
    w, b = workload.train_with_tape(tf, workload.CONFIGS[key], in_function)
    expected = REFERENCE["results"][key]
    np.testing.assert_allclose(w.ravel(), expected["w"], rtol=1e-4, atol=1e-4)
    np.testing.assert_allclose(b.ravel(), expected["b"], rtol=1e-4, atol=1e-4)
