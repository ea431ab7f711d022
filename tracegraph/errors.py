"""`tf.errors`: the exceptions raised when an op fails at run time.

As in TensorFlow, every runtime error is an `OpError` carrying a canonical error code. They can be
built TensorFlow's way, `InvalidArgumentError(node_def, op, message)`, or simply with a message.
"""

from __future__ import annotations

OK = 0
CANCELLED = 1
UNKNOWN = 2
INVALID_ARGUMENT = 3
DEADLINE_EXCEEDED = 4
NOT_FOUND = 5
ALREADY_EXISTS = 6
PERMISSION_DENIED = 7
RESOURCE_EXHAUSTED = 8
FAILED_PRECONDITION = 9
ABORTED = 10
OUT_OF_RANGE = 11
UNIMPLEMENTED = 12
INTERNAL = 13
UNAVAILABLE = 14
DATA_LOSS = 15
UNAUTHENTICATED = 16


class OpError(Exception):
    """An error raised by an op at run time (eagerly or inside a graph)."""

    error_code = UNKNOWN

    def __init__(self, *args, op_name: str | None = None):
        if len(args) >= 3:
            node_def, op, message = args[0], args[1], args[2]
        elif len(args) == 1:
            node_def, op, message = None, None, args[0]
        elif not args:
            node_def, op, message = None, None, ""
        else:
            raise TypeError("OpError takes (message) or (node_def, op, message)")
        super().__init__(message)
        self._node_def = node_def
        self._op = op
        self._message = str(message)
        self.op_name = op_name

    @property
    def message(self) -> str:
        return self._message

    @property
    def op(self):
        return self._op

    @property
    def node_def(self):
        return self._node_def

    def __str__(self):
        return self._message


def _error(name: str, code: int, doc: str) -> type:
    return type(name, (OpError,), {"error_code": code, "__doc__": doc})


CancelledError = _error("CancelledError", CANCELLED, "An operation was cancelled.")
UnknownError = _error("UnknownError", UNKNOWN, "An unknown error.")
InvalidArgumentError = _error(
    "InvalidArgumentError", INVALID_ARGUMENT, "An op received an invalid argument.")
DeadlineExceededError = _error("DeadlineExceededError", DEADLINE_EXCEEDED, "A deadline expired.")
NotFoundError = _error("NotFoundError", NOT_FOUND, "A requested entity was not found.")
AlreadyExistsError = _error("AlreadyExistsError", ALREADY_EXISTS, "An entity already exists.")
PermissionDeniedError = _error("PermissionDeniedError", PERMISSION_DENIED, "Permission denied.")
UnauthenticatedError = _error("UnauthenticatedError", UNAUTHENTICATED, "Not authenticated.")
ResourceExhaustedError = _error(
    "ResourceExhaustedError", RESOURCE_EXHAUSTED, "A resource has been exhausted.")
FailedPreconditionError = _error(
    "FailedPreconditionError", FAILED_PRECONDITION, "The system is not in a state to run the op.")
AbortedError = _error("AbortedError", ABORTED, "The operation was aborted.")
OutOfRangeError = _error("OutOfRangeError", OUT_OF_RANGE, "An operation iterated past its range.")
UnimplementedError = _error("UnimplementedError", UNIMPLEMENTED, "The op is not implemented.")
InternalError = _error("InternalError", INTERNAL, "An internal invariant was broken.")
UnavailableError = _error("UnavailableError", UNAVAILABLE, "The runtime is unavailable.")
DataLossError = _error("DataLossError", DATA_LOSS, "Unrecoverable data loss.")


class OperatorNotAllowedInGraphError(TypeError):
    """A symbolic tensor was used where a Python value is needed (`if t:`, `bool(t)`, ...)."""


def with_op_name(error: OpError, op_type: str) -> OpError:
    """Returns `error` with TensorFlow's eager suffix ` [Op:<type>]` appended to its message."""
    error._message = f"{error._message} [Op:{op_type}]"
    error.args = (error._message,)
    error.op_name = error.op_name or op_type
    return error
