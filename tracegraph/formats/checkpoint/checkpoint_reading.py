"""`tf.train.load_checkpoint`, `list_variables`, `load_variable`: one reader interface for every
checkpoint format, and a dispatcher that picks the format from the checkpoint's index.

A format's reader is a `CheckpointReader` subclass registered with
`@checkpoint_reader(name, recognises=...)`: `recognises(prefix)` looks at `PREFIX.index`
(without trusting it) and the class is constructed with the prefix. tracegraph's own format
registers `native_checkpoint.NativeCheckpointReader`; TensorFlow's tensor bundles register
theirs the same way. The reader has TensorFlow's methods (`get_tensor`, `has_tensor`,
`get_variable_to_shape_map`, `get_variable_to_dtype_map`, `debug_string`) and, for
`Checkpoint.restore`, `object_graph()`: the saved objects as `ObjectNode`s (node 0 is the root)
that `restore(root)` matches against Python objects (a format may restore its own way, as
TensorFlow's does for optimizer slots).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import NamedTuple

from ...errors import NotFoundError
from ..safe_files import open_inside, unsealed_version
from ..saved_data_error import SavedDataError
from .state_file import latest_checkpoint

__all__ = ["CheckpointReader", "ObjectNode", "checkpoint_reader", "load_checkpoint",
           "list_variables", "load_variable", "resolve_prefix", "OBJECT_GRAPH_KEY",
           "not_found"]

OBJECT_GRAPH_KEY = "_CHECKPOINTABLE_OBJECT_GRAPH"


class ObjectNode(NamedTuple):
    """One saved object: its children `((local name, node id), ...)` and, for a Variable, the
    key of its value (TensorFlow's TrackableObjectGraph node, VARIABLE_VALUE attribute)."""
    children: tuple
    checkpoint_key: str | None


class CheckpointReader:
    """What `tf.train.load_checkpoint` returns, for any checkpoint format. Subclasses set
    `prefix` and define the five methods below that raise NotImplementedError."""

    prefix: str

    def has_tensor(self, name: str) -> bool:
        raise NotImplementedError

    def get_tensor(self, name: str):
        """The value saved under `name`: an array, a NumPy scalar for a scalar number, `bytes`
        for a scalar string; NotFoundError for a key the checkpoint does not have."""
        raise NotImplementedError

    def get_variable_to_shape_map(self) -> dict:
        """key -> shape (a list of ints), `_CHECKPOINTABLE_OBJECT_GRAPH` included."""
        raise NotImplementedError

    def get_variable_to_dtype_map(self) -> dict:
        """key -> DType, `_CHECKPOINTABLE_OBJECT_GRAPH` (a string) included."""
        raise NotImplementedError

    def object_graph(self) -> list[ObjectNode]:
        """The saved objects, node 0 the root, for restoring by object (not by key)."""
        raise NotImplementedError

    def restore(self, root):
        """Restores the checkpoint into the objects under `root` by its object graph (values
        of objects that do not exist yet wait for them); returns the load status."""
        from .restore import CheckpointLoadStatus, Restoration
        restoration = Restoration(self, root)
        restoration.match(root, 0)
        return CheckpointLoadStatus(restoration)

    def debug_string(self) -> bytes:
        dtypes = self.get_variable_to_dtype_map()
        lines = [f"{k} (DT_{dtypes[k].name.upper()}) {shape}"
                 for k, shape in sorted(self.get_variable_to_shape_map().items())]
        return ("\n".join(lines) + "\n").encode()

    def __repr__(self):
        return f"<{type(self).__name__} {self.prefix!r}>"


_READERS: list[tuple[str, Callable, type]] = []   # (format, recognises(prefix), reader class)


def checkpoint_reader(name: str, recognises: Callable[[str], bool]):
    """Registers a `CheckpointReader` subclass for the checkpoints `recognises(prefix)` accepts."""
    def register(cls):
        if any(n == name for n, _, _ in _READERS):
            raise KeyError(f"a checkpoint reader named {name!r} is already registered")
        _READERS.append((name, recognises, cls))
        return cls
    return register


def not_found(name: str) -> NotFoundError:
    return NotFoundError(f"Key {name} not found in checkpoint")


def resolve_prefix(ckpt_dir_or_file) -> str:
    """A checkpoint prefix: the argument, or a directory's latest checkpoint (TF's errors)."""
    path = os.fspath(ckpt_dir_or_file)
    if os.path.isdir(path):
        latest = latest_checkpoint(path)
        if latest is None:
            raise ValueError(f"Couldn't find 'checkpoint' file or checkpoints in given "
                             f"directory {path}")
        return latest
    if not os.path.lexists(f"{path}.index"):
        raise NotFoundError(f"Unsuccessful TensorSliceReader constructor: Failed to find any "
                            f"matching files for {path}")
    return path


def load_checkpoint(ckpt_dir_or_file) -> CheckpointReader:
    """`tf.train.load_checkpoint`: a reader of a checkpoint (a prefix, or a directory: its
    latest checkpoint) in any registered format."""
    from ..tensorflow import tf_checkpoint  # noqa: F401 - registers TensorFlow's reader
    from . import native_checkpoint  # noqa: F401 - registers tracegraph's reader
    prefix = resolve_prefix(ckpt_dir_or_file)
    with open_inside(f"{prefix}.index"):
        pass   # a regular file inside its directory, or the SavedDataError saying what it is
    for _, recognises, reader in _READERS:
        if recognises(prefix):
            return reader(prefix)
    older = unsealed_version(f"{prefix}.index")
    if older is not None and older[0] == "tracegraph.checkpoint":
        raise SavedDataError(f"{prefix}.index", "version", f"format version {older[1]!r:.20} "
                             "is not supported (written by an older tracegraph)")
    raise SavedDataError(f"{prefix}.index", "", "not a checkpoint index in a format tracegraph "
                         f"reads ({', '.join(n for n, _, _ in _READERS)})")


def list_variables(ckpt_dir_or_file) -> list[tuple[str, list]]:
    """`tf.train.list_variables`: `[(key, shape)]` of a checkpoint, sorted by key."""
    return sorted(load_checkpoint(ckpt_dir_or_file).get_variable_to_shape_map().items())


def load_variable(ckpt_dir_or_file, name: str):
    """`tf.train.load_variable`: the value saved under `name` (a key from `list_variables`;
    a trailing `:0` is ignored, as in TensorFlow)."""
    name = name[:-2] if name.endswith(":0") else name
    return load_checkpoint(ckpt_dir_or_file).get_tensor(name)
