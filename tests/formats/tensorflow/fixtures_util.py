"""Shared by the tests of TensorFlow's formats: where the TensorFlow-written fixtures are, their
stored outputs, copies to damage, and the Python that has TensorFlow (for live tests).

TensorFlow is found through TRACEGRAPH_TF_PYTHON (as tests/export/test_tensorflow_interop.py
does), else ~/.cache/tracegraph-tf221/bin/python if it exists; live tests skip without one.
"""

import os
import pathlib
import shutil

import numpy as np
import pytest

FIXTURES = pathlib.Path(__file__).with_name("fixtures")
SAVED_MODELS = ["mlp", "cnn", "lstm", "attention", "loop_cond", "keras_export"]
_DEFAULT_TF = pathlib.Path.home() / ".cache" / "tracegraph-tf221" / "bin" / "python"


def tf_python() -> str | None:
    path = os.environ.get("TRACEGRAPH_TF_PYTHON")
    if path:
        return path
    return str(_DEFAULT_TF) if _DEFAULT_TF.exists() else None


needs_tf = pytest.mark.skipif(tf_python() is None, reason="no Python with TensorFlow: set "
                              "TRACEGRAPH_TF_PYTHON to run the live TensorFlow tests")


def expected_calls(name: str) -> dict:
    """call -> (inputs, outputs) as make_fixtures.py stored them, in the order made."""
    stored = np.load(FIXTURES / name / "expected.npz", allow_pickle=False)
    calls: dict = {}
    for key in stored.files:
        call, io, item = key.split("|")
        calls.setdefault(call, ({}, {}))[0 if io == "in" else 1][item] = stored[key]
    return calls


def copy_fixture(name: str, tmp_path) -> pathlib.Path:
    target = tmp_path / name
    shutil.copytree(FIXTURES / name, target)
    return target
