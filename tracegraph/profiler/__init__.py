"""`tf.profiler`: profiles of tracegraph's op execution (eager ops and graph executions) that
TensorBoard's profile plugin and Perfetto open. See `sessions.py`."""

from .sessions import Profile, ProfilerOptions, Trace, start, stop, trace_dir, warmup

__all__ = ["Profile", "ProfilerOptions", "Trace", "start", "stop", "warmup", "trace_dir"]
