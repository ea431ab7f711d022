"""`_FusedElementwise`: a cluster of elementwise ops that `jit_compile=True` runs as one kernel.

The jit fusion pass (optimize/jit_fusion.py) replaces each cluster by this op; its `f` attr is
the cluster as a sub-graph. The kernel runs that sub-graph, so every executor that compiles
sub-graphs its own way gives the cluster its own form: the interpreter walks the ops one by one
(the spec), the code generator writes them as NumPy lines, and the jit executor compiles them
into a single numba loop (execute/jit.py).
"""

from __future__ import annotations

import re

from ..shapes import TensorType
from .registry import ALL_TYPES, REQUIRED, TypeAttr, defop


def infer_cluster(args, f=REQUIRED, Tin=(), Tout=(), **_):
    return tuple(TensorType(t.dtype, t.dims) for t in f.outputs)


def kernel_cluster(args, f=REQUIRED, Tin=(), Tout=(), **_):
    return f(*args)


# `_FusedLoop`: a `while` whose cond and body are scalar work the jit executor compiles whole;
# `f` holds the loop (a StatelessWhile) alone in a graph.
fused_loop_op = defop(
    "fused_loop", "_FusedLoop", inputs=("args: list(Tin)",),
    attrs={"Tin": TypeAttr(ALL_TYPES), "f": REQUIRED, "Tout": ()},
    infer=infer_cluster, kernel=kernel_cluster, num_outputs=None, flags={"pure"})

fused_elementwise_op = defop(
    "fused_elementwise", "_FusedElementwise", inputs=("args: list(Tin)",),
    attrs={"Tin": TypeAttr(ALL_TYPES), "f": REQUIRED, "Tout": ()},
    infer=infer_cluster, kernel=kernel_cluster, num_outputs=None, flags={"pure"})


# ---- scalar forms: what a fused kernel computes per element ------------------------------------

# The dtypes a fused kernel handles (numba's native scalars; float16, complex and strings stay
# unfused).
JIT_DTYPES = frozenset(("float32", "float64", "int8", "int16", "int32", "int64", "uint8",
                        "uint16", "uint32", "uint64", "bool"))
# NumPy ufuncs whose results numba reproduces bit for bit on every input (IEEE-exact operations
# and selections). Any other ufunc (exp, tanh, log, ...) is computed by the platform's libm in a
# fused kernel and may differ from NumPy's own implementation in the last place.
EXACT_UFUNCS = frozenset(("maximum", "minimum", "sqrt", "square", "absolute", "negative",
                          "floor", "ceil", "rint", "trunc", "sign", "isnan", "isinf",
                          "isfinite", "logical_and", "logical_or", "logical_not", "logical_xor",
                          "left_shift", "right_shift", "invert", "fmax", "fmin", "copysign"))
_OPERATORS = set("{}0123456789 +-*/<>=&|^~()")


# function -> the dtype whose fused form is a vectorizable approximation (execute/jit.py)
APPROXIMATED = {"tanh": "float32", "exp": "float32"}
_CALLS = re.compile(r"np\.(\w+)\(")


def scalar_libm_calls(form: str, dtype: str) -> set:
    """The functions a per-element form calls that a fused kernel would compute one element
    at a time through libm (no exact rewrite and no vectorizable approximation for `dtype`):
    NumPy's own loops for these are vectorized and several times faster (measured: a fused
    sin chain 4.3x slower than NumPy op by op), so clusters leave such ops to NumPy."""
    calls = set(_CALLS.findall(form)) - JIT_DTYPES - {"bool_"} - EXACT_UFUNCS
    return {fn for fn in calls if APPROXIMATED.get(fn) != dtype}


def scalar_form(op_def, attrs, dtype: str = "float32") -> tuple[str, bool] | None:
    """(template over `{0}`, `{1}`, ... for one element, exact) for an elementwise op, or None
    when the op has no per-element form a fused kernel can compute. Taken from the record: its
    `jit` form if it has one, its inline expression when that is plain operators, or its NumPy
    ufunc. Exact means numba reproduces NumPy's result bit for bit: only IEEE-exact operations
    and selections, no libm function. `dtype` is the op's output dtype (for `{T}`)."""
    jit = op_def.jit
    form = None
    if jit is not None:
        form = jit(attrs) if callable(jit) else jit
    else:
        expr = op_def.expr(attrs) if callable(op_def.expr) else op_def.expr
        ufunc = op_def.ufunc
        if isinstance(expr, str) and set(expr) <= _OPERATORS and "//" not in expr:
            form = expr
        elif ufunc is not None and ufunc.nout == 1 and op_def.kernel is ufunc:
            form = f"np.{ufunc.__name__}({', '.join(f'{{{i}}}' for i in range(ufunc.nin))})"
    if form is None:
        return None
    form = form.replace("{T}", "bool_" if dtype == "bool" else dtype)
    calls = set(_CALLS.findall(form)) - JIT_DTYPES - {"bool_"}
    return form, calls <= EXACT_UFUNCS
