"""TensorFlow's guides on gradients ("Introduction to gradients and automatic differentiation",
"Advanced automatic differentiation"), run with tracegraph: each prints what TensorFlow 2.21
printed for the same file (recorded in `guides/NAME.out`)."""

from __future__ import annotations

import pathlib
import sys

import pytest

from tests.framework.test_guides import run_guide

GUIDES = pathlib.Path(__file__).parent / "guides"


@pytest.mark.parametrize("name", sorted(p.stem for p in GUIDES.glob("*.py")))
def test_guide_prints_what_tensorflow_prints(name, monkeypatch):
    monkeypatch.setattr(sys, "argv", [name])
    expected = (GUIDES / f"{name}.out").read_text()
    assert run_guide(GUIDES / f"{name}.py") == expected
