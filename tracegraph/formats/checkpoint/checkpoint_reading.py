"""`tf.train.load_checkpoint`: a reader of a checkpoint's tensors by key, for tracegraph's
format (`NativeCheckpointReader`) and TensorFlow's (`formats/tensorflow`'s CheckpointReader),
recognised by the index file."""

from __future__ import annotations

import os

from ...errors import NotFoundError
from .checkpoint import _Reader
from .state_file import latest_checkpoint

__all__ = ["load_checkpoint", "tensorflow_reader", "NativeCheckpointReader"]


def tensorflow_reader(ckpt_dir_or_file):
    """TensorFlow's checkpoint reader when the checkpoint is in TensorFlow's format."""
    from ..tensorflow.tf_checkpoint import (
        CheckpointReader,
        is_tensorflow_checkpoint,
        resolve_prefix,
    )
    path = os.fspath(ckpt_dir_or_file)
    prefix = latest_checkpoint(path) if os.path.isdir(path) else path
    if prefix is None or not is_tensorflow_checkpoint(prefix):
        return None
    return CheckpointReader(resolve_prefix(prefix))


class NativeCheckpointReader:
    """`tf.train.load_checkpoint` of a checkpoint in tracegraph's format."""

    def __init__(self, ckpt_dir_or_file):
        self._reader = _Reader(ckpt_dir_or_file)
        self.prefix = self._reader.prefix

    def has_tensor(self, name: str) -> bool:
        return name in self._reader.entries

    def get_tensor(self, name: str):
        if name not in self._reader.entries:
            raise NotFoundError(f"Key {name} not found in checkpoint")
        value = self._reader.values()[name]
        return value[()] if value.ndim == 0 else value

    def get_variable_to_shape_map(self) -> dict:
        return {k: list(shape) for k, (_, _, shape) in self._reader.entries.items()}

    def get_variable_to_dtype_map(self) -> dict:
        return {k: dtype for k, (_, dtype, _) in self._reader.entries.items()}


def load_checkpoint(ckpt_dir_or_file):
    """`tf.train.load_checkpoint`: a reader of the checkpoint's tensors by key (`get_tensor`,
    `get_variable_to_shape_map`, `get_variable_to_dtype_map`, `has_tensor`), for
    tracegraph's format and TensorFlow's."""
    reader = tensorflow_reader(ckpt_dir_or_file)
    return reader if reader is not None else NativeCheckpointReader(ckpt_dir_or_file)
