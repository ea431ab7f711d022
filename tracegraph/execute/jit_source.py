"""The source of the jit executor's numba kernels, written from the op records.

Each op of a cluster (or of a scalar loop's cond and body) becomes one statement over scalars,
`t3 = np.float32(t1 * t2)`: the record's per-element form (`scalar_form`), rounded to the op's
dtype, so arithmetic is NumPy's bit for bit. Calls that would stop LLVM from vectorizing are
replaced by helpers: exact ones (`maximum_`, `minimum_`, `sign_`) and approximations of the
transcendental functions whose libm versions run one element at a time (`tanh_f32`, `exp_f32`),
each with its error bound in ulps against the correctly rounded result.
"""

from __future__ import annotations

import numpy as np

from ..ops.cluster import scalar_form

__all__ = ["Statements", "cluster_source", "loop_source", "APPROX_ULPS"]

# Approximations used in fused kernels, per (function, dtype): helper source, and the maximum
# error against the correctly rounded result, measured on the compiled helper over every float32
# in the range where it is not exactly 0, 1 or inf (tests/execute/test_jit.py checks the bound
# on sampled inputs by default and on all of them in a slow test). NumPy's float32 tanh and exp
# are within 1 ulp. The helpers are compiled with FMA contraction (`fastmath={'contract'}`, no
# other fast-math flag) and are not inlined at numba's level, so the flag stays theirs: LLVM
# inlines them into the kernel, whose own arithmetic stays uncontracted (bit for bit NumPy's),
# and vectorizes the loop (16 lanes of float32 per AVX-512 instruction here).
_TANH_F32 = '''
@numba.njit(fastmath={"contract"}, error_model="numpy")
def tanh_f32(x):
    # tanh(x) = (t + t z P(z)) / Q(z), z = t^2, on t = x clamped to [-9.02, 9.02], and +-1
    # from |x| = 9.010914 on, where float32 tanh rounds to +-1: branch-free float32 (selects,
    # no jumps), 16 lanes per AVX-512 instruction.
    # P has degree 4 and Q degree 4 with Q(0) = 1, so tiny and subnormal x give x exactly, -0.0
    # gives -0.0, +-inf gives +-1, NaN stays NaN. Coefficients: our own fit in float64 with
    # numpy (Sanathanan-Koerner iteration, weighted linear least squares on P - f Q = 0 with
    # f = tanh(t)/t, Lawson reweighting towards minimax), then refitted one coefficient at a
    # time with the others held at their float32 values. Every float32 input checked: within
    # 5 ulp of the correctly rounded result; over 2^-30 <= |x| < 9.5, 79% correctly rounded
    # and 98.8% within 1 ulp (over 2^-12 <= |x| < 9.1, 55% correctly rounded; the 5-ulp cases
    # are near |x| = 5). TensorFlow's own float32 tanh (Eigen's rational) and XLA's measure 5
    # ulp as well (bench/accuracy.py). Evaluating in float64 gets 1 ulp but runs 1.7x slower.
    t = x if x != x else min(max(x, np.float32(-9.020000457763672)),
                             np.float32(9.020000457763672))
    z = t * t
    p = (((np.float32(-1.2261594517504193e-11) * z + np.float32(3.067100706743986e-08)) * z +
          np.float32(2.8045820727129467e-05)) * z + np.float32(0.003870306769385934)) * z + \\
        np.float32(0.136815145611763)
    q = (((np.float32(1.2899632793050841e-06) * z + np.float32(0.00039420643588528037)) * z +
          np.float32(0.027253149077296257)) * z + np.float32(0.4701484441757202)) * z + \\
        np.float32(1.0)
    y = ((t * z) * p + t) / q
    # +-1 exactly where the correctly rounded result is (the rational is 1 ulp short there)
    return np.float32(1.0) if t >= np.float32(9.010914) else (
        np.float32(-1.0) if t <= np.float32(-9.010914) else y)
'''
_EXP_F32 = '''
@numba.njit(fastmath={"contract"}, error_model="numpy")
def exp_f32(x):
    # exp(x) = 2^k e^r, k = round(x log2 e), r = x - k ln 2 in two parts (Cody-Waite), e^r a
    # degree-6 least-squares fit on |r| <= ln2/2. 2^k is built from its bits as two factors
    # 2^(k//2) 2^(k - k//2), each a normal float32, so that a subnormal result is rounded
    # once: within 1 ulp of the correctly rounded result over all float32 inputs, subnormal
    # results included; overflow gives inf, underflow 0, NaN stays NaN.
    c = min(max(x, np.float32(-104.0)), np.float32(89.0))
    k = np.floor(c * np.float32(1.4426950408889634) + np.float32(0.5))
    r = (c - k * np.float32(0.693145751953125)) - k * np.float32(1.428606765330187e-06)
    p = np.float32(1.0) + r * (np.float32(1.0) + r * (np.float32(0.49999991059303284) + r * (
        np.float32(0.16666410863399506) + r * (np.float32(0.04166828840970993) + r * (
            np.float32(0.00837564468383789) + r * np.float32(0.0013835788704454899))))))
    i = np.int32(k)
    h = i >> np.int32(1)
    s1 = np.int32((h + np.int32(127)) << np.int32(23)).view(np.float32)
    s2 = np.int32((i - h + np.int32(127)) << np.int32(23)).view(np.float32)
    out = p * s1 * s2
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
_APPROXIMATIONS = {("tanh", "float32"): ("tanh_f32", _TANH_F32, 5),
                   ("exp", "float32"): ("exp_f32", _EXP_F32, 1)}
_SIGN = '''
@numba.njit(inline="always")
def sign_(a):
    # NumPy's: +-0 gives +0 (numba's np.sign keeps the sign of zero), NaN stays NaN
    return a if a != a else (a > 0) - (a < 0)
'''
_EXACT_HELPERS = {"maximum": ("maximum_", _MAXIMUM), "minimum": ("minimum_", _MINIMUM),
                  "sign": ("sign_", _SIGN)}
APPROX_ULPS = {key: ulps for key, (_, _, ulps) in _APPROXIMATIONS.items()}



def _literal(value, dtype) -> str:
    v = np.asarray(value).reshape(-1)[0]
    if dtype == "bool":
        return "True" if v else "False"
    if isinstance(v, np.floating) and not np.isfinite(v):
        text = "np.nan" if np.isnan(v) else ("np.inf" if v > 0 else "-np.inf")
    else:
        text = repr(v.item())
    return f"np.{dtype}({text})"


def _numba_dtype(name: str) -> str:
    return "bool_" if name == "bool" else name


class Statements:
    """The statements computing a graph's outputs from names for its inputs: `lines`,
    `outputs` (expressions), the helpers they call, and whether they are exact."""

    def __init__(self, graph, input_names: list[str], prefix: str = "t",
                 helpers: dict | None = None):
        names = {id(t): n for t, n in zip(graph.inputs, input_names)}
        self.lines: list[str] = []
        self.helpers: dict[str, str] = {} if helpers is None else helpers
        self.exact = True
        self.approximated: list[str] = []
        self.array_forms: dict = {}   # id(op) -> its template, for ops using an approximation
        count = 0
        for op in graph.operations:
            if id(op.outputs[0]) in names:
                continue   # a placeholder
            out = op.outputs[0]
            dtype = out.dtype.name
            if "constant" in op.op_def.flags:
                names[id(out)] = _literal(op.attrs["value"], dtype)
                continue
            if "then_branch" in op.attrs:   # a scalar cond inside a compiled loop
                count += 1
                outs = [f"{prefix}{count}_{i}" for i in range(len(op.outputs))]
                self._branches(op, [names[id(t)] for t in op.inputs], outs, f"{prefix}{count}_")
                for t, name in zip(op.outputs, outs):
                    names[id(t)] = name
                continue
            template, exact = scalar_form(op.op_def, op.attrs, dtype)
            if template == "{0}":   # identity
                names[id(out)] = names[id(op.inputs[0])]
                continue
            before = len(self.approximated)
            template = self._helpers(template, dtype)
            if not exact and len(self.approximated) == before:
                self.exact = False
            if len(self.approximated) > before:
                self.array_forms[id(op)] = template
            count += 1
            name = f"{prefix}{count}"
            expr = template.format(*(names[id(t)] for t in op.inputs))
            self.lines.append(f"{name} = np.{_numba_dtype(dtype)}({expr})")
            names[id(out)] = name
        self.outputs = [names[id(t)] for t in graph.outputs]

    def _branches(self, op, ins, outs, prefix) -> None:
        self.lines.append(f"if {ins[0]}:")
        for key in ("then_branch", "else_branch"):
            branch = Statements(op.attrs[key], ins[1:], f"{prefix}{key[0]}", self.helpers)
            self.exact &= branch.exact
            self.approximated += branch.approximated
            self.lines += ["    " + line for line in branch.lines]
            self.lines.append(f"    {', '.join(outs)} = {', '.join(branch.outputs)}" if outs
                              else "    pass")
            if key == "then_branch":
                self.lines.append("else:")

    def _helpers(self, template: str, dtype: str) -> str:
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


def _header(helpers: dict) -> list[str]:
    lines = ["import numba", "import numpy as np", ""]
    for helper in helpers.values():
        lines += helper.strip("\n").splitlines() + [""]
    return lines


def cluster_source(body: Statements, n_inputs: int, name: str, pattern: str,
                   parallel: bool) -> str:
    """A kernel for one broadcast pattern: per input F (full), S (scalar) or R (row)."""
    rows = "R" in pattern
    params = ["n", "inner"] + [f"input_{i}" for i in range(n_inputs)] + \
        [f"output_{i}" for i in range(len(body.outputs))]
    loop = "numba.prange" if parallel else "range"
    lines = _header(body.helpers)
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


def loop_source(cond: Statements, body: Statements, n_vars: int, name: str) -> str:
    """A whole `while` over scalars: the cond's and the body's statements in one function."""
    names = [f"x{i}" for i in range(n_vars)]
    lines = _header(cond.helpers)
    lines += ["", '@numba.njit(cache=True, error_model="numpy", nogil=True)',
              f"def {name}({', '.join(names)}):", "    while True:"]
    lines += ["        " + line for line in cond.lines]
    lines += [f"        if not {cond.outputs[0]}:", "            break"]
    lines += ["        " + line for line in body.lines]
    if names:
        lines.append(f"        {', '.join(names)} = {', '.join(body.outputs)}")
    lines.append(f"    return ({', '.join(names)}{',' if len(names) == 1 else ''})")
    return "\n".join(lines) + "\n"
