"""Where the jit executor's kernels are built: numba found and imported, generated sources
loaded from the cache directory, and compiled on one background thread or on the caller's.

Kernels are written to files under the cache directory (`TRACEGRAPH_CACHE_DIR`, default
`~/.cache/tracegraph/jit`) named by a hash of their source, so numba's own cache finds the
machine code in a new process; kernels are named by what they compute (execute/jit.py), so
identical clusters of different functions share one file and one compilation. By default a
kernel compiles on a background thread (`tracegraph-jit-compile`, which also imports numba,
about half a second) while its cluster is answered op by op with the same results;
`TRACEGRAPH_JIT_BACKGROUND=0` or `set_background_compile(False)` compiles on the calling
thread at the first call instead. `wait_for_kernels()` waits for the background work.
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
import pathlib
import queue
import sys
import threading
import time

__all__ = ["numba_available", "import_numba", "warn_without_numba", "load", "KernelCompile",
           "build", "set_background_compile", "background_compile", "wait_for_kernels"]

_numba = None          # the numba module once imported (False: not installed)
_installed = None


def numba_available() -> bool:
    """Whether numba is installed (found without importing it: the import, about half a
    second, happens where a kernel is first compiled, in the background by default)."""
    global _installed
    if _installed is None:
        if _numba is not None:
            _installed = bool(_numba)
        else:
            _installed = importlib.util.find_spec("numba") is not None
    return _installed


def import_numba():
    global _numba
    if _numba is None:
        import numba
        _numba = numba
    return _numba


_warned = False


def warn_without_numba() -> None:
    """Once per process: jit_compile=True runs unfused without the `numba` extra."""
    global _warned
    if not _warned:
        _warned = True
        import warnings
        warnings.warn("jit_compile=True needs numba to fuse ops into compiled kernels; "
                      "install it with `pip install 'tracegraph[numba]'`. Running unfused.",
                      UserWarning, stacklevel=4)


def _cache_dir() -> pathlib.Path | None:
    root = os.environ.get("TRACEGRAPH_CACHE_DIR")
    path = pathlib.Path(root) / "jit" if root else pathlib.Path.home() / ".cache" / \
        "tracegraph" / "jit"
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError:
        return None
    return path if os.access(path, os.W_OK) else None


_load_lock = threading.Lock()


def load(source: str, name: str):
    with _load_lock:
        return _load_locked(source, name)


def _load_locked(source: str, name: str):
    digest = hashlib.sha1(source.encode()).hexdigest()[:16]
    module_name = f"tracegraph_jit_{digest}"
    if module_name in sys.modules:
        return getattr(sys.modules[module_name], name)
    directory = _cache_dir()
    if directory is not None:
        path = directory / f"{module_name}.py"
        if not path.exists():
            tmp = path.with_suffix(f".{os.getpid()}.tmp")
            tmp.write_text(source)
            os.replace(tmp, path)
        spec = importlib.util.spec_from_file_location(module_name, path)
        module = importlib.util.module_from_spec(spec)
        sys.modules[module_name] = module
        spec.loader.exec_module(module)
    else:   # no writable cache: compile in memory (numba cannot cache it)
        import types
        module = types.ModuleType(module_name)
        exec(compile(source.replace("cache=True", "cache=False"), module_name, "exec"),
             module.__dict__)
        sys.modules[module_name] = module
    return getattr(module, name)


# Kernels compile on one background thread while the cluster is served op by op with the same
# results (execute/jit_numpy.py); TRACEGRAPH_JIT_BACKGROUND=0 (or `set_background_compile`)
# compiles on the calling thread at the first call instead.
_background = os.environ.get("TRACEGRAPH_JIT_BACKGROUND", "1") != "0"
_jobs: queue.SimpleQueue = queue.SimpleQueue()
_worker: threading.Thread | None = None
_pending = [0]
_idle = threading.Condition()


def set_background_compile(enabled: bool) -> None:
    global _background
    _background = bool(enabled)


def background_compile() -> bool:
    return _background


def _work() -> None:
    while True:
        job = _jobs.get()
        try:
            job()
        finally:
            with _idle:
                _pending[0] -= 1
                _idle.notify_all()


def _submit(job) -> None:
    global _worker
    with _idle:
        _pending[0] += 1
    if _worker is None:
        _worker = threading.Thread(target=_work, name="tracegraph-jit-compile", daemon=True)
        _worker.start()
    _jobs.put(job)


_generation = [0]   # bumped in a forked child: the parent's compile thread is not there


def _after_fork_in_child() -> None:
    global _jobs, _worker, _pending, _idle
    _jobs, _worker, _pending, _idle = queue.SimpleQueue(), None, [0], threading.Condition()
    _generation[0] += 1


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_after_fork_in_child)


def wait_for_kernels(timeout: float | None = None) -> bool:
    """Waits until the kernels being compiled in the background are ready (False: timed out)."""
    with _idle:
        return _idle.wait_for(lambda: _pending[0] == 0, timeout)


class KernelCompile:
    """What compiling one kernel of a cluster took (for the first-call report)."""

    @property
    def compiling(self) -> bool:
        """Still compiling in the background (a record from before a fork never finishes in
        the child: it compiles again)."""
        return self.seconds is None and self.error is None and \
            self.generation == _generation[0]

    __slots__ = ("name", "pattern", "parallel", "seconds", "cached", "served", "where",
                 "error", "generation")

    def __init__(self, name: str, pattern: str, parallel: bool, where: str):
        self.name, self.pattern, self.parallel, self.where = name, pattern, parallel, where
        self.generation = _generation[0]
        self.seconds: float | None = None   # None: not ready yet
        self.cached: bool | None = None     # machine code loaded from numba's cache
        self.served = 0                     # calls answered op by op while it compiled
        self.error: BaseException | None = None


def _cache_hits(dispatcher) -> int:
    stats = getattr(dispatcher, "stats", None)
    return sum(getattr(stats, "cache_hits", {}).values()) if stats is not None else 0




def build(record: KernelCompile, source: str, name: str, warm, background: bool, ready):
    """Compiles `source`'s function `name`: `warm(dispatcher)` compiles the specialization the
    calls use, `ready(dispatcher)` publishes it; on the background thread when `background`
    (returns None), else here (returns the dispatcher, or raises numba's error)."""
    def run():
        start = time.perf_counter()
        try:
            import_numba()
            kernel = load(source, name)
            before = _cache_hits(kernel)
            warm(kernel)
            record.cached = _cache_hits(kernel) > before
        except BaseException as e:  # noqa: BLE001 - raised on the caller's thread
            record.error = e
            if not background:
                raise
            return None
        ready(kernel)
        record.seconds = time.perf_counter() - start
        return kernel
    if background:
        _submit(run)
        return None
    return run()
