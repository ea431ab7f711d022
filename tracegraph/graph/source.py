"""Where in the user's code an op was created.

Every Operation records the first stack frame outside tracegraph's own package. Code that
tracegraph generates from user code (AutoGraph) registers a line map here, so locations point
at the user's original file and line.
"""

from __future__ import annotations

import functools
import os
import sys
from collections.abc import Callable
from typing import NamedTuple

__all__ = ["SourceLocation", "user_location", "register_source_map", "user_location_in_traceback"]

_PACKAGE_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__))) + os.sep

# filename of generated code -> function(lineno) -> (user filename, user lineno) or None
_SOURCE_MAPS: dict[str, Callable[[int], tuple[str, int] | None]] = {}


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


def register_source_map(filename: str, mapper: Callable[[int], tuple[str, int] | None]) -> None:
    _SOURCE_MAPS[filename] = mapper


def _is_internal(filename: str) -> bool:
    internal = _INTERNAL.get(filename)
    if internal is None:
        internal = _INTERNAL[filename] = filename.startswith("<") or (
            filename.startswith(_PACKAGE_DIR) and
            not filename.startswith(_PACKAGE_DIR + "examples"))
    return internal


_INTERNAL: dict[str, bool] = {}   # filename -> whether frames there are not the user's


def user_location(skip: int = 1) -> SourceLocation | None:
    """The innermost frame in user code (generated code mapped back to the user's lines)."""
    frame = sys._getframe(skip)
    while frame is not None:
        filename = frame.f_code.co_filename
        mapper = _SOURCE_MAPS.get(filename)
        if mapper is not None:
            mapped = mapper(frame.f_lineno)
            if mapped is not None:
                return SourceLocation(mapped[0], mapped[1], frame.f_code.co_name)
        elif not _is_internal(filename):
            return SourceLocation(filename, frame.f_lineno, frame.f_code.co_name)
        frame = frame.f_back
    return None


def user_location_in_traceback(tb) -> SourceLocation | None:
    """The innermost frame of a traceback that is user code (generated code mapped back)."""
    found = None
    while tb is not None:
        frame, lineno = tb.tb_frame, tb.tb_lineno
        filename = frame.f_code.co_filename
        mapper = _SOURCE_MAPS.get(filename)
        if mapper is not None:
            mapped = mapper(lineno)
            if mapped is not None:
                found = SourceLocation(mapped[0], mapped[1], frame.f_code.co_name)
        elif not _is_internal(filename):
            found = SourceLocation(filename, lineno, frame.f_code.co_name)
        tb = tb.tb_next
    return found
