"""`.keras` files between Keras on TensorFlow 2.21 and Keras on tracegraph, both ways, live
(slow; TensorFlow's Python from TRACEGRAPH_TF_PYTHON or ~/.cache/tracegraph-tf221): a model
trained and saved by one loads in the other, predicts the same and keeps its optimizer state."""

import os
import pathlib
import subprocess

import numpy as np
import pytest

import tracegraph as tf

from . import workload

pytestmark = pytest.mark.slow
SCRIPT = pathlib.Path(__file__).parent / "fixtures" / "interchange.py"
TF_PYTHON = pathlib.Path(os.environ.get(
    "TRACEGRAPH_TF_PYTHON", pathlib.Path.home() / ".cache" / "tracegraph-tf221" / "bin" /
    "python"))
STEPS = 4   # one epoch of 32 samples in batches of 8


def _tensorflow(*args):
    if not TF_PYTHON.exists():
        pytest.skip(f"no TensorFlow Python at {TF_PYTHON} (set TRACEGRAPH_TF_PYTHON)")
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "KERAS_BACKEND")}
    env["TF_CPP_MIN_LOG_LEVEL"] = "3"
    done = subprocess.run([str(TF_PYTHON), str(SCRIPT), *map(str, args)], env=env,
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]


def _skip_unless_supported(name):
    if workload.INTERCHANGE[name][2] == "conv" and not hasattr(tf.nn, "convolution"):
        pytest.skip("needs tf.nn.convolution (N-D convolution; branch api-nn)")


@pytest.mark.parametrize("name", sorted(workload.INTERCHANGE))
def test_saved_by_tracegraph_loads_on_tensorflow(keras, name, tmp_path):
    _skip_unless_supported(name)
    path = tmp_path / f"{name}.keras"
    ours = workload.interchange_save(keras, name, path)
    _tensorflow("load", name, path, tmp_path / "tf.npy")
    np.testing.assert_allclose(np.load(tmp_path / "tf.npy"), ours, rtol=1e-5, atol=1e-6)
    assert int(np.load(tmp_path / "tf.npy.steps.npy")) == STEPS


@pytest.mark.parametrize("name", sorted(workload.INTERCHANGE))
def test_saved_by_tensorflow_loads_on_tracegraph(keras, name, tmp_path):
    _skip_unless_supported(name)
    path = tmp_path / f"{name}.keras"
    _tensorflow("save", name, path, tmp_path / "tf.npy")
    ours, steps = workload.interchange_load(keras, name, path)
    np.testing.assert_allclose(ours, np.load(tmp_path / "tf.npy"), rtol=1e-5, atol=1e-6)
    assert steps == STEPS
