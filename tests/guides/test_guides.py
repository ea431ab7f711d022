"""The code of TensorFlow's guides "Introduction to tensors", "Introduction to variables" and
"TensorFlow basics" (outside Keras, tf.data, GradientTape and tf.Module, which other issues
cover) prints what TensorFlow 2.21 printed (issue 14, done-when); so do "Random number
generation" (issue 24), random values included (TensorFlow's Philox numbers), and "TF1.x vs
TF2: Behaviors and APIs" (issue 24: TF1 graphs, sessions, iterators, tensor equality) and
"Introduction to tensor slicing" (issue 24: gather, scatter, tensor_scatter_nd_*).

`*_guide.tf221.txt` is the guide run under TensorFlow 2.21 (`import tensorflow as tf`). The
comparison is exact except for two documented differences: TensorFlow's eager error prefix
`{{function_node __wrapped__<Op>_device_/job:...}} ` (a detail of its runtime), and float32
results of transcendental functions (softmax) that TensorFlow's vectorized `exp` rounds
differently in the last digit (relative difference below 1e-6).
"""

import pathlib
import re
import subprocess
import sys

import pytest

HERE = pathlib.Path(__file__).parent
ROOT = HERE.parent.parent
NUMBER = re.compile(r"-?\d+\.\d*(?:e[+-]?\d+)?|-?\d+(?:e[+-]?\d+)?")
RUNTIME_PREFIX = re.compile(r"\{\{function_node [^}]*\}\} ")


def _run_with_tracegraph(path: pathlib.Path) -> str:
    source = path.read_text().replace("import tensorflow as tf", "import tracegraph as tf")
    done = subprocess.run([sys.executable, "-c", source], capture_output=True, text=True,
                          cwd=ROOT, timeout=120)
    assert done.returncode == 0, done.stderr
    return done.stdout


def _same_line(want: str, got: str) -> bool:
    if want == got:
        return True
    # NumPy pads columns to the widest number: spacing may differ with the last digit.
    if re.sub(r"\s+", "", NUMBER.sub("#", want)) != re.sub(r"\s+", "", NUMBER.sub("#", got)):
        return False
    for a, b in zip(NUMBER.findall(want), NUMBER.findall(got)):
        x, y = float(a), float(b)
        if abs(x - y) > 1e-6 * max(abs(x), abs(y)):
            return False
    return True


@pytest.mark.parametrize("guide", ["tensor", "variable", "basics", "random", "tf1_vs_tf2",
                                   "tensor_slicing"])
def test_guide_prints_what_tensorflow_prints(guide):
    want = RUNTIME_PREFIX.sub("", (HERE / f"{guide}_guide.tf221.txt").read_text()).splitlines()
    got = _run_with_tracegraph(HERE / f"{guide}_guide.py").splitlines()
    assert len(got) == len(want), "\n".join(got)
    for i, (w, g) in enumerate(zip(want, got)):
        assert _same_line(w, g), f"line {i + 1}:\n  TensorFlow: {w}\n  tracegraph: {g}"
