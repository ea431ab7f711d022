"""The source of the jit executor's numba kernels, written from the op records.

Each op of a cluster (or of a scalar loop's cond and body) becomes one statement over scalars,
`t3 = np.float32(t1 * t2)`: the record's per-element form (`scalar_form`), rounded to the op's
dtype, so arithmetic is NumPy's bit for bit. Calls that would stop LLVM from vectorizing are
replaced by helpers: exact ones (`maximum_`, `minimum_`) and approximations of the
transcendental functions whose libm versions run one element at a time (`tanh_f32`, `exp_f32`),
each with its error bound in ulps against the correctly rounded result.
"""

from __future__ import annotations

import numpy as np

from ..ops.cluster import scalar_form

__all__ = ["Statements", "cluster_source", "loop_source", "APPROX_ULPS"]

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
