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
branch-free approximations that vectorize (see `_APPROXIMATIONS`, with their error bounds).
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

from ..ops.cluster import scalar_form

__all__ = ["compile_cluster", "cluster_is_exact", "numba_available", "JitKernel",
           "PARALLEL_THRESHOLD", "APPROX_ULPS"]

# Outputs with at least this many elements run their outer loop on numba's threads.
PARALLEL_THRESHOLD = 1 << 17

# Approximations used in fused kernels, per (function, dtype): helper source, and the maximum
# error measured against the correctly rounded result over 12 million inputs
# (tests/execute/test_jit.py checks the bound). NumPy's own float32 tanh is within 1 ulp.
_TANH_F32 = '''
@numba.njit(inline="always", error_model="numpy")
def tanh_f32(x):
    # |x| < 0.55: x * p(x^2), odd polynomial; else 1 - 2 / (exp(2|x|) + 1) with exp from
    # 2^k * q(r), k = round(2|x| log2 e), |r| <= 1/2. Coefficients: least-squares fits of
    # relative error on Chebyshev nodes (max relative error 1e-9 before float32 rounding).
    t = min(abs(x), np.float32(9.1))
    z = t * t
    small = t * (np.float32(1.0) + z * (np.float32(-0.3333331048488617) + z * (
        np.float32(0.13332462310791016) + z * (np.float32(-0.053842779248952866) + z * (
            np.float32(0.021039918065071106) + z * np.float32(-0.006235851440578699))))))
    y = t * np.float32(2.8853900817779268)
    k = np.float32(np.int32(y + np.float32(0.5)))
    r = y - k
    q = np.float32(1.0) + r * (np.float32(0.6931471824645996) + r * (
        np.float32(0.24022646248340607) + r * (np.float32(0.05550328642129898) + r * (
            np.float32(0.009618489071726799) + r * (np.float32(0.0013399930903688073) + r *
                                                    np.float32(0.0001534579787403345))))))
    e = q * np.float32(np.int32(1) << np.int32(k))
    big = np.float32(1.0) - np.float32(2.0) / (e + np.float32(1.0))
    big = np.float32(1.0) if t >= np.float32(9.1) else big
    out = small if t < np.float32(0.55) else big
    out = x if x != x else out
    return out if x >= np.float32(0.0) else -out
'''
_EXP_F32 = '''
POW2_F32 = np.array([2.0 ** j for j in range(-80, 80)], np.float32)


@numba.njit(inline="always", error_model="numpy")
def exp_f32(x):
    # exp(x) = 2^k e^r, k = round(x log2 e), r = x - k ln 2 in two parts (Cody-Waite), e^r a
    # degree-6 least-squares fit on |r| <= ln2/2; 2^k as two table factors so that results
    # that are subnormal stay accurate.
    c = np.float32(0.0) if x != x else min(max(x, np.float32(-104.0)), np.float32(89.0))
    k = np.float32(np.floor(c * np.float32(1.4426950408889634) + np.float32(0.5)))
    r = (c - k * np.float32(0.693145751953125)) - k * np.float32(1.428606765330187e-06)
    p = np.float32(1.0) + r * (np.float32(1.0) + r * (np.float32(0.49999991059303284) + r * (
        np.float32(0.16666410863399506) + r * (np.float32(0.04166828840970993) + r * (
            np.float32(0.00837564468383789) + r * np.float32(0.0013835788704454899))))))
    k1 = np.float32(np.floor(k * np.float32(0.5)))
    out = p * POW2_F32[np.int32(k1) + 80] * POW2_F32[np.int32(k - k1) + 80]
    return x if x != x else out
'''
# Exact rewrites: numba's scalar np.maximum/np.minimum are calls that stop vectorization.
_MAXIMUM = '''
@numba.njit(inline="always")
def maximum_(a, b):
    return a if (a > b or a != a) else b   # equal: the second, as NumPy
'''
_MINIMUM = '''
@numba.njit(inline="always")
def minimum_(a, b):
    return a if (a < b or a != a) else b   # equal: the second, as NumPy
'''
_APPROXIMATIONS = {("tanh", "float32"): ("tanh_f32", _TANH_F32, 2),
                   ("exp", "float32"): ("exp_f32", _EXP_F32, 1)}
_EXACT_HELPERS = {"maximum": ("maximum_", _MAXIMUM), "minimum": ("minimum_", _MINIMUM)}
APPROX_ULPS = {key: ulps for key, (_, _, ulps) in _APPROXIMATIONS.items()}

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


def _literal(value, dtype) -> str:
    v = np.asarray(value).reshape(-1)[0]
    if dtype == "bool":
        return "True" if v else "False"
    if isinstance(v, np.floating) and not np.isfinite(v):
        text = "np.nan" if np.isnan(v) else ("np.inf" if v > 0 else "-np.inf")
    else:
        text = repr(v.item())
    return f"np.{dtype}({text})"


class _Body:
    """The per-element statements of a cluster: input names, lines, output names."""

    def __init__(self, graph):
        self.inputs = list(graph.inputs)
        names = {id(t): f"x{i}" for i, t in enumerate(self.inputs)}
        self.lines: list[str] = []
        self.helpers: dict[str, str] = {}
        self.exact = True
        self.approximated: list[str] = []
        count = 0
        for op in graph.operations:
            if id(op.outputs[0]) in names:
                continue   # a placeholder
            out = op.outputs[0]
            dtype = out.dtype.name
            if "constant" in op.op_def.flags:
                names[id(out)] = _literal(op.attrs["value"], dtype)
                continue
            template, exact = scalar_form(op.op_def, op.attrs, dtype)
            before = len(self.approximated)
            template = self._approximate(template, dtype)
            if not exact and len(self.approximated) == before:
                self.exact = False
            count += 1
            name = f"t{count}"
            expr = template.format(*(names[id(t)] for t in op.inputs))
            self.lines.append(f"{name} = np.{_numba_dtype(dtype)}({expr})")
            names[id(out)] = name
        self.outputs = [names[id(t)] for t in graph.outputs]
        self.output_dtypes = [np.dtype(t.dtype.as_numpy_dtype) for t in graph.outputs]

    def _approximate(self, template: str, dtype: str) -> str:
        """Calls replaced by helpers: approximations (recorded) and exact forms."""
        for fn, (helper, source) in _EXACT_HELPERS.items():
            if f"np.{fn}(" in template:
                self.helpers[helper] = source
                template = template.replace(f"np.{fn}(", f"{helper}(")
        for (fn, dt), (helper, source, _) in _APPROXIMATIONS.items():
            if dt == dtype and f"np.{fn}(" in template:
                self.helpers[helper] = source
                self.approximated.append(fn)
                template = template.replace(f"np.{fn}(", f"{helper}(")
        return template


def _numba_dtype(name: str) -> str:
    return "bool_" if name == "bool" else name


def _source(body: _Body, name: str, pattern: str, parallel: bool) -> str:
    """A kernel for one broadcast pattern: per input F (full), S (scalar) or R (row)."""
    rows = "R" in pattern
    params = ["n", "inner"] + [f"input_{i}" for i in range(len(pattern))] + \
        [f"output_{i}" for i in range(len(body.outputs))]
    loop = "numba.prange" if parallel else "range"
    lines = ["import numba", "import numpy as np", ""]
    for helper in body.helpers.values():
        lines += helper.strip("\n").splitlines() + [""]
    lines += ["", f'@numba.njit(cache=True, error_model="numpy", nogil=True, '
                  f'parallel={parallel})',
              f"def {name}({', '.join(params)}):"]
    if rows:
        lines += [f"    for r in {loop}(n // inner):", "        for c in range(inner):",
                  "            k = r * inner + c"]
        pad = "            "
    else:
        lines += [f"    for k in {loop}(n):"]
        pad = "        "
    for i, kind in enumerate(pattern):
        index = {"F": "[k]", "S": "", "R": "[c]"}[kind]
        lines.append(f"{pad}x{i} = input_{i}{index}")
    lines += [pad + line for line in body.lines]
    lines += [f"{pad}output_{i}[k] = {out}" for i, out in enumerate(body.outputs)]
    return "\n".join(lines) + "\n"


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


class JitKernel:
    """A compiled cluster: called with the cluster's input arrays, returns its outputs. Falls
    back to `reference` (the cluster run op by op) for broadcasts it does not handle, such as
    a cluster whose ops do not all produce the full shape."""

    def __init__(self, graph, reference):
        self.graph = graph
        self.reference = reference
        self.body = _Body(graph)
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
            return _source(self.body, self.name, "F" * len(self.body.inputs), False)
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
        kernel = self._kernel(pattern, size >= PARALLEL_THRESHOLD)
        outs = [np.empty(shape, dt) for dt in self.body.output_dtypes]
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
        known = {id(t): s for t, s in zip(self.body.inputs, shapes)}
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
            source = _source(self.body, self.name, pattern, parallel)
            self.sources[key] = source
            kernel = self._kernels[key] = _load(source, self.name)
        return kernel


def cluster_is_exact(graph) -> bool:
    """Whether a cluster's kernel reproduces NumPy bit for bit (no libm or approximated
    function in it)."""
    body = _Body(graph)
    return body.exact and not body.approximated


def compile_cluster(graph, reference):
    """A JitKernel for a `_FusedElementwise` sub-graph, or None without numba."""
    if not numba_available():
        return None
    return JitKernel(graph, reference)
