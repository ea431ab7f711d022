"""A fused cluster computed op by op in NumPy with the kernel's own results: what serves a
`jit_compile` function's first calls while its numba kernel compiles in the background.

Ops a kernel computes exactly (IEEE arithmetic and selections) run through their NumPy kernels,
which the kernels match bit for bit. Ops a kernel computes through a vectorizable approximation
(`tanh_f32`, `exp_f32` in execute/jit_source.py) run through the same formula over arrays here:
same coefficients, same order, and the fused multiply-adds the compiled helper gets (it is
compiled with `fastmath={"contract"}`) as float32 FMAs computed exactly in float64 rounded to
odd, then to float32 (`fma32`). So a call answers the same bits before and after its kernel is
ready (tests/execute/test_jit_background.py checks the helpers on millions of inputs against
the compiled ones, and on every 61st float32 bit pattern in a slow test).
"""

from __future__ import annotations

import numpy as np

__all__ = ["fma32", "tanh_f32", "exp_f32", "ArrayCluster", "ARRAY_HELPERS"]

_f32 = np.float32


def fma32(a, b, c):
    """float32 `a * b + c` rounded once (as the FMA instruction): the product is exact in
    float64, the sum is rounded to odd there (53 >= 24 + 2 bits, so rounding it to float32 is
    the correctly rounded result): where the sum was inexact (TwoSum's error) and its last bit
    is even, it moves one ulp towards the exact value."""
    p = np.multiply(a, b, dtype=np.float64)
    c = np.asarray(c, np.float64)
    s = p + c
    bb = s - p
    err = p - (s - bb)
    err += c - bb
    bits = s.view(np.int64)
    fix = (err != 0) & ((bits & 1) == 0)
    towards = (err > 0) == (s > 0)        # the exact value is larger in magnitude
    bits += fix * (2 * towards.astype(np.int64) - 1)
    return s.astype(np.float32)


_CHUNK = 1 << 14   # elements per pass: the float64 temporaries stay in the core's cache


def _chunked(form):
    """`form` over a float32 array, a chunk at a time."""
    def run(x):
        x = np.asarray(x, np.float32)
        flat = x.reshape(-1)
        if flat.size <= _CHUNK:
            return form(flat).reshape(x.shape)
        out = np.empty_like(flat)
        for start in range(0, flat.size, _CHUNK):
            out[start:start + _CHUNK] = form(flat[start:start + _CHUNK])
        return out.reshape(x.shape)
    run.__name__ = form.__name__
    run.__doc__ = form.__doc__
    return run


_TANH_P = [_f32(c) for c in (-1.2261594517504193e-11, 3.067100706743986e-08,
                             2.8045820727129467e-05, 0.003870306769385934, 0.136815145611763)]
_TANH_Q = [_f32(c) for c in (1.2899632793050841e-06, 0.00039420643588528037,
                             0.027253149077296257, 0.4701484441757202, 1.0)]
_EXP_P = [_f32(c) for c in (0.0013835788704454899, 0.00837564468383789, 0.04166828840970993,
                            0.16666410863399506, 0.49999991059303284, 1.0, 1.0)]


def _horner(coefficients, z):
    value = fma32(coefficients[0], z, coefficients[1])
    for c in coefficients[2:]:
        value = fma32(value, z, c)
    return value


@_chunked
def tanh_f32(x):
    """jit_source's `tanh_f32` over arrays (see the coefficients' story there)."""
    with np.errstate(invalid="ignore", over="ignore"):
        t = np.where(x != x, x, np.minimum(np.maximum(x, _f32(-9.020000457763672)),
                                           _f32(9.020000457763672)))
        z = t * t
        y = fma32(t * z, _horner(_TANH_P, z), t) / _horner(_TANH_Q, z)
        y[t >= _f32(9.010914)] = 1.0
        y[t <= _f32(-9.010914)] = -1.0
        return y


@_chunked
def exp_f32(x):
    """jit_source's `exp_f32` over arrays."""
    with np.errstate(invalid="ignore", over="ignore"):
        c = np.minimum(np.maximum(x, _f32(-104.0)), _f32(89.0))
        k = np.floor(fma32(c, _f32(1.4426950408889634), _f32(0.5)))
        r = fma32(-k, _f32(0.693145751953125), c)
        r = fma32(-k, _f32(1.428606765330187e-06), r)
        # p = 1 + r (1 + r (c2 + r (...))): each step fma(r, p, c)
        p = fma32(r, _EXP_P[0], _EXP_P[1])
        for coefficient in _EXP_P[2:]:
            p = fma32(r, p, coefficient)
        i = np.nan_to_num(k).astype(np.int32)
        h = i >> np.int32(1)
        s1 = ((h + np.int32(127)) << np.int32(23)).view(np.float32)
        s2 = ((i - h + np.int32(127)) << np.int32(23)).view(np.float32)
        out = p * s1 * s2
        return np.where(x != x, x, out)


def _maximum(a, b):
    return np.where((a > b) | (a != a), a, b)


def _minimum(a, b):
    return np.where((a < b) | (a != a), a, b)


def _sign(a):
    return np.where(a != a, a, (a > 0).astype(np.asarray(a).dtype) - (a < 0))


# helper name in a kernel's statements -> its form over arrays
ARRAY_HELPERS = {"tanh_f32": tanh_f32, "exp_f32": exp_f32, "maximum_": _maximum,
                 "minimum_": _minimum, "sign_": _sign}


class ArrayCluster:
    """A `_FusedElementwise` graph run op by op over arrays: approximated ops through their
    array forms (`array_forms`: id(op) -> template with helper names, from `Statements`), the
    others through their own NumPy kernels."""

    def __init__(self, graph, array_forms: dict):
        self.steps = []
        names = {id(t): i for i, t in enumerate(graph.inputs)}
        count = len(graph.inputs)
        namespace = {"np": np, **ARRAY_HELPERS}
        for op in graph.operations:
            out = op.outputs[0]
            if id(out) in names:
                continue
            ins = [names[id(t)] for t in op.inputs]
            if "constant" in op.op_def.flags:
                step = ("value", np.asarray(op.attrs["value"]))
            elif id(op) in array_forms:
                template = array_forms[id(op)]
                args = ", ".join(f"x{i}" for i in range(len(ins)))
                expr = template.format(*(f"x{i}" for i in range(len(ins))))
                fn = eval(f"lambda {args}: {expr}", namespace)   # noqa: S307 - our own template
                step = ("form", fn, np.dtype(out.dtype.as_numpy_dtype))
            else:
                step = ("kernel", op.op_def.kernel, dict(op.kernel_attrs))
            self.steps.append((step, ins))
            names[id(out)] = count
            count += 1
        self.outputs = [names[id(t)] for t in graph.outputs]

    def __call__(self, *args):
        env = list(args)
        for step, ins in self.steps:
            kind = step[0]
            if kind == "value":
                env.append(step[1])
            elif kind == "form":
                env.append(np.asarray(step[1](*(env[i] for i in ins)), step[2]))
            else:
                env.append(step[1](*(env[i] for i in ins), **step[2]))
        return tuple(env[i] for i in self.outputs)
