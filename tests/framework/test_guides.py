"""TensorFlow's guides on modules and training loops, run with tracegraph: each prints what
TensorFlow 2.21 printed for the same file (recorded in `guides/NAME.out`). The gradient
guides are in tests/autodiff."""

from __future__ import annotations

import contextlib
import io
import pathlib
import runpy
import sys

import pytest

GUIDES = pathlib.Path(__file__).parent / "guides"


def run_guide(path: pathlib.Path) -> str:
    """What running the guide at `path` with `import tracegraph as tf` prints."""
    source = path.read_text().replace("import tensorflow as tf", "import tracegraph as tf")
    script = path.with_name(f"_tg_{path.name}")
    script.write_text(source)
    out = io.StringIO()
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
            runpy.run_path(str(script), run_name="__main__")
    finally:
        script.unlink()
    return out.getvalue()


@pytest.mark.parametrize("name", sorted(p.stem for p in GUIDES.glob("*.py")))
def test_guide_prints_what_tensorflow_prints(name, monkeypatch):
    monkeypatch.setattr(sys, "argv", [name])
    expected = (GUIDES / f"{name}.out").read_text()
    assert run_guide(GUIDES / f"{name}.py") == expected
