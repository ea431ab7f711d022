"""Live against TensorFlow 2.21 in its own environment (skipped without one): the fixture of
TensorFlow's random numbers is what TensorFlow computes now, and a SavedModel TensorFlow wrote
with stateless draws and a tf.random.Generator runs on tracegraph to TensorFlow's values."""

import pathlib
import subprocess

import numpy as np
import pytest

import tracegraph as tf
from tests.formats.tensorflow.fixtures_util import needs_tf, tf_python

HERE = pathlib.Path(__file__).parent


@pytest.fixture(scope="module")
def live(tmp_path_factory):
    work = tmp_path_factory.mktemp("random_live")
    done = subprocess.run([tf_python(), str(HERE / "random_live_tf.py"), str(work)],
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    return work


@needs_tf
def test_the_fixture_is_what_tensorflow_computes(live):
    now = np.load(live / "cases.npz")
    stored = np.load(HERE / "fixtures" / "tf_random.npz")
    assert sorted(now.files) == sorted(stored.files)
    same_threads = now["threads/cpu_threads"] == stored["threads/cpu_threads"]
    for key in stored.files:   # categorical splits its batch by TensorFlow's thread count
        if same_threads or not key.startswith(("threads/", "categorical_and_seeds/cat_")):
            np.testing.assert_array_equal(now[key], stored[key], err_msg=key)


@needs_tf
def test_tensorflows_saved_model_draws_tensorflows_numbers(live):
    want = np.load(live / "expected.npz")
    loaded = tf.saved_model.load(str(live / "saved_model"))
    for i, value in enumerate(loaded.stateless(tf.constant([4, 5]))):
        np.testing.assert_array_equal(value.numpy(), want[f"stateless{i}"])
    for call in range(2):
        for i, value in enumerate(loaded.draw()):
            np.testing.assert_array_equal(value.numpy(), want[f"draw{call}_{i}"])
