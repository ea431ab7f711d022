"""The profiler's recording point (`tf.profiler.experimental`), read by the layers that run ops.

`recorder` is None unless a profile is being taken: then it is a `Recorder`, which collects
timed events per thread. The executors look at it when they compile a graph (generated code
with a timing line around each op, an interpreter that times each step) and the eager
context while the profile runs, so nothing changes and nothing is paid when it is None. The
profiler's public API and its file formats live in `tracegraph/profiler/`.
"""

from __future__ import annotations

import os
import threading
import time

__all__ = ["Recorder", "recorder", "now", "op_meta", "set_recorder"]

now = time.perf_counter_ns
recorder: Recorder | None = None


def set_recorder(new: Recorder | None) -> None:
    """Starts (a Recorder) or ends (None) the profile being taken (profiler/sessions.py)."""
    global recorder
    recorder = new


def op_meta(name: str, op_type: str, source) -> tuple:
    """What an op's events carry: TensorFlow's "name:type" event name, the type shown, and the
    user's line that created the op."""
    stats = {"source_info": str(source)} if source is not None else {}
    return (f"{name}:{op_type}", op_type, stats)


class _Thread(threading.local):
    events: list | None = None


class Recorder:
    """Timed events of every thread while a profile is taken: (meta, start_ns, end_ns), meta
    being (name, display name, stats), times from `now()` (`time.perf_counter_ns`)."""

    def __init__(self, logdir: str, options=None):
        self.logdir = os.fspath(logdir)
        self.options = options
        self.start_ns = now()
        self.epoch_ns = time.time_ns()
        self.stop_ns: int | None = None
        self.threads: list[tuple[int, str, list]] = []   # (native id, name, events)
        self.traced: set[str] = set()   # functions traced meanwhile, not called since
        self._local = _Thread()
        self._lock = threading.Lock()

    def events(self) -> list:
        """This thread's event list (made on its first event)."""
        found = self._local.events
        if found is None:
            found = self._local.events = []
            thread = threading.current_thread()
            name = "python" if thread is threading.main_thread() else thread.name
            with self._lock:
                self.threads.append((threading.get_native_id(), name, found))
        return found

    def op(self, meta: tuple, start: int) -> None:
        """An op that ran from `start` until now (the executors' call)."""
        end = now()
        self.events().append((meta, start, end))

    def event(self, name: str, start: int, end: int, display: str = "",
              stats: dict | None = None) -> None:
        self.events().append(((name, display, stats or {}), start, end))

    def function_call_mode(self, name: str, xla: bool) -> str:
        """TensorFlow's `tf_function_call` stat of a call of function `name`: whether the call
        traced it ("traced-nonXla") or ran an existing trace ("notTraced-nonXla")."""
        traced = name in self.traced
        self.traced.discard(name)
        return f"{'traced' if traced else 'notTraced'}-{'xla' if xla else 'nonXla'}"

    def stop(self) -> None:
        self.stop_ns = now()

    def epoch(self, t: int) -> int:
        """A `now()` time as nanoseconds since the epoch."""
        return self.epoch_ns + (t - self.start_ns)
