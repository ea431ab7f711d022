"""A real model on real data: scikit-learn's handwritten digits (the dev extra), trained with
fit, measured with evaluate and predict on 360 held-out images, against the accuracy the same
code reaches on TensorFlow 2.21 + the same Keras (fixtures/reference.npz). The batches are
shuffled (tf.random.shuffle draws tracegraph's own order), so the two runs agree within noise,
not digit for digit."""

import pathlib

import numpy as np
import pytest

import tracegraph as tf

from . import workload

pytest.importorskip("sklearn", reason="the digits come with scikit-learn (the dev extra)")
REF = np.load(pathlib.Path(__file__).parent / "fixtures" / "reference.npz")


def _check(kind):
    got = workload.digits_run(tf.keras, kind)
    tensorflow = float(REF[f"digits/{kind}/evaluate_accuracy"])
    assert got["evaluate_accuracy"] >= 0.95, got
    assert got["predict_accuracy"] == pytest.approx(got["evaluate_accuracy"], abs=1e-6)
    assert abs(got["evaluate_accuracy"] - tensorflow) <= 0.03, (got, tensorflow)
    assert got["val_accuracy"][-1] > got["val_accuracy"][0]


def test_mlp_learns_the_digits_as_on_tensorflow(keras):
    _check("mlp")   # 12 epochs: ~97% on TensorFlow (96.9%) as here


@pytest.mark.slow
def test_cnn_learns_the_digits_as_on_tensorflow(keras):
    _check("cnn")   # 97.8% on TensorFlow
