"""`tf.train.CheckpointManager`: numbered checkpoints of one `tf.train.Checkpoint` in a
directory, the newest `max_to_keep` kept, listed in the directory's `checkpoint` state file.
`format="tensorflow"` (tracegraph's extension) writes them in TensorFlow's checkpoint format."""

from __future__ import annotations

import os

from .checkpoint import Checkpoint, data_path
from .state_file import read_state, update_state

__all__ = ["CheckpointManager"]


class CheckpointManager:
    """`tf.train.CheckpointManager`: numbered checkpoints in a directory, keeping the newest
    `max_to_keep` (None keeps all)."""

    def __init__(self, checkpoint: Checkpoint, directory, max_to_keep,
                 keep_checkpoint_every_n_hours=None, checkpoint_name: str = "ckpt",
                 step_counter=None, checkpoint_interval=None, init_fn=None,
                 format=None):  # noqa: A002
        if format not in (None, "tracegraph", "tensorflow"):
            raise ValueError(f"format must be 'tracegraph' (the default) or 'tensorflow', got "
                             f"{format!r}.")
        self._format = format
        if max_to_keep is not None and max_to_keep <= 0:
            raise ValueError(f"Expected a positive integer or `None` for `max_to_keep`, got "
                             f"{max_to_keep}.")
        self._checkpoint = checkpoint
        self._directory = os.fspath(directory)
        self._max_to_keep = max_to_keep
        self._prefix = os.path.join(self._directory, checkpoint_name)
        latest, paths = read_state(self._directory)
        self._checkpoints = [p for p in paths if os.path.isfile(f"{p}.index")]
        self._latest = latest if latest in self._checkpoints else (
            self._checkpoints[-1] if self._checkpoints else None)

    @property
    def directory(self) -> str:
        return self._directory

    @property
    def checkpoints(self) -> list[str]:
        return list(self._checkpoints)

    @property
    def latest_checkpoint(self):
        return self._latest

    @property
    def checkpoint(self) -> Checkpoint:
        return self._checkpoint

    def save(self, checkpoint_number=None, check_interval=True, options=None) -> str:
        ckpt = self._checkpoint
        ckpt.save_counter.assign_add(1)
        number = int(ckpt.save_counter.numpy()) if checkpoint_number is None else \
            int(checkpoint_number)
        path = ckpt.write(f"{self._prefix}-{number}", format=self._format)
        self._checkpoints = [p for p in self._checkpoints if p != path] + [path]
        while self._max_to_keep is not None and len(self._checkpoints) > self._max_to_keep:
            old = self._checkpoints.pop(0)
            for f in (f"{old}.index", data_path(old)):
                if os.path.isfile(f):
                    os.remove(f)
        self._latest = path
        update_state(self._directory, path, self._checkpoints)
        return path

    def restore_or_initialize(self):
        if self._latest is not None:
            self._checkpoint.restore(self._latest)
            return self._latest
        return None
