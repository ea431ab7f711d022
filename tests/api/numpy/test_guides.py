"""The code of TensorFlow's guides "NumPy API on TensorFlow" and "TF-NumPy Type Promotion" runs
with `import tracegraph as tf` and `import tensorflow.experimental.numpy as tnp` (the alias
importer) and prints what TensorFlow 2.21 printed (`*.tf221.txt`, random values printed as shapes
and dtypes)."""

import pathlib
import subprocess
import sys

import pytest

HERE = pathlib.Path(__file__).parent
ROOT = HERE.parent.parent.parent
PRELUDE = ("import sys, tracegraph; sys.modules['tensorflow'] = tracegraph; "
           "import tracegraph.compat.importer as _i; _i.install()\n")


@pytest.mark.parametrize("guide", ["tf_numpy", "type_promotion"])
def test_guide_prints_what_tensorflow_prints(guide):
    source = (HERE / f"{guide}_guide.py").read_text()
    source = PRELUDE + source.replace("import tensorflow as tf", "import tracegraph as tf")
    done = subprocess.run([sys.executable, "-c", source], capture_output=True, text=True,
                          cwd=ROOT, timeout=300)
    assert done.returncode == 0, done.stderr
    want = (HERE / f"{guide}_guide.tf221.txt").read_text().splitlines()
    assert done.stdout.splitlines() == want
