"""`tf.train.Checkpoint.restore` of a name-based checkpoint (TF1's `Saver` wrote it: no object
graph): each Variable under the root takes the tensor saved under its name (`scoped/c` for
`scoped/c:0`), as TensorFlow's `NameBasedSaverStatus` does. Eager Variables are assigned at
once; a TF1 graph's Variables when `run_restore_ops(session)` runs, in that Session.
"""

from __future__ import annotations

from ...framework.graph_variables import GraphVariable
from ...tf_logging import deprecation_notice, user_frame
from .checkpoint_restore import _variables_under

__all__ = ["NameBasedLoadStatus"]

_INSTRUCTIONS = (
    "Restoring a name-based tf.train.Saver checkpoint using the object-based restore API. This "
    "mode uses global names to match variables, and so is somewhat fragile. It also adds new "
    "restore ops to the graph each time it is called when graph building. Prefer re-encoding "
    "training checkpoints in the object-based format: run save() on the object-based saver "
    "(the same one this message is coming from) and use that checkpoint in the future.")


def _key(variable) -> str:
    return variable.name[:-2] if variable.name.endswith(":0") else variable.name


class NameBasedLoadStatus:
    """The load status of a name-based checkpoint restored through the object-based API."""

    def __init__(self, root, reader):
        deprecation_notice("NameBasedSaverStatus.__init__",
                           "tensorflow.python.checkpoint.checkpoint", _INSTRUCTIONS, user_frame())
        self.reader = reader
        self.variables = _variables_under(root)
        self.pending = []     # TF1 graph Variables: restored by run_restore_ops(session)
        self.restored: set[int] = set()
        for variable in self.variables:
            if not reader.has_tensor(_key(variable)):
                continue
            if isinstance(variable, GraphVariable):
                self.pending.append(variable)
            else:
                variable.assign(reader.get_tensor(_key(variable)))
                self.restored.add(id(variable))

    def assert_consumed(self):
        for variable in self.variables:
            # a Checkpoint's own save counter is optional (a Saver's checkpoint has none)
            if id(variable) not in self.restored and variable.name != "save_counter:0":
                raise AssertionError(f"Object not restored: {variable}")
        return self

    def assert_existing_objects_matched(self):
        return self.assert_consumed()

    def assert_nontrivial_match(self):
        return self.assert_consumed()

    def expect_partial(self):
        return self

    def run_restore_ops(self, session=None):
        """Writes the saved values of a TF1 graph's Variables into `session`."""
        for variable in self.pending:
            variable.load(self.reader.get_tensor(_key(variable)), session)
            self.restored.add(id(variable))

    def initialize_or_restore(self, session=None):
        self.run_restore_ops(session)
