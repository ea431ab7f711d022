"""`tf.train.Checkpoint`, `list_variables`, `load_variable`: the Variables of an object tree,
saved and matched by attribute path (`CheckpointManager` is in `checkpoint_manager`).

A checkpoint `PREFIX` is two files: `PREFIX.data-00000-of-00001` (an `.npz` of the values) and
`PREFIX.index` (JSON: each key's dtype and shape, and the data file's SHA-256), written in that
order, each through a temporary file and a rename, so an index never points at a partial data
file. Keys are TensorFlow's: the attribute path from the checkpoint's root, then
`/.ATTRIBUTES/VARIABLE_VALUE` (`model/layers/0/kernel/.ATTRIBUTES/VARIABLE_VALUE`). A variable
reachable by several paths is saved once, under its first path in breadth-first order.
"""

from __future__ import annotations

import json
import os
import re

import numpy as np

from ... import dtypes as d
from ... import wiring
from ...framework.variables import Variable
from ...shapes import shapes_compatible
from ..native.object_graph import ObjectGraph, children_of
from ..native.value_codec import Decoder
from ..npz_arrays import check_meta, read_npz, write_npz
from ..safe_files import atomic_write, file_sha256, read_json
from ..saved_data_error import SavedDataError
from .deferred_restore import Pending, defer
from .state_file import latest_checkpoint, update_state

__all__ = ["Checkpoint", "list_variables", "load_variable", "latest_checkpoint",
           "CheckpointLoadStatus", "data_path"]

FORMAT = "tracegraph.checkpoint"
FORMAT_VERSION = 1
SUFFIX = "/.ATTRIBUTES/VARIABLE_VALUE"
OBJECT_GRAPH_KEY = "_CHECKPOINTABLE_OBJECT_GRAPH"


def data_path(prefix: str) -> str:
    return f"{prefix}.data-00000-of-00001"


def _variable_keys(root) -> dict[str, Variable]:
    """key -> Variable for every Variable under `root` (first breadth-first path)."""
    graph = ObjectGraph(root)
    paths = graph.paths()
    out = {}
    for node, obj in enumerate(graph.nodes):
        if isinstance(obj, Variable) and node in paths:
            out[f"{paths[node]}{SUFFIX}"] = obj
    return out


def _write_checkpoint(prefix: str, variables: dict[str, Variable]) -> str:
    prefix = os.fspath(prefix)
    names = {key: f"t{i}" for i, key in enumerate(sorted(variables))}
    arrays = {names[k]: (v.dtype, v.handle.value) for k, v in variables.items()}
    atomic_write(data_path(prefix), lambda tmp: write_npz(tmp, arrays))
    entries = {k: {"member": names[k], "dtype": v.dtype.name,
                   "shape": [int(s) for s in np.shape(v.handle.value)]}
               for k, v in sorted(variables.items())}
    index = {"format": FORMAT, "version": FORMAT_VERSION, "entries": entries,
             "object_graph": sorted(k[:-len(SUFFIX)] for k in entries),
             "data_sha256": file_sha256(data_path(prefix))}

    def write_index(tmp):
        with open(tmp, "w", encoding="utf-8") as f:
            json.dump(index, f)
    atomic_write(f"{prefix}.index", write_index)
    return prefix


class _Reader:
    """A checkpoint's index, validated; values are read (and validated) on demand."""

    def __init__(self, prefix):
        prefix = os.fspath(prefix)
        if os.path.isdir(prefix):
            latest = latest_checkpoint(prefix)
            if latest is None:
                raise SavedDataError(prefix, "", "no checkpoint found in this directory")
            prefix = latest
        self.prefix = prefix
        self.index_file = f"{prefix}.index"
        if not os.path.isfile(self.index_file):
            from ...errors import NotFoundError
            raise NotFoundError(f"Unsuccessful TensorSliceReader constructor: Failed to find "
                                f"any matching files for {prefix}")
        doc = read_json(self.index_file)
        dec = Decoder(self.index_file)
        dec.obj(doc, "", ("format", "version", "entries", "object_graph", "data_sha256"))
        if doc["format"] != FORMAT:
            dec.fail("format", f"not a tracegraph checkpoint ({doc['format']!r:.60})")
        if doc["version"] != FORMAT_VERSION:
            dec.fail("version", f"format version {doc['version']!r:.20} is not supported")
        entries = dec.obj(doc["entries"], "entries", (), tuple(doc["entries"])
                          if isinstance(doc["entries"], dict) else ())
        self.entries = {}
        for key, e in entries.items():
            where = f"entries.{key}"
            dec.obj(e, where, ("member", "dtype", "shape"))
            member = dec.str(e["member"], f"{where}.member")
            if not re.fullmatch(r"t\d{1,9}", member):
                dec.fail(f"{where}.member", "bad member name")
            dtype, shape = check_meta({"dtype": e["dtype"], "shape": e["shape"]},
                                      self.index_file, where)
            self.entries[key] = (member, dtype, shape)
        self.sha = dec.str(doc["data_sha256"], "data_sha256")
        self._values = None

    def values(self) -> dict:
        if self._values is None:
            data = data_path(self.prefix)
            try:
                actual = file_sha256(data)
            except OSError as e:
                raise SavedDataError(data, "", str(e)) from None
            if actual != self.sha:
                raise SavedDataError(data, "", "checksum mismatch with the index: the file is "
                                     "corrupted or belongs to another checkpoint")
            declared = {m: (dt, shape) for m, dt, shape in self.entries.values()}
            arrays = read_npz(data, declared)
            self._values = {k: arrays[m] for k, (m, _, _) in self.entries.items()}
        return self._values


class CheckpointLoadStatus:
    """What a restore matched: `assert_consumed`, `assert_existing_objects_matched`,
    `assert_nontrivial_match`, `expect_partial` (TensorFlow's API)."""

    def __init__(self, prefix, unused_keys: list, unmatched: list, matched: int):
        self.save_path = prefix
        self.unused_keys = unused_keys      # in the checkpoint, no object took them
        self.unmatched = unmatched          # objects' variables the checkpoint had no value for
        self.matched = matched
        self._partial = False

    def assert_consumed(self):
        if self.unused_keys:
            raise AssertionError(f"Unresolved object in checkpoint {self.save_path}: "
                                 f"{self.unused_keys[0][:-len(SUFFIX)]} (and "
                                 f"{len(self.unused_keys) - 1} more): no Python object took "
                                 "its value.")
        self.assert_existing_objects_matched()
        return self

    def assert_existing_objects_matched(self):
        if self.unmatched:
            raise AssertionError(f"Some Python objects were not bound to checkpointed values, "
                                 f"likely due to changes in the Python program: "
                                 f"{self.unmatched}")
        return self

    def assert_nontrivial_match(self):
        if self.matched == 0:
            raise AssertionError(f"Nothing in the checkpoint {self.save_path} matched the "
                                 "objects being restored.")
        return self

    def expect_partial(self):
        self._partial = True
        return self

    def run_restore_ops(self, session=None):
        return None

    def initialize_or_restore(self, session=None):
        return None


def _restore(root, prefix, skip=()) -> CheckpointLoadStatus:
    reader = _Reader(prefix)
    targets = _variable_keys(root)
    values = reader.values()
    matched, unmatched = 0, []
    for key, var in targets.items():
        if key in skip:
            continue
        if key not in values:
            unmatched.append(key[:-len(SUFFIX)])
            continue
        _assign(reader, key, values[key], var)
        matched += 1
    unused = sorted(k for k in values if k not in targets)
    for key in unused:   # restored when their objects appear (deferred restoration)
        if key.endswith(SUFFIX) and key not in skip:
            assign = (lambda k: lambda var: _assign(reader, k, values[k], var))(key)
            defer(root, key[:-len(SUFFIX)].split("/"), Pending(assign))
    return CheckpointLoadStatus(reader.prefix, unused, unmatched, matched)


def _assign(reader, key: str, value, var) -> None:
    _, dtype, _ = reader.entries[key]
    if dtype is not var.dtype:
        raise ValueError(f"Checkpoint {reader.prefix}: {key} is {dtype.name} but the "
                         f"variable {var.name} is {var.dtype.name}.")
    if not shapes_compatible(var.handle.shape, value.shape):
        raise ValueError(f"Received incompatible tensor with shape {list(value.shape)} "
                         f"when attempting to restore variable with shape "
                         f"{list(var.shape)} and name {key}.")
    var.handle.value = value if dtype is not d.bfloat16 else value.astype(np.float32)


class Checkpoint:
    """`tf.train.Checkpoint(**objects)`: saves and restores the Variables under `objects`."""

    def __setattr__(self, name, value):
        object.__setattr__(self, name, value)
        for hook in wiring.attribute_set_hooks:   # values waiting for this attribute (both formats)
            hook(self, name, value)

    def __init__(self, root=None, **kwargs):
        for name, value in kwargs.items():
            if name == "save_counter":
                raise ValueError("'save_counter' is reserved by tf.train.Checkpoint.")
            setattr(self, name, value)
        self._root = root   # its children are saved at the top level, as in TensorFlow

    @property
    def save_counter(self) -> Variable:
        """How many times `save` ran (a Variable saved with the checkpoint)."""
        counter = vars(self).get("_save_counter_var")
        if counter is None:
            counter = Variable(np.int64(0), trainable=False, name="save_counter")
            vars(self)["_save_counter_var"] = counter
        return counter

    def _targets_root(self):
        # the counter is tracked as `save_counter`, as in TensorFlow
        view = _CheckpointView(self)
        return view

    def write(self, file_prefix, options=None, format=None) -> str:  # noqa: A002
        """Writes exactly `file_prefix` (no counter, no `checkpoint` state file):
        tracegraph's format, or TensorFlow's with `format="tensorflow"` (a tensor bundle
        TensorFlow restores)."""
        if format == "tensorflow":
            from ..tensorflow.tf_checkpoint import write_tensorflow_checkpoint
            return write_tensorflow_checkpoint(file_prefix, self._targets_root())
        if format not in (None, "tracegraph"):
            raise ValueError(f"format must be 'tracegraph' (the default) or 'tensorflow', got "
                             f"{format!r}.")
        return _write_checkpoint(os.fspath(file_prefix), _variable_keys(self._targets_root()))

    def save(self, file_prefix, options=None, format=None) -> str:  # noqa: A002
        """Writes `file_prefix-N` (N = the incremented save counter) and records it in the
        directory's `checkpoint` state file; returns the path."""
        self.save_counter.assign_add(1)
        path = self.write(f"{os.fspath(file_prefix)}-{int(self.save_counter.numpy())}",
                          format=format)
        update_state(os.path.dirname(os.path.abspath(path)), path, None)
        return path

    def read(self, save_path, options=None) -> CheckpointLoadStatus:
        """Restores a checkpoint written by `write` (the save counter is not expected)."""
        counter = f"save_counter{SUFFIX}"
        tensorflow = _tensorflow_restore(self, save_path, skip={counter})
        if tensorflow is not None:
            return tensorflow
        status = _restore(self._targets_root(), save_path, skip={counter})
        status.unused_keys = [k for k in status.unused_keys if k != counter]
        return status

    def restore(self, save_path, options=None) -> CheckpointLoadStatus:
        """Restores every Variable whose attribute path the checkpoint holds; the status
        reports what matched. `save_path=None` restores nothing. A checkpoint TensorFlow
        wrote is matched by its object graph, with TensorFlow's rules."""
        if save_path is None:
            return CheckpointLoadStatus(None, [], [], 0).expect_partial()
        self.save_counter  # noqa: B018 - created so that a saved counter is restored
        tensorflow = _tensorflow_restore(self, save_path)
        if tensorflow is not None:
            return tensorflow
        status = _restore(self._targets_root(), save_path)
        if "save_counter" in status.unmatched:
            status.unmatched.remove("save_counter")
        return status


def _tensorflow_restore(checkpoint, save_path, skip=()):
    """A TensorFlow checkpoint's restore status, or None for tracegraph's own format."""
    from ..tensorflow.tf_checkpoint import is_tensorflow_checkpoint
    path = os.fspath(save_path)
    prefix = latest_checkpoint(path) if os.path.isdir(path) else path
    if prefix is None or not is_tensorflow_checkpoint(prefix):
        return None
    from ..tensorflow.checkpoint_restore import restore_tensorflow_checkpoint
    return restore_tensorflow_checkpoint(checkpoint._targets_root(), prefix,
                                         skip_keys=skip, owner=checkpoint)


class _CheckpointView:
    """The tree a Checkpoint saves: its attributes plus `save_counter`."""

    def __init__(self, checkpoint: Checkpoint):
        root = vars(checkpoint).get("_root")
        if root is not None:
            for name, value in children_of(root):
                setattr(self, name, value)
        for name, value in vars(checkpoint).items():
            if not name.startswith("_"):
                setattr(self, name, value)
        counter = vars(checkpoint).get("_save_counter_var")
        if counter is not None:  # created by the first `save` (or by reading it)
            self.save_counter = counter


def list_variables(ckpt_dir_or_file) -> list[tuple[str, list]]:
    """`[(key, shape)]` of a checkpoint (a prefix, or a directory: its latest checkpoint)."""
    from .checkpoint_reading import tensorflow_reader
    tensorflow = tensorflow_reader(ckpt_dir_or_file)
    if tensorflow is not None:
        return sorted(tensorflow.get_variable_to_shape_map().items())
    reader = _Reader(ckpt_dir_or_file)
    out = [(k, list(shape)) for k, (_, _, shape) in reader.entries.items()]
    out.append((OBJECT_GRAPH_KEY, []))
    return sorted(out)


def load_variable(ckpt_dir_or_file, name: str) -> np.ndarray:
    """The value saved under `name` (a key from `list_variables`)."""
    name = name[:-2] if name.endswith(":0") else name
    from .checkpoint_reading import tensorflow_reader
    tensorflow = tensorflow_reader(ckpt_dir_or_file)
    if tensorflow is not None:
        return tensorflow.get_tensor(name)
    reader = _Reader(ckpt_dir_or_file)
    if name not in reader.entries:
        from ...errors import NotFoundError
        raise NotFoundError(f"Key {name} not found in checkpoint {reader.prefix}")
    return reader.values()[name]
