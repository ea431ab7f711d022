"""`tf.summary`: event files TensorBoard reads, written eagerly and from inside `tf.function`.

    writer = tf.summary.create_file_writer("logs/run1")
    with writer.as_default():
        tf.summary.scalar("loss", loss, step=step)

A write is an op (`WriteSummary`, `WriteHistogramSummary`): eagerly it writes at once; while
tracing it is recorded as a stateful op that writes at every call, reading the writer through a
captured resource handle (the default writer when the function was traced, as in TensorFlow).
Graphs are written with `tf.summary.graph` or, for the functions called between `trace_on` and
`trace_export`, as TensorBoard's run-metadata graphs (traced and optimized graph of each).
"""

from __future__ import annotations

import contextlib
import threading

import numpy as np

from ... import dtypes as d
from ...framework.variables import ResourceHandle
from ...graph.building import control_dependencies
from ...graph.graph import Graph
from ...library.array import identity
from ...library.math import cast
from ...ops import summary as summary_ops
from ...ops.registry import bind, convert_to_tensor, current_context
from ...optional_extras import require
from ...profiler import start as start_profile
from ...profiler import stop as stop_profile
from ...tf_logging import get_logger
from ...trace import call_log
from ..tensorflow.protos import graph_def_proto, protos
from .event_file import EventFileWriter

__all__ = [
    "SummaryWriter", "create_file_writer", "create_noop_writer", "scalar", "histogram", "text",
    "write", "flush", "graph", "trace_on", "trace_off", "trace_export", "record_if",
    "should_record_summaries", "set_step", "get_step", "summary_scope",
]


class _State(threading.local):
    def __init__(self):
        self.writer = None
        self.step = None
        self.record = True


_state = _State()


class SummaryWriter:
    """A writer of one event file (`tf.summary.create_file_writer`)."""

    def __init__(self, logdir, max_queue=None, flush_millis=None, filename_suffix=None):
        require("tensorboard", "tensorboard", "tf.summary.create_file_writer")
        self._logdir = str(logdir)
        self._events = EventFileWriter(
            self._logdir, max_queue=10 if max_queue is None else max_queue,
            flush_millis=120_000 if flush_millis is None else flush_millis,
            filename_suffix=".v2" if filename_suffix is None else filename_suffix)
        self._handle = ResourceHandle(self._events, d.resource, (), "SummaryWriter")

    @property
    def handle(self) -> ResourceHandle:
        return self._handle

    @contextlib.contextmanager
    def as_default(self, step=None):
        """Makes this the default writer (and `step`, if given, the default step) inside."""
        old_writer, old_step = _state.writer, _state.step
        _state.writer = self
        if step is not None:
            _state.step = step
        try:
            yield self
        finally:
            self.flush()
            _state.writer, _state.step = old_writer, old_step

    def set_as_default(self, step=None) -> None:
        _state.writer = self
        if step is not None:
            _state.step = step

    def init(self):
        return None

    def flush(self):
        if self._handle.value is None:
            return None
        return bind(summary_ops.flush_summary_writer_op, (self._handle,))

    def close(self) -> None:
        events = self._handle.value
        if events is not None:
            events.close()
            self._handle.value = None

    @property
    def event_file(self) -> str:
        return self._events.path

    def __repr__(self):
        return f"<SummaryWriter logdir={self._logdir!r}>"


class _NoopWriter:
    """`tf.summary.create_noop_writer()`: a default writer that writes nothing."""

    @contextlib.contextmanager
    def as_default(self, step=None):
        old_writer, old_step = _state.writer, _state.step
        _state.writer = None
        if step is not None:
            _state.step = step
        try:
            yield self
        finally:
            _state.writer, _state.step = old_writer, old_step

    def set_as_default(self, step=None):
        _state.writer = None
        if step is not None:
            _state.step = step

    def init(self):
        return None

    def flush(self):
        return None

    def close(self):
        return None


def create_file_writer(logdir, max_queue=None, flush_millis=None, filename_suffix=None,
                       name=None, experimental_trackable=False, experimental_mesh=None):
    """A SummaryWriter writing a new event file in `logdir` (created if needed)."""
    if logdir is None:
        raise ValueError("Expected logdir to be a string path, got None.")
    return SummaryWriter(logdir, max_queue, flush_millis, filename_suffix)


def create_noop_writer():
    return _NoopWriter()


# ---- the default step and recording condition ----------------------------------------------

def set_step(step) -> None:
    """`tf.summary.experimental.set_step`: the step used when a write gives none."""
    _state.step = step


def get_step():
    return _state.step


@contextlib.contextmanager
def record_if(condition):
    """`tf.summary.record_if`: writes inside record only while `condition` holds (a Python
    bool, or a callable returning one, evaluated when a write is made)."""
    old = _state.record
    _state.record = condition
    try:
        yield
    finally:
        _state.record = old


def _recording() -> bool:
    record = _state.record
    return _state.writer is not None and bool(record() if callable(record) else record)


def should_record_summaries():
    """`tf.summary.should_record_summaries`: a bool tensor, True when a write would record."""
    return convert_to_tensor(_recording())


@contextlib.contextmanager
def summary_scope(name, default_name=None, values=None):
    """`tf.summary.experimental.summary_scope`: yields (tag, scope name) for a summary."""
    tag = name or default_name
    yield tag, tag


# ---- writes ----------------------------------------------------------------------------------

def _step_tensor(step):
    if step is None:
        step = _state.step
    if step is None:
        raise ValueError("No step set. Please specify one either through the `step` argument "
                         "or through tf.summary.experimental.set_step()")
    return convert_to_tensor(step, dtype=d.int64)


def _written(op):
    """TensorFlow's return value of a write: a True bool tensor once the write is done."""
    if current_context().executing_eagerly:
        return convert_to_tensor(True)
    with control_dependencies([op]):
        return identity(True)


def write(tag, tensor, step=None, metadata=None, name=None):
    """`tf.summary.write`: writes `tensor` under `tag`; returns True if written (False when
    there is no default writer or recording is off)."""
    if not _recording():
        return convert_to_tensor(False)
    if metadata is None:
        metadata = b""
    elif not isinstance(metadata, (bytes, str)):
        metadata = metadata.SerializeToString()
    op = bind(summary_ops.write_summary_op,
              (_state.writer.handle, _step_tensor(step), tensor, str(tag),
               metadata if isinstance(metadata, bytes) else metadata.encode("utf-8")),
              name=name)
    return _written(op)


def _metadata(plugin: str, description) -> bytes:
    module = {"scalars": "scalar", "histograms": "histogram", "text": "text"}[plugin]
    import importlib
    meta = importlib.import_module(f"tensorboard.plugins.{module}.metadata")
    protos()  # the extra's check, with its message
    message = meta.create_summary_metadata(display_name=None, description=description or "")
    return message.SerializeToString()


def scalar(name, data, step=None, description=None):
    """`tf.summary.scalar`: a real number, written as float32, shown in the Scalars tab."""
    if not _recording():
        return convert_to_tensor(False)
    value = cast(convert_to_tensor(data), d.float32)
    return write(name, value, step, _metadata("scalars", description))


def text(name, data, step=None, description=None):
    """`tf.summary.text`: a string tensor (Markdown), shown in the Text tab."""
    if not _recording():
        return convert_to_tensor(False)
    value = convert_to_tensor(data)
    if value.dtype is not d.string:
        raise TypeError(f"tf.summary.text expects a string tensor, got {value.dtype.name}")
    return write(name, value, step, _metadata("text", description))


def histogram(name, data, step=None, buckets=None, description=None):
    """`tf.summary.histogram`: the values bucketed into `buckets` (30) equal-width buckets,
    shown in the Histograms and Distributions tabs."""
    if not _recording():
        return convert_to_tensor(False)
    values = convert_to_tensor(data)
    if values.dtype is d.bool or not (values.dtype.is_floating or values.dtype.is_integer):
        values = cast(values, d.float64)
    op = bind(summary_ops.write_histogram_summary_op,
              (_state.writer.handle, _step_tensor(step), str(name), values,
               _metadata("histograms", description)),
              {"buckets": summary_ops.DEFAULT_BUCKET_COUNT if buckets is None else int(buckets)})
    return _written(op)


def flush(writer=None, name=None):
    """`tf.summary.flush`: pushes buffered events of `writer` (the default one) to disk."""
    writer = writer if writer is not None else _state.writer
    if writer is None:
        return None
    return writer.flush()


# ---- graphs ----------------------------------------------------------------------------------

def _graph_message(graph_data):
    if isinstance(graph_data, Graph):
        return graph_def_proto(graph_data)
    if hasattr(graph_data, "SerializeToString"):
        return graph_data
    concrete_graph = getattr(graph_data, "graph", None)
    if isinstance(concrete_graph, Graph):
        return graph_def_proto(concrete_graph)
    raise TypeError(f"tf.summary.graph expects a tf.Graph or a GraphDef, got "
                    f"{type(graph_data).__name__}.")


def graph(graph_data):
    """`tf.summary.graph`: writes a Graph (or GraphDef) as the run's graph (eagerly only)."""
    if not current_context().executing_eagerly:
        raise ValueError("tf.summary.graph() must be invoked eagerly.")
    if not _recording():
        return False
    _state.writer.handle.value.add_graph(_graph_message(graph_data))
    return True


_profiling = False   # whether trace_on started the profiler (trace_export / trace_off stop it)


def trace_on(graph=True, profiler=False, profiler_outdir=None):
    """Starts recording the graphs of the `tf.function`s called from now on; with `profiler`,
    also a profile (`tf.profiler.experimental`) written to `profiler_outdir` when the trace
    is exported or turned off."""
    global _profiling
    if not current_context().executing_eagerly:
        import warnings
        warnings.warn("Must enable trace in eager mode.", stacklevel=2)
        return
    if profiler:
        if profiler_outdir is None:
            get_logger().warning("No `profiler_outdir` passed to trace_on(). Profiler won't be "
                                 "enabled.")
        else:
            start_profile(profiler_outdir)
            _profiling = True
    if graph or profiler:
        call_log.start()
    else:
        call_log.stop()


def trace_off():
    """Stops recording and drops what was recorded (a profile trace_on started is written)."""
    global _profiling
    call_log.stop()
    if _profiling:
        _profiling = False
        stop_profile()


def _run_metadata(functions):
    p = protos()
    run_metadata = p.config_pb2.RunMetadata()
    for concrete in functions:
        entry = run_metadata.function_graphs.add()
        entry.pre_optimization_graph.CopyFrom(graph_def_proto(concrete.graph))
        entry.post_optimization_graph.CopyFrom(graph_def_proto(concrete.optimized_graph))
    return run_metadata


def trace_export(name, step=None, profiler_outdir=None):
    """Writes the traced and the optimized graph of every function called since `trace_on`
    under tag `name` (TensorBoard's Graphs tab lists it as a tag of the run), then stops."""
    recorder = call_log.current
    if not current_context().executing_eagerly:
        raise ValueError("Must export trace in eager mode.")
    if _profiling and profiler_outdir:
        get_logger().warning("Ignoring `profiler_outdir` passed to trace_export(). Please pass "
                             "it to trace_on() instead.")
    if recorder is None:
        import warnings
        warnings.warn("Cannot export trace before turning it on: call tf.summary.trace_on() "
                      "first.", stacklevel=2)
        return
    try:
        if not _recording():
            return
        step = _state.step if step is None else step
        if step is None:
            raise ValueError("No step set. Please specify one either through the `step` "
                             "argument or through tf.summary.experimental.set_step()")
        p = protos()
        meta = p.summary_pb2.SummaryMetadata(plugin_data=p.summary_pb2.SummaryMetadata.
                                             PluginData(plugin_name="graph_run_metadata_graph",
                                                        content=b"1"))
        blob = np.array(_run_metadata(recorder.functions).SerializeToString(), dtype=object)
        _state.writer.handle.value.write_tensor(int(np.asarray(step)), str(name), blob,
                                                meta.SerializeToString())
    finally:
        trace_off()
