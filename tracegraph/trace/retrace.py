"""The retracing detector (SPEC R-2.7).

TensorFlow warns when 5 of the last 10 calls of a Function traced. tracegraph does too, and says
which argument changed, from what to what, and where the call came from.
"""

from __future__ import annotations

import warnings
from collections import deque

from ..graph.source import user_location
from .keys import describe_leaf

__all__ = ["RetracingWarning", "RetraceDetector", "explain_change"]

WINDOW = 10
THRESHOLD = 5


class RetracingWarning(UserWarning):
    """A tf.function keeps tracing: each trace costs far more than a call."""


def explain_change(previous: list | None, current: list) -> list[str]:
    """What differs between two calls' leaves [(path, value, key)], as readable lines."""
    if previous is None:
        return ["first call"]
    old = {path: describe_leaf(v) for path, v, _ in previous}
    new = {path: describe_leaf(v) for path, v, _ in current}
    lines = []
    for path in new:
        if path not in old:
            lines.append(f"argument '{path}' is new: {new[path]}")
        elif old[path] != new[path]:
            hint = ""
            if "Tensor" not in old[path] and "Tensor" not in new[path]:
                hint = " (Python values are part of the trace key; pass a tensor instead)"
            lines.append(f"argument '{path}' changed from {old[path]} to {new[path]}{hint}")
    lines += [f"argument '{path}' is gone (was {old[path]})" for path in old if path not in new]
    return lines or ["a Python object argument is a different object (keyed by identity)"]


class RetraceDetector:
    """Counts calls and traces; warns once when tracing becomes frequent."""

    def __init__(self, name: str):
        self.name = name
        self.calls = 0
        self.trace_calls: deque = deque(maxlen=WINDOW)
        self.warned = False
        self.last_leaves: list | None = None
        self.history: deque = deque(maxlen=32)   # leaves of recent traces
        self.last_change: list[str] = []

    def closest(self, leaves: list) -> list | None:
        """The earlier trace (the latest among ties) that differs from `leaves` in the fewest
        arguments."""
        if not self.history:
            return None
        return min(reversed(self.history), key=lambda old: len(explain_change(old, leaves)))

    def traced(self, leaves: list) -> None:
        """Records a trace at the current call; warns when 5 of the last 10 calls traced."""
        self.trace_calls.append(self.calls)
        change = explain_change(self.closest(leaves), leaves)
        self.last_change = change
        self.last_leaves = leaves
        self.history.append(leaves)
        recent = [c for c in self.trace_calls if c > self.calls - WINDOW]
        if len(recent) >= THRESHOLD and not self.warned:
            self.warned = True
            where = user_location(3)
            site = f" Called from {where}." if where else ""
            warnings.warn(
                f"{len(recent)} out of the last {min(self.calls, WINDOW)} calls to {self.name} "
                f"triggered tf.function retracing. Tracing is expensive. This retrace: "
                f"{'; '.join(change)}.{site} To avoid it, pass tensors instead of Python values, "
                "use input_signature or reduce_retracing=True, and define the tf.function "
                "outside loops.", RetracingWarning, stacklevel=4)
