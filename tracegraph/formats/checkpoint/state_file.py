"""The `checkpoint` state file of a checkpoint directory (TensorFlow's text format: the
latest checkpoint and all kept ones, by file name).

    model_checkpoint_path: "ckpt-3"
    all_model_checkpoint_paths: "ckpt-2"
    all_model_checkpoint_paths: "ckpt-3"
    all_model_checkpoint_timestamps: 1795555000.25
    all_model_checkpoint_timestamps: 1795555060.5
    last_preserved_timestamp: 1795554999.25

The timestamps (when each checkpoint's index was written) are what TensorFlow's
`CheckpointManager` needs to take the listed checkpoints as its own (to keep or delete them);
tracegraph ignores them when reading.

tracegraph ends the file with a comment TensorFlow's parser skips, the SHA-256 of the lines
above it (`# sha256 <64 hex digits>`); when present it must match, so a flipped bit cannot
silently name another checkpoint. Files TensorFlow wrote have none and are read as they are.
Reading accepts only file names inside the directory (or absolute paths of files directly in
it, as TF1's Saver writes them), so a hostile state file cannot make a
`CheckpointManager` read or delete files elsewhere; the file is opened as `safe_files` opens
every file (regular, inside the directory, bounded).
"""

from __future__ import annotations

import hashlib
import os
import re

from ..safe_files import atomic_write, read_bytes
from ..saved_data_error import SavedDataError

__all__ = ["read_state", "update_state", "latest_checkpoint", "STATE_FILE"]

STATE_FILE = "checkpoint"


_STATE_LINE = re.compile(r'^(model_checkpoint_path|all_model_checkpoint_paths): "([^"\\]*)"$')
# TensorFlow's CheckpointManager also records when each checkpoint was written
_TIME_LINE = re.compile(r"^(all_model_checkpoint_timestamps|last_preserved_timestamp): "
                        r"[0-9.eE+-]{1,40}$")
_CHECKSUM = re.compile(rb"# sha256 ([0-9a-f]{64})\n?")
MAX_STATE_BYTES = 1 << 20


def _verified_text(path: str, raw: bytes) -> str:
    """The lines above the checksum comment, checked; a file without one as it is."""
    start = raw.rfind(b"# sha256 ")
    if start != -1 or any(line.lstrip().startswith(b"#") for line in raw.split(b"\n")):
        m = _CHECKSUM.fullmatch(raw, start) if start != -1 else None
        if m is None or (start and raw[start - 1:start] != b"\n"):
            raise SavedDataError(path, "", "a comment that is not the checksum line "
                                 "`# sha256 <64 hex digits>` at the end of the file")
        if hashlib.sha256(raw[:start]).hexdigest() != m.group(1).decode():
            raise SavedDataError(path, "", "checksum mismatch: the file is corrupted or was "
                                 "modified")
        raw = raw[:start]
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as e:
        raise SavedDataError(path, "", f"cannot read ({e})") from None


def read_state(directory: str) -> tuple[str | None, list[str]]:
    path = os.path.join(directory, STATE_FILE)
    if not os.path.lexists(path):
        return None, []
    text = _verified_text(path, read_bytes(path, directory, MAX_STATE_BYTES))
    latest, all_paths = None, []
    for i, line in enumerate(text.splitlines()):
        if not line.strip() or _TIME_LINE.match(line.strip()):
            continue
        m = _STATE_LINE.match(line.strip())
        if m is not None and _in_directory(m.group(2), directory):
            m = _STATE_LINE.match(f'{m.group(1)}: "{os.path.basename(m.group(2))}"')
        if m is None or not m.group(2) or os.sep in m.group(2) or m.group(2) in (".", ".."):
            raise SavedDataError(path, f"line {i + 1}", "expected `model_checkpoint_path: "
                                 "\"NAME\"` with a file name in this directory")
        if m.group(1) == "model_checkpoint_path":
            latest = os.path.join(directory, m.group(2))
        else:
            all_paths.append(os.path.join(directory, m.group(2)))
    return latest, all_paths


def _in_directory(path: str, directory: str) -> bool:
    """An absolute path naming a file of `directory` itself (TF1's Saver writes those)."""
    return os.path.isabs(path) and os.path.realpath(os.path.dirname(path)) == \
        os.path.realpath(directory)


def update_state(directory: str, latest: str, all_paths: list | None) -> None:
    if all_paths is None:
        _, all_paths = read_state(directory)
        all_paths = [p for p in all_paths if p != latest] + [latest]
    lines = [f'model_checkpoint_path: "{os.path.basename(latest)}"']
    lines += [f'all_model_checkpoint_paths: "{os.path.basename(p)}"' for p in all_paths]
    times = [_written_at(p) for p in all_paths]
    if all(t is not None for t in times) and times:
        lines += [f"all_model_checkpoint_timestamps: {t!r}" for t in times]
        lines.append(f"last_preserved_timestamp: {min(times) - 1.0!r}")

    text = ("\n".join(lines) + "\n").encode("utf-8")
    text += f"# sha256 {hashlib.sha256(text).hexdigest()}\n".encode()

    def write(tmp):
        with open(tmp, "wb") as f:
            f.write(text)
    atomic_write(os.path.join(directory, STATE_FILE), write)


def _written_at(prefix: str) -> float | None:
    try:
        return os.path.getmtime(f"{prefix}.index")
    except OSError:
        return None


def latest_checkpoint(checkpoint_dir, latest_filename=None):
    """The newest checkpoint prefix recorded in `checkpoint_dir`, or None."""
    latest, _ = read_state(os.fspath(checkpoint_dir))
    if latest is None or not os.path.lexists(f"{latest}.index"):
        return None
    return latest
