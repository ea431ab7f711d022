"""An event file: TensorBoard's `events.out.tfevents.*` records, written with the `tensorboard`
package's protos and record writer (TFRecord framing with masked CRCs), no TensorFlow import.

Events are buffered and reach the disk when `max_queue` are pending, when `flush_millis` have
passed since the last flush, on `flush()` and on `close()` (as TensorFlow's writer does).
"""

from __future__ import annotations

import itertools
import os
import socket
import threading
import time
import weakref

from ..tensorflow.protos import protos, tensor_proto

__all__ = ["EventFileWriter"]

_uids = itertools.count(1)


class EventFileWriter:
    """Appends events to one new event file in `logdir`."""

    def __init__(self, logdir: str, max_queue: int = 10, flush_millis: int = 120_000,
                 filename_suffix: str = ".v2"):
        from tensorboard.summary.writer.record_writer import RecordWriter
        os.makedirs(logdir, exist_ok=True)
        name = (f"events.out.tfevents.{int(time.time()):010d}.{socket.gethostname()}."
                f"{os.getpid()}.{next(_uids)}{filename_suffix}")
        self.logdir = logdir
        self.path = os.path.join(logdir, name)
        self._file = open(self.path, "wb")  # noqa: SIM115 - closed by close() or finalizer
        self._records = RecordWriter(self._file)
        self._finalizer = weakref.finalize(self, self._file.close)
        self._lock = threading.Lock()
        self._max_queue = max(int(max_queue), 1)
        self._flush_seconds = flush_millis / 1000.0
        self._pending = 0
        self._last_flush = time.monotonic()
        self.closed = False
        self._add(protos().event_pb2.Event(wall_time=time.time(), file_version="brain.Event:2"))
        self.flush()

    # --- events ----------------------------------------------------------------------------
    def _add(self, event) -> None:
        data = event.SerializeToString()
        with self._lock:
            if self.closed:
                raise ValueError(f"The event file {self.path} is closed.")
            self._records.write(data)
            self._pending += 1
            due = (self._pending >= self._max_queue or
                   time.monotonic() - self._last_flush >= self._flush_seconds)
        if due:
            self.flush()

    def write_tensor(self, step: int, tag: str, array, metadata: bytes) -> None:
        """One tensor summary (the TensorFlow 2 form of every `tf.summary` write)."""
        p = protos()
        summary = p.summary_pb2.Summary()
        value = summary.value.add(tag=tag, tensor=tensor_proto(array))
        if metadata:
            value.metadata.ParseFromString(metadata)
        self._add(p.event_pb2.Event(wall_time=time.time(), step=int(step), summary=summary))

    def add_graph(self, graph_def, step: int = 0) -> None:
        """A GraphDef message as a graph event (TensorBoard's default graph of the run)."""
        self._add(protos().event_pb2.Event(wall_time=time.time(), step=int(step),
                                           graph_def=graph_def.SerializeToString()))

    def reference_sink(self) -> _Sink:
        """What the executors' cross-check gives its reference run instead of this file."""
        return _Sink()

    # --- lifetime --------------------------------------------------------------------------
    def flush(self) -> None:
        with self._lock:
            if self.closed:
                return
            self._records.flush()
            self._pending = 0
            self._last_flush = time.monotonic()

    def close(self) -> None:
        self.flush()
        with self._lock:
            if not self.closed:
                self.closed = True
                self._finalizer()


class _Sink:
    """Accepts writes and keeps them in memory (see `EventFileWriter.reference_sink`)."""

    def __init__(self):
        self.records: list = []

    def write_tensor(self, step, tag, array, metadata) -> None:
        self.records.append((step, tag, array, metadata))

    def flush(self) -> None:
        return None
