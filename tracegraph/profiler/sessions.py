"""`tf.profiler.experimental`: `start(logdir)` / `stop()`, the `Profile` context, `Trace` blocks.

While a profile is taken, `tracegraph.profiling.recorder` collects timed events: every eager op
(the eager context's `apply` is wrapped for the duration), every op of every graph compiled
meanwhile (generated code with a timing line around each op, the interpreter timing each step;
compiled code is keyed by the profile, so the untimed code runs again after `stop()`), every
call of such a graph, and the `Trace` blocks. Each op's event is named `name:Type` as
TensorFlow names host op events, and carries the user's line that created it (`source_info`).
`stop()` writes `<logdir>/plugins/profile/<run>/<host>.xplane.pb`, which TensorBoard's profile
plugin opens, and `<host>.trace.json.gz` beside it for Perfetto and chrome://tracing.
"""

from __future__ import annotations

import collections
import os
import socket
import threading
import time
import types

from .. import config, profiling
from ..errors import AlreadyExistsError, UnavailableError
from ..framework.eager import EAGER, EagerContext
from ..graph.source import user_location
from .chrome_trace import write_trace_events
from .xspace import to_xspace

__all__ = ["ProfilerOptions", "start", "stop", "Profile", "Trace", "warmup", "trace_dir"]

_lock = threading.Lock()
_profiles = 0
_eager_apply = None   # the eager context's own `apply` while it is wrapped


class ProfilerOptions(collections.namedtuple(
        "ProfilerOptions", ["host_tracer_level", "python_tracer_level", "device_tracer_level",
                            "delay_ms"])):
    """TensorFlow's profiler options (tracegraph records host ops at every level)."""

    def __new__(cls, host_tracer_level=2, python_tracer_level=0, device_tracer_level=1,
                delay_ms=None):
        return super().__new__(cls, host_tracer_level, python_tracer_level,
                               device_tracer_level, delay_ms)


def start(logdir, options=None) -> None:
    """Starts taking a profile, written to `logdir` by `stop()`."""
    global _profiles
    with _lock:
        if profiling.recorder is not None:
            raise AlreadyExistsError(None, None, "Another profiler is running.")
        _profiles += 1
        profiling.set_recorder(profiling.Recorder(logdir, options))
        config.set_profiling(_profiles)
        _time_eager_ops(profiling.recorder)


def stop(save: bool = True) -> None:
    """Stops the profile and (`save`) writes it to its logdir."""
    with _lock:
        recorder = profiling.recorder
        if recorder is None:
            raise UnavailableError(None, None,
                                   "Cannot export profiling results. No profiler is running.")
        recorder.stop()
        profiling.set_recorder(None)
        config.set_profiling(0)
        _untime_eager_ops()
    if save and recorder.logdir:
        write(recorder)


def warmup() -> None:
    start("")
    stop(save=False)


def trace_dir(logdir, run: str | None = None) -> str:
    """`<logdir>/plugins/profile/<run>`, TensorBoard's place for a profile's files."""
    run = run or time.strftime("%Y_%m_%d_%H_%M_%S")
    return os.path.join(os.fspath(logdir), "plugins", "profile", run)


def write(recorder) -> str:
    """Writes the XSpace (and the Chrome trace beside it); returns the run's directory."""
    host = socket.gethostname()
    directory = trace_dir(recorder.logdir, time.strftime(
        "%Y_%m_%d_%H_%M_%S", time.localtime(recorder.epoch_ns / 1e9)))
    os.makedirs(directory, exist_ok=True)
    space = to_xspace(recorder, host)
    with open(os.path.join(directory, f"{host}.xplane.pb"), "wb") as f:
        f.write(space.SerializeToString())
    write_trace_events(recorder, host, os.path.join(directory, f"{host}.trace.json.gz"))
    return directory


# ---- eager ops ---------------------------------------------------------------------------------

def _time_eager_ops(recorder) -> None:
    """Wraps the eager context's `apply` (an instance attribute, as its device-placement
    logging does): each op run eagerly becomes an event with the user's line."""
    global _eager_apply
    own = EAGER.__dict__.get("apply")
    if own is not None and not EAGER.runtime_started():
        own = None   # the first op's bookkeeping: the class's `apply` runs ops just the same
        config.mark_runtime_started()
    _eager_apply = own
    base = own if own is not None else types.MethodType(EagerContext.apply, EAGER)

    def timed_apply(op, inputs, attrs, name):
        outer = profiling.now()
        start = profiling.now()
        try:
            return base(op, inputs, attrs, name)
        finally:
            end = profiling.now()
            where = user_location(2)
            stats = {"is_eager": 1}
            if where is not None:
                stats["source_info"] = str(where)
            # As TensorFlow's: the op's event inside its "EagerExecute" (which names the op),
            # inside which XProf counts the op as eager.
            recorder.event("EagerExecute", outer, profiling.now(), "",
                           {"eager_op": op.tf_type, "is_func": 0})
            recorder.event("EagerKernelExecute", start, end)
            recorder.event(f"{op.tf_type}:{op.tf_type}", start, end, op.tf_type, stats)
    EAGER.apply = timed_apply


def _untime_eager_ops() -> None:
    if _eager_apply is None:
        EAGER.__dict__.pop("apply", None)
    else:
        EAGER.apply = _eager_apply


# ---- the context managers ------------------------------------------------------------------------

class Profile:
    """`with tf.profiler.experimental.Profile(logdir):` profiles the block."""

    def __init__(self, logdir, options=None):
        self._logdir = logdir
        self._options = options

    def __enter__(self):
        start(self._logdir, self._options)

    def __exit__(self, typ, value, tb):
        stop()


class Trace:
    """`with tf.profiler.experimental.Trace("train", step_num=step, _r=1):` an event of the
    profile being taken (nothing otherwise), with the keyword arguments as its stats
    (`step_num` marks a training step). Also a decorator: `@Trace("name")`."""

    def __init__(self, name, **kwargs):
        self._name = name
        self._stats = kwargs
        self._recorder = profiling.recorder
        self._start = None

    def __enter__(self):
        if self._recorder is not None:
            self._start = profiling.now()
        return self

    def set_metadata(self, **kwargs) -> None:
        self._stats.update(kwargs)

    def __exit__(self, *exc):
        if self._recorder is not None and self._start is not None:
            self._recorder.event(self._name, self._start, profiling.now(), "",
                                 dict(self._stats))
        return False

    def __call__(self, function):
        name, stats = self._name, self._stats

        def call(*args, **kwargs):
            with Trace(name, **stats):
                return function(*args, **kwargs)
        call.__name__ = getattr(function, "__name__", "call")
        call.__wrapped__ = function
        return call
