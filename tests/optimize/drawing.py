"""What drawing a random program (strategies.py) is built on: the op tables probed from the
registry, feed and constant values, and `Drawer`, which keeps every value's dtype and static
shape while a program grows (each step is applied eagerly to dummy values to learn the type of
its result).

Feeds and constants mix NaN, +-Inf, -0.0 and the values rewrite rules look for (0, -0.0, 1, 2,
0.5) with ordinary ones.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import numpy as np
from hypothesis import strategies as st

import tracegraph as tf
from tracegraph.ops.registry import REQUIRED, all_ops

from .programs import DTYPES, Env, Program, emit, produces

NAN, INF = float("nan"), float("inf")
FLOATS = ("float32", "float64")
NAN, INF = float("nan"), float("inf")

# Values that trigger rewrite rules (x*1, x+0, x-0, x+-0.0, pow(x, 2), pow(x, 0.5), 1/x ...).
RULE_FLOATS = (0.0, -0.0, 1.0, 2.0, 0.5, -1.0, 3.0)
RULE_INTS = (0, 1, 2, -1, 3)
SPECIAL_FLOATS = (NAN, INF, -INF, -0.0, 0.0, 1.0, -1.0, 0.5, 2.0)
SPECIAL_INTS = (0, 1, -1, 2, 7, -(2 ** 31), 2 ** 31 - 1)

# The "smooth" op subset: continuous ops only, so a result that changes in the last bit (a
# documented rounding change) changes every later result by a little, never by a jump.
SMOOTH_UNARY = ("Neg", "Abs", "Relu", "Tanh", "Sigmoid", "Identity")
SMOOTH_BINARY = ("AddV2", "Sub", "Maximum", "Minimum")
SMOOTH_INEXACT = ("Reciprocal", "Sqrt", "Square", "Mul", "RealDiv", "Pow")

# ---- the op tables, from the registry -----------------------------------------------------------

@dataclass(frozen=True)
class OpTables:
    unary: dict        # dtype -> [(op type, result dtype)]
    binary: dict       # dtype -> [(op type, result dtype)]
    reductions: dict   # dtype -> [(op type, result dtype)]


def _probe(op, dtype: str, n: int, **attrs):
    """The dtype of `op` applied eagerly to `n` arrays of ones of `dtype`, or None."""
    ones = tf.constant(np.ones((2, 2), DTYPES[dtype]))
    try:
        out = op(*([ones] * n), **attrs)
    except Exception:  # the op does not take this dtype
        return None
    if not fresh_as_flagged(op, ones._value):
        return None
    return out.dtype.name if out.dtype.name in DTYPES else None


def fresh_as_flagged(op, x) -> bool:
    """False when the record promises a fresh output (`fresh_output`: the memory optimizer may
    write into it) but the kernel returns its input or a read-only view; such an op stays out
    of the random programs (test_property_regressions.py checks every record)."""
    if "fresh_output" not in op.flags:
        return True
    with np.errstate(all="ignore"):
        out = op.kernel(*([x] * len(op.inputs)))
    return not isinstance(out, np.ndarray) or (out.flags.writeable and
                                               not np.shares_memory(out, x))


@functools.cache
def op_tables() -> OpTables:
    unary = {dt: [] for dt in DTYPES}
    binary = {dt: [] for dt in DTYPES}
    reductions = {dt: [] for dt in DTYPES}
    for op in all_ops():
        if any(v is REQUIRED for v in op.attr_defaults.values()) or op.has_lists:
            continue
        if op.flags >= {"elementwise", "pure"} and len(op.inputs) in (1, 2):
            table = unary if len(op.inputs) == 1 else binary
            for dt in DTYPES:
                out = _probe(op, dt, len(op.inputs))
                if out is not None:
                    table[dt].append((op.tf_type, out))
        elif "reduction" in op.flags and len(op.inputs) == 2 and op.tf_type not in (
                "ArgMax", "ArgMin"):
            for dt in DTYPES:
                ones = tf.constant(np.ones((2, 2), DTYPES[dt]))
                try:
                    out = op(ones, np.array([0], np.int32)).dtype.name
                except Exception:  # the op does not take this dtype
                    continue
                reductions[dt].append((op.tf_type, out))
    return OpTables(unary, binary, reductions)


# ---- drawing programs ---------------------------------------------------------------------------

def _elements(dtype: str, smooth: bool):
    if dtype in FLOATS:
        width = 32 if dtype == "float32" else 64
        bound = 2.0 if smooth else 10.0
        return st.one_of(st.sampled_from(SPECIAL_FLOATS),
                         st.floats(-bound, bound, width=width))
    if dtype == "int32":
        return st.one_of(st.sampled_from(SPECIAL_INTS), st.integers(-5, 5))
    return st.booleans()


def arrays(draw, dtype: str, shape, smooth=False):
    n = int(np.prod(shape, dtype=np.int64))
    values = draw(st.lists(_elements(dtype, smooth), min_size=n, max_size=n))
    return np.array(values, dtype=DTYPES[dtype]).reshape(shape)


class Drawer:
    """Draws the steps of one program, keeping every value's type."""

    def __init__(self, draw, program: Program, smooth: bool):
        self.draw = draw
        self.p = program
        self.smooth = smooth
        self.tables = op_tables()

    # -- picking values ---------------------------------------------------------------------
    def pick(self, ok=lambda dt, shape: True):
        choices = [i for i, (dt, shape) in enumerate(self.p.types) if ok(dt, shape)]
        return self.draw(st.sampled_from(choices)) if choices else None

    def scalar(self, dtype):
        if dtype in FLOATS:
            return self.draw(st.sampled_from(RULE_FLOATS + (NAN, INF, -INF)))
        if dtype == "int32":
            return self.draw(st.sampled_from(RULE_INTS))
        return self.draw(st.booleans())

    def operand_like(self, dtype, shape):
        """A second operand for a value of (dtype, shape): a value, or a constant."""
        same = self.pick(lambda dt, s: dt == dtype and broadcasts(s, shape))
        kind = self.draw(st.sampled_from(["v", "py", "const", "cap"]))
        if kind == "v" and same is not None:
            return ("v", same)
        if kind == "py" and dtype != "bool":
            return ("py", self.scalar(dtype))
        value = self.scalar(dtype) if self.draw(st.booleans()) else None
        arr = np.full(shape, value, DTYPES[dtype]) if value is not None else \
            arrays(self.draw, dtype, shape, self.smooth)
        if kind == "cap":
            self.p.captures.append(arr)
            return ("cap", len(self.p.captures) - 1)
        return ("const", arr)

    # -- types -------------------------------------------------------------------------------
    def add(self, step) -> bool:
        """Appends `step` if it applies (eagerly, to dummy values) without an error."""
        if produces(step):
            try:
                dt, shape = self.result_type(step)
            except Exception:  # e.g. shapes that do not broadcast: draw something else
                return False
            if dt not in DTYPES or int(np.prod(shape, dtype=np.int64)) > 64:
                return False
            self.p.types.append((dt, tuple(shape)))
        self.p.steps.append(step)
        return True

    def result_type(self, step):
        if step[0] in ("cond", "while", "call"):
            return self.p.types[(step[2] if step[0] == "cond" else step[1])[1]]
        if step[0] == "random":
            return "float32", tuple(step[1])
        if step[0] == "read":
            v = self.p.variables[step[1]]
            return v.dtype.name, v.shape
        if step[0] == "ctrl":  # the type of what runs under the control dependency
            _, _, a, op_type = step
            step = ("misc", "identity", a) if op_type is None else ("unary", op_type, a)
        dummies = [tf.constant(np.ones(s, DTYPES[dt])) for dt, s in self.p.types]
        env = Env(dummies, [tf.constant(c) for c in self.p.captures], [])
        with np.errstate(all="ignore"):
            emit(step, env)
        out = env.values[-1]
        return out.dtype.name, tuple(out.shape)


def broadcasts(small, big) -> bool:
    try:
        return tuple(np.broadcast_shapes(tuple(small), tuple(big))) == tuple(big)
    except ValueError:
        return False
