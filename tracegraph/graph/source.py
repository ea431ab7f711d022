"""Where in the user's code an op was created.

Every Operation records the first stack frame outside tracegraph's own package. Code that
tracegraph generates from user code (AutoGraph) is compiled under the user's file name with the
user's line numbers, so its frames already point at the user's original file and line.
"""

from __future__ import annotations

import functools
import os
import sys
from typing import NamedTuple

__all__ = ["SourceLocation", "user_location", "user_location_in_traceback"]

_PACKAGE_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__))) + os.sep


class SourceLocation(NamedTuple):
    filename: str
    lineno: int
    function: str

    def short(self) -> str:
        return _short(self.filename, self.lineno)

    def __str__(self):
        return f"{self.filename}:{self.lineno}"


@functools.lru_cache(maxsize=4096)
def _short(filename: str, lineno: int) -> str:
    return f"{os.path.basename(filename)}:{lineno}"


def _is_internal(filename: str) -> bool:
    internal = _INTERNAL.get(filename)
    if internal is None:
        internal = _INTERNAL[filename] = filename.startswith("<") or (
            filename.startswith(_PACKAGE_DIR) and
            not filename.startswith(_PACKAGE_DIR + "examples"))
    return internal


_INTERNAL: dict[str, bool] = {}   # filename -> whether frames there are not the user's


def user_location(skip: int = 1) -> SourceLocation | None:
    """The innermost frame in user code."""
    frame = sys._getframe(skip)
    while frame is not None:
        filename = frame.f_code.co_filename
        if not _is_internal(filename):
            return SourceLocation(filename, frame.f_lineno, frame.f_code.co_name)
        frame = frame.f_back
    return None


def user_location_in_traceback(tb) -> SourceLocation | None:
    """The innermost frame of a traceback that is user code."""
    found = None
    while tb is not None:
        frame, lineno = tb.tb_frame, tb.tb_lineno
        filename = frame.f_code.co_filename
        if not _is_internal(filename):
            found = SourceLocation(filename, lineno, frame.f_code.co_name)
        tb = tb.tb_next
    return found
