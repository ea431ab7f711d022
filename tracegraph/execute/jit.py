"""The jit executor's kernels: each `_FusedElementwise` cluster compiled into one numba loop.

For a cluster `relu(x * 1.5 + 0.25) * tanh(x) - 0.5 * x` the generated kernel reads each input
element once, computes the whole expression in registers and writes each exported value once:

    @numba.njit(cache=True, error_model="numpy", nogil=True)
    def cluster_0(n, input_0, output_0):
        for k in range(n):
            x0 = input_0[k]
            t1 = np.float32(x0 * np.float32(1.5))
            ...
            output_0[k] = t6

Every value is rounded to its graph dtype after each op, so arithmetic is bit for bit NumPy's.
Functions that libm computes one element at a time (`tanh` above all) are replaced by
branch-free approximations that vectorize (execute/jit_source.py, with their error bounds).
Inputs are passed by how they broadcast: a full array (index `k`), a scalar, or a row that
repeats along the leading dimensions (index `c` of a two-level loop); any other broadcast is
materialized first. Large outputs run the outer loop on numba's threads (`prange`).

Kernels are written to files under the cache directory (`TRACEGRAPH_CACHE_DIR`, default
`~/.cache/tracegraph/jit`) named by a hash of their source, so numba's own cache finds the
machine code in a new process. Without numba (the `numba` extra), `compile_cluster` returns
None and the cluster runs op by op.
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
import pathlib
import sys

import numpy as np

from .. import thread_budget
from .jit_source import APPROX_ULPS, Statements, cluster_source, loop_source

__all__ = ["compile_cluster", "cluster_is_exact", "numba_available", "JitKernel",
           "PARALLEL_THRESHOLD", "APPROX_ULPS"]

# Outputs with at least this many elements run their outer loop on numba's threads.
PARALLEL_THRESHOLD = 1 << 20

_numba = None


def numba_available() -> bool:
    global _numba
    if _numba is None:
        try:
            import numba
            _numba = numba
        except ImportError:
            _numba = False
    return bool(_numba)


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


def _load(source: str, name: str):
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


def _kernel_threads(size: int) -> None:
    """A parallel kernel's numba threads, from the thread budget (its size, the free cores,
    tf.config.threading's intra-op cap); numba's setting is per calling thread, so it is made
    before each parallel launch."""
    _numba.set_num_threads(min(thread_budget.kernel_threads(size),
                               _numba.config.NUMBA_NUM_THREADS))


class JitKernel:
    """A compiled cluster: called with the cluster's input arrays, returns its outputs. Falls
    back to `reference` (the cluster run op by op) for broadcasts it does not handle, such as
    a cluster whose ops do not all produce the full shape."""

    def __init__(self, graph, reference):
        self.graph = graph
        self.reference = reference
        self.inputs = list(graph.inputs)
        self.body = Statements(graph, [f"x{i}" for i in range(len(self.inputs))])
        self.output_dtypes = [np.dtype(t.dtype.as_numpy_dtype) for t in graph.outputs]
        self.name = "".join(ch if ch.isalnum() else "_" for ch in graph.name)
        self._plans: dict = {}    # input shapes -> (kernel, pattern, out shape, inner) or None
        self._kernels: dict = {}
        self.sources: dict = {}   # (pattern, parallel) -> generated source

    @property
    def exact(self) -> bool:
        return self.body.exact and not self.body.approximated

    @property
    def source(self) -> str:
        """The source of the kernels compiled so far (or of the all-full-arrays kernel)."""
        if not self.sources:
            return cluster_source(self.body, len(self.inputs), self.name,
                                  "F" * len(self.inputs), False)
        return "\n".join(self.sources.values())

    def __call__(self, *args):
        arrays = [a if isinstance(a, np.ndarray) else np.asarray(a) for a in args]
        shapes = tuple(a.shape for a in arrays)
        plan = self._plans.get(shapes, False)
        if plan is False:
            plan = self._plans[shapes] = self._plan(shapes)
        if plan is None:
            return self.reference(*args)
        pattern, shape, size, inner = plan
        parallel = size >= PARALLEL_THRESHOLD
        kernel = self._kernel(pattern, parallel)
        if parallel:
            _kernel_threads(size)
        outs = [np.empty(shape, dt) for dt in self.output_dtypes]
        if size:
            ins = []
            for a, kind in zip(arrays, pattern):
                if kind == "S":
                    ins.append(a.reshape(-1)[0])
                elif kind == "F":
                    ins.append(np.ascontiguousarray(a).reshape(-1))
                else:
                    ins.append(np.ascontiguousarray(a).reshape(-1))
            kernel(size, inner, *ins, *(o.reshape(-1) for o in outs))
        return tuple(outs)

    def _plan(self, shapes):
        try:
            shape = np.broadcast_shapes(*shapes)
        except ValueError:
            return None   # the reference raises TensorFlow's error from the op that fails
        if not self._all_ops_full(shapes, shape):
            return None
        size = int(np.prod(shape, dtype=np.int64))
        pattern, inner = [], None
        for s in shapes:
            n = int(np.prod(s, dtype=np.int64))
            if s == shape:
                pattern.append("F")
            elif n == 1:
                pattern.append("S")
            else:
                trimmed = list(s)
                while trimmed and trimmed[0] == 1:
                    trimmed.pop(0)
                if tuple(trimmed) == shape[len(shape) - len(trimmed):] and inner in (None, n):
                    pattern.append("R")
                    inner = n
                else:
                    return None
        return "".join(pattern), shape, size, inner or 1

    def _all_ops_full(self, shapes, shape) -> bool:
        """Whether every op of the cluster produces the full broadcast shape (a value that is
        smaller and exported, or read before a later broadcast, needs the reference)."""
        known = {id(t): s for t, s in zip(self.inputs, shapes)}
        for op in self.graph.operations:
            if id(op.outputs[0]) in known:
                continue
            if "constant" in op.op_def.flags:
                known[id(op.outputs[0])] = np.shape(op.attrs["value"])
                continue
            try:
                out = np.broadcast_shapes(*(known[id(t)] for t in op.inputs))
            except ValueError:
                return False
            if out != shape and id(op.outputs[0]) in {id(t) for t in self.graph.outputs}:
                return False
            known[id(op.outputs[0])] = out
        return all(known[id(t)] == shape for t in self.graph.outputs)

    def _kernel(self, pattern: str, parallel: bool):
        key = (pattern, parallel)
        kernel = self._kernels.get(key)
        if kernel is None:
            source = cluster_source(self.body, len(self.inputs), self.name, pattern, parallel)
            self.sources[key] = source
            kernel = self._kernels[key] = _load(source, self.name)
        return kernel


def cluster_is_exact(graph) -> bool:
    """Whether a cluster's kernel reproduces NumPy bit for bit (no libm or approximated
    function in it)."""
    if getattr(graph, "jit_loop", False):
        return _loop_statements(graph)[2]
    body = Statements(graph, [f"x{i}" for i in range(len(graph.inputs))])
    return body.exact and not body.approximated


def _loop_statements(graph):
    """(cond statements, body statements, exact) of the one While op of a `_FusedLoop` graph."""
    (loop,) = [op for op in graph.operations if op.op_def.kernel is not None and
               "constant" not in op.op_def.flags]
    names = [f"x{i}" for i in range(len(loop.inputs))]
    cond = Statements(loop.attrs["cond"], names, "c")
    body = Statements(loop.attrs["body"], names, "b", helpers=cond.helpers)
    exact = cond.exact and body.exact and not cond.approximated and not body.approximated
    return cond, body, exact


class LoopKernel:
    """A `while` over scalars compiled whole: one call runs every iteration."""

    def __init__(self, graph):
        self.graph = graph
        self.name = "".join(ch if ch.isalnum() else "_" for ch in graph.name)
        cond, body, _ = _loop_statements(graph)
        self.source = loop_source(cond, body, len(graph.inputs), self.name)
        self.dtypes = [np.dtype(t.dtype.as_numpy_dtype) for t in graph.outputs]
        self.kernel = _load(self.source, self.name)

    def __call__(self, *args):
        values = [np.asarray(a, dt).reshape(-1)[0] for a, dt in zip(args, self.dtypes)]
        return tuple(np.asarray(v, dt) for v, dt in zip(self.kernel(*values), self.dtypes))


def compile_cluster(graph, reference):
    """A JitKernel for a `_FusedElementwise` sub-graph (a LoopKernel for a `_FusedLoop` one),
    or None without numba."""
    if not numba_available():
        return None
    if getattr(graph, "jit_loop", False):
        return LoopKernel(graph)
    return JitKernel(graph, reference)
