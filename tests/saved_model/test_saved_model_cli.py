"""`python -m tracegraph.saved_model show|run` (the role of saved_model_cli)."""

import io
import subprocess
import sys

import numpy as np

import tracegraph as tf
from tests.formats.native.fresh import ROOT
from tracegraph.formats.native.saved_model_cli import main


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
    assert proc.stdout == ("Result for output key total:\n2.0\n"      # saved_model_cli's
                           "Result for output key y:\n[[4. 6.]]\n")


def test_run_refuses_pickled_inputs_and_bad_directories(tmp_path, capsys):
    directory = _saved(tmp_path)
    np.save(tmp_path / "obj.npy", np.array([{"a": 1}], dtype=object), allow_pickle=True)
    assert main(["run", "--dir", directory, "--input", f"x={tmp_path / 'obj.npy'}"]) == 1
    assert "allow_pickle" in capsys.readouterr().err
    assert main(["show", "--dir", str(tmp_path / "missing")]) == 1
    assert "no such directory" in capsys.readouterr().err


# ---- TensorFlow's saved_model_cli flags (issue 26 item 22); outputs as saved_model_cli prints

def test_show_with_tensorflows_flags(tmp_path):
    directory = _saved(tmp_path)
    out = io.StringIO()
    assert main(["show", "--dir", directory], out) == 0
    assert out.getvalue().startswith("The given SavedModel contains the following tag-sets:\n"
                                     "'serve'\n")
    out = io.StringIO()
    assert main(["show", "--dir", directory, "--tag_set", "serve"], out) == 0
    assert out.getvalue() == ("The given SavedModel MetaGraphDef contains SignatureDefs with "
                              "the following keys:\nSignatureDef key: \"serving_default\"\n")
    out = io.StringIO()
    assert main(["show", "--dir", directory, "--tag_set", "serve", "--signature_def",
                 "serving_default"], out) == 0
    text = out.getvalue()
    assert text.startswith("The given SavedModel SignatureDef contains the following input(s):")
    assert "  inputs['x'] tensor_info:\n      dtype: float32\n      shape: (None, 2)" in text
    assert "  outputs['total'] tensor_info:" in text and "signature_def[" not in text
    assert text.endswith("Method name is: tensorflow/serving/predict\n")
    out = io.StringIO()
    assert main(["show", "--dir", directory, "--tag_set", "serve", "--list_ops"], out) == 0
    assert out.getvalue().startswith("The MetaGraph with tag set ['serve'] contains the "
                                     "following ops: {'Const', 'Identity', 'MatMul', ")


def test_show_refuses_a_tag_set_the_model_does_not_have(tmp_path, capsys):
    assert main(["show", "--dir", _saved(tmp_path), "--tag_set", "gpu"]) == 1
    assert ("MetaGraphDef associated with tag-set gpu could not be found in the SavedModel. "
            "Please use one of the following tag-sets: ['serve']") in capsys.readouterr().err
    assert main(["show", "--dir", _saved(tmp_path), "--tag_set", "serve",
                 "--signature_def", "nope"]) == 1
    assert 'Could not find signature "nope". Please choose from: serving_default' in \
        capsys.readouterr().err


def test_run_with_tensorflows_flags(tmp_path, capsys):
    directory = _saved(tmp_path)
    np.savez(tmp_path / "xs.npz", a=np.array([[1.0, 1.0]], np.float32),
             b=np.array([[0.0, 2.0]], np.float32))
    out = io.StringIO()
    assert main(["run", "--dir", directory, "--tag_set", "serve", "--signature_def",
                 "serving_default", "--inputs", f"x={tmp_path / 'xs.npz'}[b]",
                 "--outdir", str(tmp_path / "out")], out) == 0
    assert out.getvalue() == (
        "Result for output key total:\n2.0\n"
        f"Output total is saved to {tmp_path / 'out' / 'total.npy'}\n"
        "Result for output key y:\n[[6. 8.]]\n"
        f"Output y is saved to {tmp_path / 'out' / 'y.npy'}\n")
    np.testing.assert_array_equal(np.load(tmp_path / "out" / "y.npy"), [[6.0, 8.0]])
    # an existing output without --overwrite is an error, as in TensorFlow
    assert main(["run", "--dir", directory, "--tag_set", "serve", "--signature_def",
                 "serving_default", "--input_exprs", "x=[[1.0, 1.0]]", "--outdir",
                 str(tmp_path / "out")], io.StringIO()) == 1
    assert "already exists. Add \"--overwrite\"" in capsys.readouterr().err
    out = io.StringIO()
    assert main(["run", "--dir", directory, "--tag_set", "serve", "--signature_def",
                 "serving_default", "--input_exprs", "x=[[1.0, 1.0]]", "--outdir",
                 str(tmp_path / "out"), "--overwrite"], out) == 0
    assert "Result for output key y:\n[[4. 6.]]\n" in out.getvalue()
    np.testing.assert_array_equal(np.load(tmp_path / "out" / "y.npy"), [[4.0, 6.0]])


def test_run_input_errors_as_tensorflow(tmp_path, capsys):
    directory = _saved(tmp_path)
    np.savez(tmp_path / "two.npz", a=np.ones([1, 2], np.float32), b=np.ones([1, 2], np.float32))
    cases = [
        (["--inputs", f"x={tmp_path / 'two.npz'}"], "contains more than one ndarrays"),
        (["--inputs", f"x={tmp_path / 'two.npz'}[c]"], 'does not contain variable with name "c"'),
        (["--inputs", "x"], "format is incorrect"),
        (["--input_exprs", "x=np.ones((1, 2))"], "is not a valid python literal"),
        (["--input_exprs", "z=[[1.0, 1.0]]"], '"z" is not a valid input key'),
        ([], "At least one of --inputs, --input_exprs or --input_examples must be required"),
    ]
    for flags, message in cases:
        assert main(["run", "--dir", directory, "--tag_set", "serve", "--signature_def",
                     "serving_default", *flags], io.StringIO()) == 1, flags
        assert message in capsys.readouterr().err, flags
