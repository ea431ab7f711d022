"""The `checkpoint` state file of a checkpoint directory (TensorFlow's text format: the
latest checkpoint and all kept ones, by file name).

    model_checkpoint_path: "ckpt-3"
    all_model_checkpoint_paths: "ckpt-2"
    all_model_checkpoint_paths: "ckpt-3"

Reading accepts only file names inside the directory, so a hostile state file cannot make a
`CheckpointManager` read or delete files elsewhere.
"""

from __future__ import annotations

import os
import re

from ..safe_files import atomic_write
from ..saved_data_error import SavedDataError

__all__ = ["read_state", "update_state", "latest_checkpoint", "STATE_FILE"]

STATE_FILE = "checkpoint"


_STATE_LINE = re.compile(r'^(model_checkpoint_path|all_model_checkpoint_paths): "([^"\\]*)"$')
# TensorFlow's CheckpointManager also records when each checkpoint was written
_TIME_LINE = re.compile(r"^(all_model_checkpoint_timestamps|last_preserved_timestamp): "
                        r"[0-9.eE+-]{1,40}$")


def read_state(directory: str) -> tuple[str | None, list[str]]:
    path = os.path.join(directory, STATE_FILE)
    if not os.path.isfile(path):
        return None, []
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read(1 << 20)
    except (OSError, UnicodeDecodeError) as e:
        raise SavedDataError(path, "", f"cannot read ({e})") from None
    latest, all_paths = None, []
    for i, line in enumerate(text.splitlines()):
        if not line.strip() or _TIME_LINE.match(line.strip()):
            continue
        m = _STATE_LINE.match(line.strip())
        if m is None or not m.group(2) or os.sep in m.group(2) or m.group(2) in (".", ".."):
            raise SavedDataError(path, f"line {i + 1}", "expected `model_checkpoint_path: "
                                 "\"NAME\"` with a file name in this directory")
        if m.group(1) == "model_checkpoint_path":
            latest = os.path.join(directory, m.group(2))
        else:
            all_paths.append(os.path.join(directory, m.group(2)))
    return latest, all_paths


def update_state(directory: str, latest: str, all_paths: list | None) -> None:
    if all_paths is None:
        _, all_paths = read_state(directory)
        all_paths = [p for p in all_paths if p != latest] + [latest]
    lines = [f'model_checkpoint_path: "{os.path.basename(latest)}"']
    lines += [f'all_model_checkpoint_paths: "{os.path.basename(p)}"' for p in all_paths]

    def write(tmp):
        with open(tmp, "w", encoding="utf-8") as f:
            f.write("\n".join(lines) + "\n")
    atomic_write(os.path.join(directory, STATE_FILE), write)


def latest_checkpoint(checkpoint_dir, latest_filename=None):
    """The newest checkpoint prefix recorded in `checkpoint_dir`, or None."""
    latest, _ = read_state(os.fspath(checkpoint_dir))
    if latest is None or not os.path.isfile(f"{latest}.index"):
        return None
    return latest
