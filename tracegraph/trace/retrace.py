"""The retracing detector (SPEC R-2.7).

TensorFlow warns when 5 of the last 10 calls of a Function traced. tracegraph does too, and says
which argument changed, from what to what, and where the call came from. As in TensorFlow, a
call counts once however many traces it caused (a recursive function traces once per depth in
one call), and a call that failed does not count.

The detector keeps descriptions of the arguments of recent traces, never the arguments
themselves: a tensor or object passed once is not kept alive by it.
"""

from __future__ import annotations

import warnings
from collections import deque

from ..graph.source import user_location
from .keys import describe_leaf

__all__ = ["RetracingWarning", "RetraceDetector", "explain_change", "describe_leaves"]

WINDOW = 10
THRESHOLD = 5


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
    """Counts calls and the calls that traced; warns once when tracing becomes frequent."""

    def __init__(self, name: str):
        self.name = name
        self.calls = 0                              # calls that completed (or are running)
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

    def failed(self) -> None:
        """A call raised: it does not count (nor do the traces it made)."""
        self.calls = max(self.calls - 1, 0)
        while self.trace_calls and self.trace_calls[-1] > self.calls:
            self.trace_calls.pop()

    def traced(self, leaves: list, stacklevel: int = 4) -> None:
        """Records a successful trace made by the current call; warns when 5 of the last 10
        calls traced."""
        described = describe_leaves(leaves)
        change = explain_change(self.closest(described), described)
        self.last_change = change
        self.history.append(described)
        if self.trace_calls and self.trace_calls[-1] == self.calls:
            return   # this call already traced (a recursive call traces again)
        self.trace_calls.append(self.calls)
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
                "outside loops.", RetracingWarning, stacklevel=stacklevel)
