"""`tf.train.Checkpoint`: saves the Variables of an object tree and restores them by object
(`CheckpointManager` is in `checkpoint_manager`, the files in `native_checkpoint`, restoring
in `restore`, `tf.train.load_checkpoint` and friends in `checkpoint_reading`).

The tree a Checkpoint saves is its public attributes (a `root=` object's children at the top
level, as in TensorFlow) and `save_counter` once it exists. A list assigned to an attribute is
stored as a `TrackedList`, so items appended after a restore are restored too.
"""

from __future__ import annotations

import os

import numpy as np

from ...framework.variables import Variable
from ..native.object_graph import children_of
from ..tensorflow.tf_checkpoint import write_tensorflow_checkpoint
from .checkpoint_reading import (
    OBJECT_GRAPH_KEY,
    list_variables,
    load_checkpoint,
    load_variable,
)
from .deferred_restore import TrackedList, attribute_set
from .native_checkpoint import VARIABLE_SUFFIX, data_path, write_checkpoint
from .restore import CheckpointLoadStatus, InitializationOnlyStatus
from .state_file import latest_checkpoint, update_state

__all__ = ["Checkpoint", "list_variables", "load_variable", "load_checkpoint",
           "latest_checkpoint", "CheckpointLoadStatus", "data_path", "OBJECT_GRAPH_KEY",
           "VARIABLE_SUFFIX"]


class Checkpoint:
    """`tf.train.Checkpoint(root=None, **objects)`: saves and restores the Variables under
    `objects` (and under `root`'s attributes)."""

    def __init__(self, root=None, **kwargs):
        object.__setattr__(self, "_root", root)   # its children are saved at the top level
        for name, value in kwargs.items():
            if name == "save_counter":
                raise ValueError("'save_counter' is reserved by tf.train.Checkpoint.")
            setattr(self, name, value)

    def __setattr__(self, name, value):
        if type(value) is list:
            value = TrackedList(value)
        object.__setattr__(self, name, value)
        attribute_set(self, name, value)   # saved values waiting for this attribute

    @property
    def save_counter(self) -> Variable:
        """How many times `save` ran (a Variable saved with the checkpoint)."""
        counter = vars(self).get("_save_counter_var")
        if counter is None:
            counter = Variable(np.int64(0), trainable=False, name="save_counter")
            vars(self)["_save_counter_var"] = counter
            attribute_set(self, "save_counter", counter)   # restored if a restore waits
        return counter

    def _object_graph_children(self) -> list[tuple[str, object]]:
        root = vars(self).get("_root")
        out = list(children_of(root)) if root is not None else []
        out += [(k, v) for k, v in vars(self).items() if not k.startswith("_")]
        counter = vars(self).get("_save_counter_var")
        if counter is not None:   # created by the first `save`, `restore`, or by reading it
            out.append(("save_counter", counter))
        return out

    def _deferral_parents(self) -> tuple:
        """Where a missing top-level object may appear: an attribute of this checkpoint, or
        of its `root`."""
        root = vars(self).get("_root")
        return (self,) if root is None else (self, root)

    def write(self, file_prefix, options=None, format=None) -> str:  # noqa: A002
        """Writes exactly `file_prefix` (no counter, no `checkpoint` state file):
        tracegraph's format, or TensorFlow's with `format="tensorflow"` (a tensor bundle
        TensorFlow restores)."""
        if format == "tensorflow":
            return write_tensorflow_checkpoint(file_prefix, self)
        if format not in (None, "tracegraph"):
            raise ValueError(f"format must be 'tracegraph' (the default) or 'tensorflow', got "
                             f"{format!r}.")
        return write_checkpoint(os.fspath(file_prefix), self)

    def save(self, file_prefix, options=None, format=None) -> str:  # noqa: A002
        """Writes `file_prefix-N` (N = the incremented save counter) and records it in the
        directory's `checkpoint` state file; returns the path."""
        self.save_counter.assign_add(1)
        path = self.write(f"{os.fspath(file_prefix)}-{int(self.save_counter.numpy())}",
                          format=format)
        update_state(os.path.dirname(os.path.abspath(path)), path, None)
        return path

    def read(self, save_path, options=None):
        """Restores a checkpoint (meant for those `write` wrote), tracegraph's or
        TensorFlow's: values are matched to objects by the saved object graph; values of
        objects that do not exist yet are restored when they appear."""
        return load_checkpoint(save_path).restore(self)

    def restore(self, save_path, options=None):
        """`read`, after creating `save_counter` so that a saved counter is restored.
        `save_path=None` restores nothing (every assertion of the status fails)."""
        if save_path is None:
            return InitializationOnlyStatus(self)
        self.save_counter  # noqa: B018 - created so that a saved counter is restored
        return self.read(save_path, options)
