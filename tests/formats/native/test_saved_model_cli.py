"""`python -m tracegraph.saved_model show|run` (the role of saved_model_cli)."""

import io
import subprocess
import sys

import numpy as np

import tracegraph as tf
from tracegraph.formats.native.saved_model_cli import main

from .fresh import ROOT


class Model:
    def __init__(self):
        self.w = tf.Variable([[1.0, 2.0], [3.0, 4.0]], name="w")

    @tf.function(input_signature=[tf.TensorSpec([None, 2], tf.float32, name="x")])
    def __call__(self, x):
        return {"y": tf.matmul(x, self.w), "total": tf.reduce_sum(x)}


def _saved(tmp_path):
    tf.saved_model.save(Model(), str(tmp_path / "m"))
    return str(tmp_path / "m")


def test_show_prints_signatures(tmp_path):
    out = io.StringIO()
    assert main(["show", "--dir", _saved(tmp_path)], out) == 0
    text = out.getvalue()
    assert "signature_def['serving_default']:" in text
    assert "inputs['x'] tensor_info:\n        dtype: float32\n        shape: (None, 2)" in text
    assert "outputs['y'] tensor_info:\n        dtype: float32\n        shape: (None, 2)" in text


def test_show_all_lists_functions_and_variables(tmp_path):
    out = io.StringIO()
    assert main(["show", "--dir", _saved(tmp_path), "--all"], out) == 0
    assert "Function Name: '__call__'" in out.getvalue()
    assert "w:0: float32 (2, 2)" in out.getvalue()


def test_run_in_a_subprocess(tmp_path):
    directory = _saved(tmp_path)
    np.save(tmp_path / "x.npy", np.array([[1.0, 1.0]], np.float32))
    proc = subprocess.run([sys.executable, "-m", "tracegraph.saved_model", "run", "--dir",
                           directory, "--signature", "serving_default", "--input",
                           f"x={tmp_path / 'x.npy'}"], capture_output=True, text=True,
                          cwd=ROOT, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert "y:\narray([[4., 6.]], dtype=float32)" in proc.stdout
    assert "total:\narray(2., dtype=float32)" in proc.stdout


def test_run_refuses_pickled_inputs_and_bad_directories(tmp_path, capsys):
    directory = _saved(tmp_path)
    np.save(tmp_path / "obj.npy", np.array([{"a": 1}], dtype=object), allow_pickle=True)
    assert main(["run", "--dir", directory, "--input", f"x={tmp_path / 'obj.npy'}"]) == 1
    assert "allow_pickle" in capsys.readouterr().err
    assert main(["show", "--dir", str(tmp_path / "missing")]) == 1
    assert "no such directory" in capsys.readouterr().err
