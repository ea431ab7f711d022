"""The log of functions called while it is on, as TensorFlow's eager context collects the graphs
of the functions it runs: `tf.summary.trace_on(graph=True)` starts it, `trace_export` and
`trace_off` stop it (formats/tensorboard/summary.py). A ConcreteFunction run from eager code adds
itself (`ConcreteFunction.call_flat_values`); the log is data the TensorBoard format reads, never
a call into it."""

from __future__ import annotations

import threading

__all__ = ["CallLog", "current", "start", "stop"]


class CallLog:
    """The ConcreteFunctions called since the log started, in first-call order, each once."""

    def __init__(self):
        self.functions: list = []
        self._ids: set = set()
        self._lock = threading.Lock()

    def add(self, concrete) -> None:
        if id(concrete) in self._ids:
            return
        with self._lock:
            if id(concrete) not in self._ids:
                self._ids.add(id(concrete))
                self.functions.append(concrete)


current: CallLog | None = None   # the log being written, if any


def start() -> CallLog:
    """Starts a new, empty log (dropping one that was on)."""
    global current
    current = CallLog()
    return current


def stop() -> CallLog | None:
    """Ends the log and returns it (None if none was on)."""
    global current
    log, current = current, None
    return log
