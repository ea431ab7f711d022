"""The errors a TensorFlow SavedModel, checkpoint or tensor bundle raises when it cannot be read.

Every file is untrusted input. A file that is truncated, corrupted or not what it declares
raises `SavedDataError` (a `tf.errors.DataLossError`, as TensorFlow's readers raise for bad
tables, checksums and protos); one whose content is well formed but invalid (a shape with a
negative size, a dtype the format cannot hold, a value that does not fit its variable) raises
`InvalidSavedDataError`, which is also TensorFlow's `tf.errors.InvalidArgumentError`. Both name
the file and the place inside it, and both are `SavedDataError`s (and `ValueError`s), the one
type to catch for "this file cannot be loaded".

An op that tracegraph does not implement is not a broken file: it raises
`UnsupportedOpError`, TensorFlow's `tf.errors.NotFoundError` for an unregistered op, naming the
op type, the node and the function that uses it; a node whose attrs or dtypes tracegraph's
record of a known op does not take raises `UnsupportedNodeError` (`UnimplementedError`).
"""

from __future__ import annotations

from ...errors import INVALID_ARGUMENT, InvalidArgumentError, NotFoundError, UnimplementedError
from ..saved_data_error import SavedDataError

__all__ = ["SavedDataError", "InvalidSavedDataError", "UnsupportedOpError",
           "UnsupportedNodeError", "data_loss", "invalid"]


class InvalidSavedDataError(SavedDataError, InvalidArgumentError):
    """A well-formed file whose content is invalid (`tf.errors.InvalidArgumentError`)."""

    error_code = INVALID_ARGUMENT


class UnsupportedOpError(NotFoundError):
    """A function of the model uses an op type tracegraph does not implement."""

    def __init__(self, op_type: str, function: str, node: str, file: str = ""):
        self.op_type, self.function, self.node, self.file = op_type, function, node, file
        where = f" of {file}" if file else ""
        super().__init__(
            f"Op type not registered '{op_type}' in tracegraph: node '{node}' of function "
            f"'{function}'{where} uses it. tracegraph runs TensorFlow's models with its own op "
            f"library, which has no '{op_type}'; `tracegraph.formats.tensorflow.op_types(path)` "
            f"lists every op type a model uses.")

    def __reduce__(self):
        return type(self), (self.op_type, self.function, self.node, self.file)


class UnsupportedNodeError(UnimplementedError):
    """A node of a known op type that tracegraph's record of the op cannot take (an attr it
    does not implement, a dtype it does not allow): `tf.errors.UnimplementedError`."""

    def __init__(self, op_type: str, function: str, node: str, problem: str, file: str = ""):
        self.op_type, self.function, self.node, self.file = op_type, function, node, file
        self.problem = problem
        where = f" of {file}" if file else ""
        super().__init__(f"tracegraph cannot run node '{node}' ({op_type}) of function "
                         f"'{function}'{where}: {problem}")

    def __reduce__(self):
        return type(self), (self.op_type, self.function, self.node, self.problem, self.file)


def data_loss(file, field: str, problem: str) -> SavedDataError:
    return SavedDataError(file, field, problem)


def invalid(file, field: str, problem: str) -> InvalidSavedDataError:
    return InvalidSavedDataError(file, field, problem)
