"""The one error a malformed, truncated or hostile saved file raises."""

from __future__ import annotations

from ..errors import DataLossError

__all__ = ["SavedDataError"]


class SavedDataError(DataLossError, ValueError):
    """A saved model or checkpoint file is malformed, truncated, or not what it declares.

    `file` is the path of the offending file and `field` the place inside it (a JSON path such
    as `functions[0].graph.ops[3].attrs.value`, or an array name). It is both a
    `tf.errors.DataLossError` and a `ValueError`, so either `except` clause catches it.
    """

    def __init__(self, file, field: str, problem: str):
        self.file = str(file)
        self.field = field
        self.problem = problem
        where = f"{self.file}, field {field}" if field else self.file
        super().__init__(f"Cannot load {where}: {problem}")

    def __reduce__(self):  # pickles whole (a worker's load error travels to the driver)
        return type(self), (self.file, self.field, self.problem)
