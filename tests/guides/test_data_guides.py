"""The code of TensorFlow's guides "tf.data: Build TensorFlow input pipelines" and "Better
performance with the tf.data API" prints what TensorFlow 2.21 printed (issue 21, done-when).

`*_guide.tf221.txt` is the script run under TensorFlow 2.21 (`import tensorflow as tf`; each
script's header says how it adapts the guide: data made instead of downloaded, printing
what does not depend on random draws). The comparison is exact except for two documented
differences: a class's module path (`<class '...SparseTensor'>` names TensorFlow's module),
and, in the performance guide, the measured execution times.
"""

import pathlib
import re

import pytest

from tests.guides.test_guides import _run_with_tracegraph, _same_line

HERE = pathlib.Path(__file__).parent
CLASS_PATH = re.compile(r"<class '[\w.]+\.(\w+)'>")
SECONDS = re.compile(r"Execution time: [0-9.e-]+")


def _normalized(text: str) -> list[str]:
    return SECONDS.sub("Execution time: <s>", CLASS_PATH.sub(r"<class '\1'>", text)).splitlines()


@pytest.mark.parametrize("guide", [
    "data",
    "tfrecord",   # tutorials/load_data/tfrecord: tf.train.Example, TFRecord files, parsing
    pytest.param("data_performance", marks=pytest.mark.slow),   # 25 s of sleeps
])
def test_data_guide_prints_what_tensorflow_prints(guide):
    want = _normalized((HERE / f"{guide}_guide.tf221.txt").read_text())
    got = _normalized(_run_with_tracegraph(HERE / f"{guide}_guide.py"))
    assert len(got) == len(want), "\n".join(got)
    for i, (w, g) in enumerate(zip(want, got)):
        assert _same_line(w, g), f"line {i + 1}:\n  TensorFlow: {w}\n  tracegraph: {g}"
