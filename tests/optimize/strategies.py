"""Hypothesis strategies for random programs (programs.py): `programs()` draws one, step by
step, each kind of step drawn by its own function below with operands it can take (drawing.py
keeps the types). Op choices come from the registry's tables; rule patterns from the
arithmetic rule table itself.
"""

from __future__ import annotations

import numpy as np
from hypothesis import strategies as st

from tracegraph.optimize.rewrite_rules import Var

from .drawing import (
    FLOATS,
    SMOOTH_BINARY,
    SMOOTH_INEXACT,
    SMOOTH_UNARY,
    Drawer,
    arrays,
    broadcasts,
)
from .programs import DTYPES, MISC, MISC_NEEDS_RANK, RULES, Program, concrete_type

# -- one step of each kind -------------------------------------------------------------------------

def _draw_unary(d: Drawer):
    a = d.pick()
    dt = d.p.types[a][0]
    ops = d.tables.unary[dt]
    if d.smooth:
        ops = [o for o in ops if o[0] in SMOOTH_UNARY + SMOOTH_INEXACT and o[0] != "Mul"]
    if not ops:
        return None
    return ("unary", d.draw(st.sampled_from(ops))[0], ("v", a))


def _draw_binary(d: Drawer):
    a = d.pick()
    dt, shape = d.p.types[a]
    ops = d.tables.binary[dt]
    if d.smooth:
        ops = [o for o in ops if o[0] in SMOOTH_BINARY + SMOOTH_INEXACT]
    if not ops:
        return None
    op_type = d.draw(st.sampled_from(ops))[0]
    other = d.operand_like(dt, shape)
    if d.draw(st.booleans()):
        return ("binary", op_type, other, ("v", a)) if other[0] != "py" else \
            ("binary", op_type, ("const", np.array(other[1], DTYPES[dt])), ("v", a))
    return ("binary", op_type, ("v", a), other)


def _draw_cast(d: Drawer):
    a = d.pick()
    return ("cast", ("v", a), d.draw(st.sampled_from(["float32", "float64", "int32", "bool"])))


def _draw_select(d: Drawer):
    c = d.pick(lambda dt, s: dt == "bool")
    if c is None:
        return None
    shape = d.p.types[c][1]
    a = d.pick(lambda dt, s: dt != "bool" and broadcasts(shape, s))
    if a is None:
        return None
    dt, s = d.p.types[a]
    return ("select", ("v", c), ("v", a), d.operand_like(dt, s))


def _draw_clip(d: Drawer):
    a = d.pick(lambda dt, s: dt in FLOATS + ("int32",))
    if a is None:
        return None
    dt = d.p.types[a][0]
    lo, hi = sorted([d.scalar(dt), d.scalar(dt)], key=lambda v: (v != v, v))
    return ("clip", ("v", a), ("const", np.array(lo, DTYPES[dt])),
            ("const", np.array(hi, DTYPES[dt])))


def _draw_reduce(d: Drawer):
    a = d.pick(lambda dt, s: len(s) >= 1)
    if a is None:
        return None
    dt, shape = d.p.types[a]
    ops = d.tables.reductions[dt]
    if d.smooth:
        ops = [o for o in ops if o[0] in ("Sum", "Mean", "Max", "Min")]
    if not ops:
        return None
    op_type = d.draw(st.sampled_from(ops))[0]
    axes = d.draw(st.sampled_from([list(range(len(shape)))] +
                                  [[i] for i in range(-len(shape), len(shape))]))
    if d.draw(st.booleans()) and d.draw(st.booleans()):
        op_type = d.draw(st.sampled_from(["ArgMax", "ArgMin"]))
        return ("argmax", op_type, ("v", a), axes[0]) if dt != "bool" else None
    return ("reduce", op_type, ("v", a), axes, d.draw(st.booleans()))


def _draw_reshape(d: Drawer):
    a = d.pick(lambda dt, s: len(s) >= 1)
    if a is None:
        return None
    shape = d.p.types[a][1]
    n = int(np.prod(shape))
    options = [[n], [1, n], [n, 1], list(shape), list(reversed(shape))]
    return ("reshape", ("v", a), d.draw(st.sampled_from(options)), d.draw(st.booleans()))


def _draw_transpose(d: Drawer):
    a = d.pick(lambda dt, s: len(s) >= 2)
    if a is None:
        return None
    rank = len(d.p.types[a][1])
    perm = d.draw(st.permutations(list(range(rank))))
    return ("transpose", ("v", a), list(perm))


def _draw_concat(d: Drawer):
    a = d.pick(lambda dt, s: len(s) >= 1)
    if a is None:
        return None
    dt, shape = d.p.types[a]
    b = d.pick(lambda t, s: t == dt and len(s) == len(shape))
    stack = d.draw(st.booleans())
    axis = d.draw(st.integers(0, len(shape) - (0 if stack else 1)))
    return ("concat", ("v", a), ("v", b), axis, stack)


def _draw_matmul(d: Drawer):
    a = d.pick(lambda dt, s: len(s) == 2 and dt in FLOATS + ("int32",))
    if a is None:
        return None
    dt, (m, k) = d.p.types[a]
    ta, tb = d.draw(st.booleans()), d.draw(st.booleans())
    inner = m if ta else k
    b = d.pick(lambda t, s: t == dt and len(s) == 2 and s[1 if tb else 0] == inner)
    if b is None:
        n = d.draw(st.integers(1, 3))
        arr = arrays(d.draw, dt, (n, inner) if tb else (inner, n), d.smooth)
        return ("matmul", ("v", a), ("const", arr), ta, tb)
    return ("matmul", ("v", a), ("v", b), ta, tb)


def _draw_dense(d: Drawer):
    a = d.pick(lambda dt, s: len(s) == 2 and dt in FLOATS)
    if a is None:
        return None
    dt, (m, k) = d.p.types[a]
    n = d.draw(st.integers(1, 3))
    w = ("const", arrays(d.draw, dt, (k, n), d.smooth))
    bias_kind = d.draw(st.sampled_from(["const", "cap"]))
    bias = arrays(d.draw, dt, (n,), d.smooth)
    if bias_kind == "cap":
        d.p.captures.append(bias)
        bias_ref = ("cap", len(d.p.captures) - 1)
    else:
        bias_ref = ("const", bias)
    activation = d.draw(st.sampled_from([None, "Relu", "Relu6", "Tanh", "Sigmoid"]))
    return ("dense", ("v", a), w, bias_ref, activation, d.draw(st.booleans()))


def _draw_to4d(d: Drawer):
    a = d.pick(lambda dt, s: len(s) == 2 and dt in FLOATS)
    if a is None:
        return None
    return ("to4d", ("v", a), d.draw(st.booleans()))


def _draw_conv(d: Drawer):
    """A convolution of a 4-D value, or of a 2-D value reshaped to one channel."""
    a = d.pick(lambda dt, s: len(s) in (2, 4) and dt in FLOATS)
    if a is None:
        return None
    dt, shape = d.p.types[a]
    nchw = d.draw(st.booleans())
    c_in = 1 if len(shape) == 2 else shape[1] if nchw else shape[3]
    c_out = d.draw(st.integers(1, 2))
    kh, kw = d.draw(st.integers(1, 2)), d.draw(st.integers(1, 2))
    filters = arrays(d.draw, dt, (kh, kw, c_in, c_out), d.smooth)
    bias = arrays(d.draw, dt, (c_out,), d.smooth) if d.draw(st.booleans()) else None
    activation = d.draw(st.sampled_from([None, "Relu", "Tanh"]))
    return ("conv", ("v", a), filters, bias, activation, d.draw(st.booleans()), nchw)


def _draw_shape_of(d: Drawer):
    a = d.pick(lambda dt, s: len(s) >= 1)
    if a is None:
        return None
    rank = len(d.p.types[a][1])
    return ("shape_of", ("v", a), d.draw(st.sampled_from(["size", "rank"] +
                                                         list(range(-rank, rank)))))


def _draw_layout(d: Drawer):
    a = d.pick(lambda dt, s: len(s) >= 2 and dt in FLOATS)
    if a is None:
        return None
    dt, shape = d.p.types[a]
    perm = list(d.draw(st.permutations(list(range(len(shape))))))
    unary = [o[0] for o in d.tables.unary[dt] if o[1] == dt and
             (not d.smooth or o[0] in SMOOTH_UNARY)]
    ops = d.draw(st.lists(st.sampled_from(unary), max_size=2))
    return ("layout", ("v", a), perm, ops)


def _pattern_types(pattern, dtype) -> set:
    """The op types of a rule's pattern built on values of `dtype` (None: it takes no such
    values)."""
    if isinstance(pattern, Var) or not hasattr(pattern, "args"):
        return set()
    return {concrete_type(pattern.type, dtype)}.union(
        *(_pattern_types(a, dtype) for a in pattern.args))


def _takes(pattern, dtype: str, allowed) -> bool:
    """Whether rule `pattern` can be built on values of `dtype` (only from `allowed` op types
    when given). Patterns of one op type take every dtype but bool; a tuple of types (a flag's
    ops: Neg, LogicalNot, Invert) takes the dtypes one of them takes."""
    types = _pattern_types(pattern, dtype)
    if None in types or (allowed is not None and not types <= allowed):
        return False
    return isinstance(pattern.type, tuple) or dtype != "bool"


def _draw_rule(d: Drawer):
    """The pattern of a rule of the arithmetic table, on values of the program."""
    names = sorted(RULES)
    allowed = None
    if d.smooth:
        allowed = set(SMOOTH_UNARY + SMOOTH_BINARY + SMOOTH_INEXACT) | {"Transpose", "Reshape"}
        names = [n for n in names if _takes(RULES[n].pattern, "float32", allowed)]
    name = d.draw(st.sampled_from(names))
    x = d.pick(lambda dt, s: _takes(RULES[name].pattern, dt, allowed))
    if x is None:
        return None
    dt, shape = d.p.types[x]
    y = d.pick(lambda t, s: t == dt and broadcasts(s, shape))
    size = int(np.prod(shape, dtype=np.int64))
    reshapes = [[size], [1, size], [size, 1], list(shape)]
    extra = {"p": list(d.draw(st.permutations(list(range(len(shape)))))),
             "q": list(d.draw(st.permutations(list(range(len(shape)))))),
             "s1": d.draw(st.sampled_from(reshapes)), "s2": d.draw(st.sampled_from(reshapes))}
    return ("rule", name, ("v", x), ("v", x if y is None else y), d.draw(st.booleans()),
            d.draw(st.booleans()), extra)


def _draw_add_chain(d: Drawer):
    a = d.pick(lambda dt, s: dt in FLOATS + ("int32",))
    if a is None:
        return None
    dt, shape = d.p.types[a]
    n = d.draw(st.integers(2, 4))
    same = [i for i, (t, s) in enumerate(d.p.types) if t == dt and tuple(s) == tuple(shape)]
    refs = [("v", d.draw(st.sampled_from(same))) for _ in range(n)]
    return ("add_chain", [("v", a)] + refs)


def _draw_misc(d: Drawer):
    a = d.pick()
    dt, shape = d.p.types[a]
    names = [n for n in MISC if len(shape) >= 1 or n not in MISC_NEEDS_RANK]
    if d.smooth:
        names = [n for n in names if n not in ("zeros_like", "ones_like", "shape_of_known",
                                               "cumsum")]
    return ("misc", d.draw(st.sampled_from(names)), ("v", a))


def _draw_random(d: Drawer):
    shape = d.draw(st.sampled_from([(), (2,), (2, 2)]))
    return ("random", shape, d.draw(st.integers(1, 3)))


def _draw_read(d: Drawer):
    if not d.p.variables:
        return None
    return ("read", d.draw(st.integers(0, len(d.p.variables) - 1)))


def _draw_assign(d: Drawer):
    if not d.p.variables:
        return None
    k = d.draw(st.integers(0, len(d.p.variables) - 1))
    v = d.p.variables[k]
    a = d.pick(lambda dt, s: dt == v.dtype.name and tuple(s) == v.shape)
    if a is None:
        return None
    how = d.draw(st.sampled_from(["assign", "assign_add", "assign_sub"]))
    if v.dtype == np.bool_:
        how = "assign"
    return ("assign", how, k, ("v", a))


def _draw_ctrl(d: Drawer):
    a = d.pick()
    dt = d.p.types[a][0]
    unary = [o[0] for o in d.tables.unary[dt]]
    op_type = d.draw(st.sampled_from([None] + unary))
    assign = _draw_assign(d)
    if assign is not None and assign[1] == "assign_add":
        return ("ctrl", ("assign_add", assign[2], assign[3]), ("v", a), op_type)
    return ("ctrl", ("print", ("v", d.pick())), ("v", a), op_type)


def _draw_print(d: Drawer):
    return ("print", ("v", d.pick()))


def _draw_check(d: Drawer):
    a = d.pick(lambda dt, s: dt in FLOATS)
    return None if a is None else ("check", ("v", a))


def _draw_assert(d: Drawer):
    a = d.pick(lambda dt, s: dt != "bool")
    return None if a is None else ("assert", ("v", a))


def _draw_chain(d: Drawer, dt, shape, *, outer: bool, stateful: bool, depth: int = 0,
                random: bool = True):
    unary = [o[0] for o in d.tables.unary[dt] if o[1] == dt and
             (not d.smooth or o[0] in SMOOTH_UNARY)]
    binary = [o[0] for o in d.tables.binary[dt] if o[1] == dt and
              (not d.smooth or o[0] in SMOOTH_BINARY)]
    kinds = ["u", "bc"] + (["outer", "outer_bc"] if outer else []) + \
        (["print", "assign", "read_add", "check"] + (["random"] if random else [])
         if stateful else []) + \
        (["cond", "while", "call"] if depth < 2 else [])
    chain = []
    for _ in range(d.draw(st.integers(0, 3))):
        kind = d.draw(st.sampled_from(kinds))
        if kind == "u" and unary:
            chain.append(("u", d.draw(st.sampled_from(unary))))
        elif kind == "bc" and binary and dt != "bool":
            chain.append(("bc", d.draw(st.sampled_from(binary)), d.scalar(dt),
                          d.draw(st.booleans())))
        elif kind == "outer" and binary:
            j = d.pick(lambda t, s: t == dt and broadcasts(s, shape))
            if j is not None:
                u = d.draw(st.sampled_from([None] + unary)) if unary else None
                chain.append(("outer", d.draw(st.sampled_from(binary)), u, j))
        elif kind == "outer_bc" and binary and dt != "bool":
            j = d.pick(lambda t, s: t == dt and broadcasts(s, shape))
            if j is not None:
                chain.append(("outer_bc", d.draw(st.sampled_from(binary)),
                              d.draw(st.sampled_from(binary)), d.scalar(dt), j))
        elif kind == "print":
            chain.append(("print",))
        elif kind in ("assign", "read_add"):
            ks = [k for k, v in enumerate(d.p.variables) if v.dtype.name == dt and
                  v.shape == tuple(shape)]
            if ks and (kind == "assign" or dt != "bool"):
                k = d.draw(st.sampled_from(ks))
                chain.append(("assign", d.draw(st.sampled_from(["assign", "assign_add"])), k)
                             if kind == "assign" else ("read_add", k))
        elif kind == "random" and dt == "float32":
            chain.append(("random", d.draw(st.integers(1, 3))))
        elif kind == "check" and dt in FLOATS:
            chain.append(("check",))
        elif kind in ("cond", "while", "call"):
            chain.append(_draw_nested(d, kind, dt, shape, outer, stateful, depth + 1, random))
    return chain


def _draw_nested(d: Drawer, kind, dt, shape, outer, stateful, depth, random):
    """Control flow inside a sub-graph (a nested function cannot capture outer tensors)."""
    def sub():
        return _draw_chain(d, dt, shape, outer=outer and kind != "call", stateful=stateful,
                           depth=depth, random=random)
    if kind == "cond":
        pred = ("const", d.draw(st.booleans())) if d.draw(st.booleans()) else ("x",)
        return ("cond", pred, sub(), sub())
    if kind == "while":
        return ("while", d.draw(st.sampled_from([None, 0, 1, 2])), sub())
    return ("call", sub())


def _draw_cond(d: Drawer):
    a = d.pick()
    dt, shape = d.p.types[a]
    if d.draw(st.booleans()):
        pred = ("const", d.draw(st.booleans()))
    else:
        pred = ("v", d.pick())
    stateful = not d.smooth
    then_chain = _draw_chain(d, dt, shape, outer=True, stateful=stateful)
    else_chain = _draw_chain(d, dt, shape, outer=True, stateful=stateful)
    return ("cond", pred, ("v", a), then_chain, else_chain)


def _draw_while(d: Drawer):
    a = d.pick()
    dt, shape = d.p.types[a]
    limit = d.draw(st.sampled_from([None, 0, 1, 2, 3, "value"]))
    if limit == "value":
        n = d.pick(lambda t, s: t == "int32" and s == ())
        limit = 2 if n is None else ("v", n)
    body = _draw_chain(d, dt, shape, outer=True, stateful=not d.smooth)
    max_iterations = d.draw(st.sampled_from([None, None, 1, 2]))
    return ("while", ("v", a), limit, body, max_iterations)


def _draw_call(d: Drawer):
    a = d.pick()
    dt, shape = d.p.types[a]
    # A function called twice holds no random op: both call sites would share its generator
    # (compile_subgraph keeps one compiled function, with its state, per function graph),
    # while inlined they are two ops with a generator each.
    twice = d.draw(st.booleans())
    return ("call", ("v", a), _draw_chain(d, dt, shape, outer=False, stateful=not d.smooth,
                                          random=not twice), twice)


DRAWERS = {
    "unary": (_draw_unary, 6), "binary": (_draw_binary, 8), "cast": (_draw_cast, 1),
    "select": (_draw_select, 1), "clip": (_draw_clip, 1), "reduce": (_draw_reduce, 2),
    "reshape": (_draw_reshape, 2), "transpose": (_draw_transpose, 2),
    "concat": (_draw_concat, 1), "matmul": (_draw_matmul, 2), "dense": (_draw_dense, 2),
    "to4d": (_draw_to4d, 1), "conv": (_draw_conv, 2), "shape_of": (_draw_shape_of, 1),
    "layout": (_draw_layout, 1), "add_chain": (_draw_add_chain, 2), "misc": (_draw_misc, 2),
    "random": (_draw_random, 1), "read": (_draw_read, 1), "assign": (_draw_assign, 2),
    "print": (_draw_print, 1), "check": (_draw_check, 1), "assert": (_draw_assert, 1),
    "cond": (_draw_cond, 2), "while": (_draw_while, 2), "call": (_draw_call, 2),
    "rule": (_draw_rule, 5), "ctrl": (_draw_ctrl, 2),
}
SMOOTH_KINDS = ("unary", "binary", "reduce", "reshape", "transpose", "concat", "matmul",
                "dense", "layout", "add_chain", "misc", "cond", "while", "call", "to4d",
                "conv", "rule")
_KIND_LIST = [k for k, (_, weight) in DRAWERS.items() for _ in range(weight)]
_SMOOTH_LIST = [k for k in _KIND_LIST if k in SMOOTH_KINDS]


@st.composite
def programs(draw, max_steps: int = 8, smooth: bool = False) -> Program:
    """A random program. `smooth`: float32 values and continuous ops only (for passes that
    change rounding, compared with a tolerance)."""
    p = Program()
    rows, cols = draw(st.integers(1, 3)), draw(st.integers(1, 3))
    dtypes = ("float32",) if smooth else ("float32", "float32", "float64", "int32")
    for _ in range(draw(st.integers(1, 3))):
        dt = draw(st.sampled_from(dtypes))
        shape = draw(st.sampled_from([(rows, cols), (rows, cols), (cols,), ()]))
        p.inputs.append((dt, shape))
        p.feeds.append(arrays(draw, dt, shape, smooth))
        p.types.append((dt, shape))
    if not smooth:
        for _ in range(draw(st.integers(0, 2))):
            dt = draw(st.sampled_from(["float32", "int32"]))
            p.variables.append(arrays(draw, dt, (rows, cols)))
    d = Drawer(draw, p, smooth)
    kinds = _SMOOTH_LIST if smooth else _KIND_LIST
    for _ in range(draw(st.integers(1, max_steps))):
        step = DRAWERS[draw(st.sampled_from(kinds))][0](d)
        if step is not None:
            d.add(step)
    # the last value, values no later step reads (so few steps are pruned away), and any
    last = len(p.types) - 1
    read = set()
    for step in p.steps:
        read |= _read_values(step)
    sinks = [i for i in range(len(p.inputs), last) if i not in read]
    p.outputs = [last] + sinks[-2:] + draw(st.lists(st.integers(0, last), max_size=1))
    return p


def _read_values(step) -> set:
    """The indices of the values a step (or a chain link in it) reads."""
    if isinstance(step, tuple) and len(step) == 2 and step[0] == "v":
        return {step[1]}
    if isinstance(step, tuple) and step and step[0] in ("outer", "outer_bc"):
        return {step[-1]}
    if isinstance(step, (tuple, list)):
        return set().union(*(_read_values(s) for s in step)) if step else set()
    return set()
