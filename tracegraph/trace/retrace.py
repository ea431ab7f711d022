"""The retracing detector (SPEC R-2.7).

TensorFlow warns when 5 of the last 10 calls of a Function traced. tracegraph does too, and says
which argument changed, from what to what, and where the call came from. As in TensorFlow, a
call counts once however many traces it caused (a recursive function traces once per depth in
one call), and a call that failed does not count.

The detector keeps descriptions of the arguments of recent traces, never the arguments
themselves: a tensor or object passed once is not kept alive by it.
"""

from __future__ import annotations

import os
import sys
import warnings
from collections import deque

from ..graph.source import user_location
from .keys import describe_leaf

__all__ = ["RetracingWarning", "RetraceDetector", "explain_change", "describe_leaves",
           "user_stacklevel"]

WINDOW = 10
THRESHOLD = 5

_PACKAGE = os.path.dirname(os.path.dirname(os.path.abspath(__file__))) + os.sep


def user_stacklevel() -> int:
    """The `stacklevel` that makes a warning issued by the caller point at the innermost frame
    outside tracegraph (the user's call, however deep inside tracegraph it traced)."""
    level, frame = 1, sys._getframe(1)
    while frame.f_back is not None and frame.f_code.co_filename.startswith(_PACKAGE):
        frame = frame.f_back
        level += 1
    return level


class RetracingWarning(UserWarning):
    """A tf.function keeps tracing: each trace costs far more than a call."""


def describe_leaves(leaves: list) -> dict:
    """{path: readable description} of a call's leaves [(path, value, key)]."""
    return {path: describe_leaf(v) for path, v, _ in leaves}


def explain_change(previous: dict | None, current: dict) -> list[str]:
    """What differs between two calls' described leaves, as readable lines."""
    if previous is None:
        return ["first call"]
    lines = []
    for path, now in current.items():
        before = previous.get(path)
        if before is None:
            lines.append(f"argument '{path}' is new: {now}")
        elif before != now:
            hint = ""
            if "Tensor" not in before and "Tensor" not in now:
                hint = " (Python values are part of the trace key; pass a tensor instead)"
            lines.append(f"argument '{path}' changed from {before} to {now}{hint}")
    lines += [f"argument '{path}' is gone (was {was})" for path, was in previous.items()
              if path not in current]
    return lines or ["a Python object argument is a different object (keyed by identity)"]


class RetraceDetector:
    """Remembers which calls traced (by their number, counted by the call table) and warns
    once when tracing becomes frequent."""

    def __init__(self, name: str):
        self.name = name
        self.trace_calls: deque = deque(maxlen=WINDOW)   # call numbers that traced
        self.warned = False
        self.history: deque = deque(maxlen=32)      # described leaves of recent traces
        self.last_change: list[str] = []

    def closest(self, described: dict) -> dict | None:
        """The earlier trace (the latest among ties) that differs in the fewest arguments."""
        if not self.history:
            return None
        return min(reversed(self.history),
                   key=lambda old: len(explain_change(old, described)))

    def failed(self, calls: int) -> None:
        """A call raised and `calls` no longer counts it: nor do the traces it made."""
        while self.trace_calls and self.trace_calls[-1] > calls:
            self.trace_calls.pop()

    def traced(self, leaves: list, calls: int) -> None:
        """Records a successful trace made by call number `calls`; warns when 5 of the last
        10 calls traced."""
        described = describe_leaves(leaves)
        change = explain_change(self.closest(described), described)
        self.last_change = change
        self.history.append(described)
        if self.trace_calls and self.trace_calls[-1] == calls:
            return   # this call already traced (a recursive call traces again)
        self.trace_calls.append(calls)
        recent = [c for c in self.trace_calls if c > calls - WINDOW]
        if len(recent) >= THRESHOLD and not self.warned:
            self.warned = True
            where = user_location(3)
            site = f" Called from {where}." if where else ""
            warnings.warn(
                f"{len(recent)} out of the last {min(calls, WINDOW)} calls to {self.name} "
                f"triggered tf.function retracing. Tracing is expensive. This retrace: "
                f"{'; '.join(change)}.{site} To avoid it, pass tensors instead of Python values, "
                "use input_signature or reduce_retracing=True, and define the tf.function "
                "outside loops.", RetracingWarning, stacklevel=user_stacklevel())
