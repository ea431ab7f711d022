"""The profile in Chrome's trace-event format (`<host>.trace.json.gz` beside the XSpace), which
Perfetto (ui.perfetto.dev) and chrome://tracing open: one complete ("X") event per op, function
call and `Trace` block, times in microseconds from the profile's start, a track per thread
named as in the XSpace, the op's type and user line as its args."""

from __future__ import annotations

import gzip
import json

__all__ = ["to_trace_events", "write_trace_events"]


def to_trace_events(recorder, hostname: str) -> dict:
    events = [{"ph": "M", "pid": 0, "name": "process_name", "args": {"name": hostname}}]
    start = recorder.start_ns
    for tid, name, thread_events in recorder.threads:
        events.append({"ph": "M", "pid": 0, "tid": tid, "name": "thread_name",
                       "args": {"name": name}})
        for (event_name, display, stats), t0, t1 in list(thread_events):
            args = dict(stats)
            if display:
                args["type"] = display
            events.append({"ph": "X", "pid": 0, "tid": tid, "name": event_name,
                           "ts": (t0 - start) / 1000, "dur": max(t1 - t0, 0) / 1000,
                           "args": args})
    return {"traceEvents": events, "displayTimeUnit": "ns"}


def write_trace_events(recorder, hostname: str, path) -> None:
    with gzip.open(path, "wt", encoding="utf-8") as f:
        json.dump(to_trace_events(recorder, hostname), f)
