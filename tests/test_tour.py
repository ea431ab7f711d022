"""examples/tour.py (issue 26, item 18): its TensorBoard section writes the loss and weight
summaries it says it writes (read back with TensorBoard's own reader), and the tour writes only
into one directory, a temporary one it removes unless a directory is named."""

import importlib.util
import pathlib
import re
import subprocess
import sys

import pytest

TOUR = pathlib.Path(__file__).resolve().parent.parent / "examples" / "tour.py"


def _tour():
    spec = importlib.util.spec_from_file_location("tour", TOUR)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_tensorboard_section_writes_and_checks_its_summaries(tmp_path, capsys,
                                                                 monkeypatch):
    pytest.importorskip("tensorboard")
    monkeypatch.chdir(tmp_path)
    _tour().tensorboard_and_images(tmp_path / "out" / "logs", keep=False)
    out = capsys.readouterr().out
    assert "50 loss scalars (steps 0-49), 50 histograms of w, the graph of train_step" in out
    assert "tensorboard --logdir" not in out          # not kept: nothing to view later
    assert [p.name for p in tmp_path.iterdir()] == ["out"]   # nothing in the working directory


@pytest.mark.slow
def test_the_tour_writes_into_one_directory_and_cleans_up(tmp_path):
    cwd = tmp_path / "cwd"
    cwd.mkdir()
    run = subprocess.run([sys.executable, str(TOUR)], cwd=cwd, capture_output=True, text=True,
                         timeout=600, check=True).stdout
    where = pathlib.Path(re.search(r"under (\S+) \(removed at the end", run).group(1))
    assert not where.exists() and f"removed {where}" in run
    assert list(cwd.iterdir()) == []
    assert re.search(r"fold: MatMul_1 = MatMul\(MatMul, Const\) -> constant float32\[500,500\]",
                     run)
    kept = tmp_path / "kept"
    subprocess.run([sys.executable, str(TOUR), str(kept)], cwd=cwd, capture_output=True,
                   text=True, timeout=600, check=True)
    assert (kept / "saved_model").is_dir() and any((kept / "logs").iterdir())
    assert list(cwd.iterdir()) == []
