"""`tf.compat.v1.train.Saver`: TF1's name-based checkpoints, in TensorFlow's format.

A Saver maps checkpoint keys to Variables: by default every global variable of the graph
under its op's name (`layer/w`), or the list or dict it is given. `save(sess, path,
global_step)` reads their values in the Session and writes a tensor bundle
(`path-STEP.index` and `.data-00000-of-00001`, formats/tensorflow/tensor_bundle.py) that
TensorFlow's Saver and `tf.train.load_checkpoint` read, then the directory's `checkpoint`
state file, keeping the newest `max_to_keep`. `restore(sess, path)` writes each key's value
into the Session's storage of its Variable. Eagerly (`sess` None) a Saver needs its
`var_list` and reads and assigns the Variables themselves.

`init_from_checkpoint(path, assignment_map)` makes the mapped Variables' initializers assign the
checkpoint's values (scopes remapped as TensorFlow's assignment maps say).

Left out: the `.meta` MetaGraphDef beside each checkpoint (`write_meta_graph` is accepted and
writes nothing; `tf.compat.v1.train.import_meta_graph` is not there), sharded and V1 formats.
"""

from __future__ import annotations

import os

import numpy as np

from ..errors import NotFoundError
from ..formats.checkpoint.checkpoint_reading import load_checkpoint
from ..formats.checkpoint.state_file import update_state
from ..formats.tensorflow.tensor_bundle import write_bundle
from ..formats.tensorflow.tf_checkpoint import CheckpointReader
from ..framework.contexts import init_scope_context
from ..framework.graph_variables import GraphVariable
from ..library.array import constant
from ..tf_logging import get_logger
from .graph_api import global_variables

__all__ = ["Saver", "init_from_checkpoint"]

_EAGER_WARNING = (
    "Saver is deprecated, please switch to tf.train.Checkpoint or tf.keras.Model.save_weights "
    "for training checkpoints. When executing eagerly variables do not necessarily have "
    "unique names, and so the variable.name-based lookups Saver performs are error-prone.")


def _key(variable) -> str:
    return variable.name[:-2] if variable.name.endswith(":0") else variable.name


class Saver:
    """Saves and restores Variables by name (TF1's checkpoints)."""

    def __init__(self, var_list=None, reshape=False, sharded=False, max_to_keep=5,
                 keep_checkpoint_every_n_hours=10000.0, name=None, restore_sequentially=False,
                 saver_def=None, builder=None, defer_build=False, allow_empty=False,
                 write_version=2, pad_step_number=False, save_relative_paths=False,
                 filename=None):
        eager = getattr(init_scope_context(), "graph", None) is None
        if eager:
            get_logger().warning(_EAGER_WARNING)
            if var_list is None:
                raise RuntimeError("When eager execution is enabled, `var_list` must specify a "
                                   "list or dict of variables to save")
        if var_list is None:
            var_list = global_variables()
        if isinstance(var_list, dict):
            self._variables = dict(var_list)
        else:
            self._variables = {}
            for variable in var_list:
                key = _key(variable)
                if key in self._variables:
                    raise ValueError(f"At least two variables have the same name: {key}")
                self._variables[key] = variable
        if not self._variables and not allow_empty:
            raise ValueError("No variables to save")
        self._max_to_keep = max_to_keep
        self._pad_step_number = pad_step_number
        self._last_checkpoints: list[str] = []

    @property
    def last_checkpoints(self) -> list:
        """The checkpoints this Saver wrote and keeps, oldest first."""
        return list(self._last_checkpoints)

    def recover_last_checkpoints(self, checkpoint_paths) -> None:
        self._last_checkpoints = [p for p in checkpoint_paths if os.path.exists(p + ".index")]

    def _values(self, sess) -> list:
        variables = list(self._variables.values())
        if sess is not None and any(isinstance(v, GraphVariable) for v in variables):
            return sess.run(variables)
        return [v.numpy() for v in variables]

    def save(self, sess, save_path, global_step=None, latest_filename=None,
             meta_graph_suffix="meta", write_meta_graph=True, write_state=True,
             strip_default_attrs=False, save_debug_info=False):
        """Writes the checkpoint `save_path[-global_step]` and returns its prefix."""
        save_path = os.fspath(save_path)
        if global_step is not None:
            if not isinstance(global_step, (int, np.integer)):   # a Variable or tensor
                global_step = sess.run(global_step) if sess is not None else \
                    global_step.numpy()
            step = f"{int(global_step):08d}" if self._pad_step_number else str(int(global_step))
            prefix = f"{save_path}-{step}"
        else:
            prefix = save_path
        values = self._values(sess)
        write_bundle(prefix, {key: (v.dtype, value)
                              for (key, v), value in zip(self._variables.items(), values)})
        if write_state:
            self._keep(prefix)
        return prefix

    def _keep(self, prefix: str) -> None:
        self._last_checkpoints = [p for p in self._last_checkpoints if p != prefix] + [prefix]
        while self._max_to_keep and len(self._last_checkpoints) > self._max_to_keep:
            old = self._last_checkpoints.pop(0)
            directory = os.path.dirname(old) or "."
            for name in os.listdir(directory):
                if name.startswith(os.path.basename(old) + ".") and (
                        name.endswith(".index") or ".data-" in name):
                    os.remove(os.path.join(directory, name))
        directory = os.path.dirname(prefix) or "."
        kept = [p for p in self._last_checkpoints if os.path.dirname(p) == os.path.dirname(prefix)]
        update_state(directory, prefix, kept)

    def restore(self, sess, save_path):
        """Writes each Variable's value from the checkpoint `save_path` (its Session's storage
        in a TF1 graph; the Variable itself eagerly)."""
        if save_path is None:
            raise ValueError("Can't load save_path when it is None.")
        save_path = os.fspath(save_path)
        if not os.path.exists(save_path + ".index"):
            raise ValueError(f"The passed save_path is not a valid checkpoint: {save_path}")
        reader = CheckpointReader(save_path)
        for key, variable in self._variables.items():
            if not reader.has_tensor(key):
                raise NotFoundError(
                    None, None, "Restoring from checkpoint failed. This is most likely due to a "
                    "Variable name or other graph key that is missing from the checkpoint. "
                    "Please ensure that you have not altered the graph expected based on the "
                    f"checkpoint. Original error:\n\nKey {key} not found in checkpoint")
            value = reader.get_tensor(key)
            if isinstance(variable, GraphVariable):
                variable.load(value, sess)
            else:
                variable.assign(value)



def init_from_checkpoint(ckpt_dir_or_file, assignment_map) -> None:
    """`tf.compat.v1.train.init_from_checkpoint`: the initializers of the mapped Variables
    assign the checkpoint's values instead of their initial values. `assignment_map` maps a
    checkpoint name to a Variable or its name (`'old/w': 'new/w'`), or a checkpoint scope to
    a scope of the graph (`'old_scope/': 'new_scope/'`, `'/': 'new_scope/'`: the checkpoint's
    root)."""
    reader = load_checkpoint(ckpt_dir_or_file)
    saved = reader.get_variable_to_shape_map()
    variables = {_key(v): v for v in global_variables()}
    items = assignment_map.items() if isinstance(assignment_map, dict) else assignment_map
    for in_ckpt, current in items:
        target = current if not isinstance(current, str) else variables.get(current)
        if target is not None:
            _initialize_from(target, reader, saved, in_ckpt)
            continue
        scopes = current[:current.rindex("/")] if "/" in current else ""
        if not in_ckpt.endswith("/"):
            raise ValueError(f"Assignment map with scope only name {in_ckpt} should map to "
                             f"scope only {current}. Should be 'scope/': 'other_scope/'.")
        for name, variable in variables.items():
            if scopes and not name.startswith(scopes + "/"):
                continue
            full = name[len(scopes):]
            if current != "/":
                full = full[1:]
            if in_ckpt != "/":
                full = in_ckpt + full
            _initialize_from(variable, reader, saved, full.rstrip("/"))


def _initialize_from(variable, reader, saved: dict, name: str) -> None:
    if name not in saved:
        raise ValueError(f"Tensor {name} is not found in {reader!r:.200} checkpoint "
                         f"{sorted(saved)[:20]}")
    if not variable.shape.is_compatible_with(saved[name]):
        raise ValueError(f"Shape of variable {variable.name} ({variable.shape}) doesn't match "
                         f"with shape of tensor {name} ({saved[name]}) from checkpoint reader.")
    value = reader.get_tensor(name)
    if not isinstance(variable, GraphVariable):
        variable.assign(value)
        return
    with variable.graph.as_default() as graph, graph.name_scope(_key(variable) + "/"):
        variable.initialize_from(constant(value, dtype=variable.dtype,
                                          name="checkpoint_initializer"))
