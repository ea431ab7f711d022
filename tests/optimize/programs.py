"""Random graphs for the optimizer's property tests, written as data (strategies.py draws them).

A `Program` is a small straight-line program over tensors: inputs (with the values to feed),
captured eager constants, Variables, and steps that apply ops chosen from the op registry or
build shape ops, matmuls, fused-kernel patterns, NCHW convolutions, the patterns of the
arithmetic rule table, `tf.cond`, `tf.while_loop`, nested `tf.function` calls, `tf.print`,
asserts and Variable updates. `trace(program)` runs it under `tf.function`, so the graph is
exactly what tracing makes of user code.

Programs are plain data, so Hypothesis shrinks them and prints a failing one as the
`Program(...)` call that rebuilds it (`types` only matters while drawing). `emit` applies one
step; drawing uses it too, eagerly on dummy values, to learn the type of each step's result.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

import tracegraph as tf
from tracegraph.ops.registry import get_op
from tracegraph.optimize.arithmetic_optimization import ARITHMETIC
from tracegraph.optimize.rewrite_rules import Const, Var

DTYPES = {"float32": np.float32, "float64": np.float64, "int32": np.int32, "bool": np.bool_}
RULES = {rule.name: rule for rule in ARITHMETIC}

# ---- programs ------------------------------------------------------------------------------------

@dataclass
class Program:
    inputs: list = field(default_factory=list)     # (dtype, shape) of each placeholder
    feeds: list = field(default_factory=list)      # the array fed to each placeholder
    captures: list = field(default_factory=list)   # arrays captured as eager tensors
    variables: list = field(default_factory=list)  # initial values of Variables
    steps: list = field(default_factory=list)      # tuples, see `emit`
    outputs: list = field(default_factory=list)    # value indices returned
    types: list = field(default_factory=list)      # (dtype, shape) of every value


def produces(step) -> int:
    return 0 if step[0] in ("print", "assign", "check", "assert") else 1


# ---- applying a program (tracing or eager type derivation) ---------------------------------------

class Env:
    """What steps read: values by index, captured eager tensors, Variables."""

    def __init__(self, values, captured, variables):
        self.values = list(values)
        self.captured = captured
        self.variables = variables

    def operand(self, ref):
        kind, x = ref
        if kind == "v":
            return self.values[x]
        if kind == "py":        # a Python scalar: a Const of the other operand's dtype
            return x
        if kind == "const":     # a Const made in the graph
            return tf.constant(x)
        if kind == "cap":       # a captured eager tensor
            return self.captured[x]
        raise ValueError(ref)


def concrete_type(type_, dtype) -> str | None:
    """The op type a rule pattern means for values of `dtype`: a tuple of types (the ops a
    record flag selects) gives the first whose record takes `dtype` as its first input."""
    if not isinstance(type_, tuple):
        return type_
    dtype = tf.as_dtype(dtype)
    for t in type_:
        spec = get_op(t).inputs[0]
        allowed = ({spec.fixed_dtype} if spec.fixed_dtype is not None
                   else get_op(t).type_attrs[spec.type_attr].allowed)
        if dtype in allowed:
            return t
    return None


def _apply(op_type: str, *args, **attrs):
    return get_op(op_type)(*args, **attrs)


def emit(step, env: Env) -> None:
    """Applies one step, appending its result (if any) to `env.values`."""
    kind, args = step[0], step[1:]
    result = _EMIT[kind](env, *args)
    if produces(step):
        env.values.append(result)


def _emit_unary(env, op_type, a):
    return _apply(op_type, env.operand(a))


def _emit_binary(env, op_type, a, b):
    return _apply(op_type, env.operand(a), env.operand(b))


def _emit_cast(env, a, dtype):
    return tf.cast(env.operand(a), dtype)


def _emit_select(env, c, a, b):
    return _apply("SelectV2", env.operand(c), env.operand(a), env.operand(b))


def _emit_clip(env, a, lo, hi):
    return _apply("ClipByValue", env.operand(a), env.operand(lo), env.operand(hi))


def _emit_reduce(env, op_type, a, axis, keepdims):
    return _apply(op_type, env.operand(a), np.array(axis, np.int32), keep_dims=keepdims)


def _emit_argmax(env, op_type, a, axis):
    return _apply(op_type, env.operand(a), np.int32(axis), output_type=tf.int32)


def _emit_reshape(env, a, shape, via_shape_op):
    x = env.operand(a)
    target = tf.shape(x) if via_shape_op else np.array(shape, np.int32)
    return tf.reshape(x, target)


def _emit_transpose(env, a, perm):
    return tf.transpose(env.operand(a), perm)


def _emit_concat(env, a, b, axis, stack):
    values = [env.operand(a), env.operand(b)]
    return tf.stack(values, axis) if stack else tf.concat(values, axis)


def _emit_matmul(env, a, b, ta, tb):
    return tf.matmul(env.operand(a), env.operand(b), transpose_a=ta, transpose_b=tb)


def _activation(name, x):
    return x if name is None else _apply(name, x)


def _emit_dense(env, a, w, bias, activation, bias_add):
    y = tf.matmul(env.operand(a), env.operand(w))
    y = tf.nn.bias_add(y, env.operand(bias)) if bias_add else y + env.operand(bias)
    return _activation(activation, y)


def _emit_to4d(env, a, nchw):
    x = env.operand(a)
    r, c = x.shape
    return tf.reshape(x, [1, 1, r, c] if nchw else [1, r, c, 1])


def _emit_conv(env, a, filters, bias, activation, pool, nchw):
    fmt = "NCHW" if nchw else "NHWC"
    x = env.operand(a)
    if len(x.shape) == 2:
        x = _emit_to4d(env, a, nchw)
    y = tf.nn.conv2d(x, tf.constant(filters), strides=1, padding="SAME", data_format=fmt)
    if bias is not None:
        y = tf.nn.bias_add(y, tf.constant(bias), data_format=fmt)
    y = _activation(activation, y)
    if pool:
        y = tf.nn.max_pool(y, ksize=1, strides=1, padding="VALID", data_format=fmt)
    return y


def _emit_shape_of(env, a, how):
    x = env.operand(a)
    if how == "size":
        return tf.reduce_prod(tf.shape(x))
    if how == "rank":
        return tf.rank(x)
    return tf.shape(x)[how]


def _emit_layout(env, a, perm, ops):
    inverse = [int(i) for i in np.argsort(perm)]
    x = tf.transpose(env.operand(a), perm)
    for op_type in ops:
        x = _apply(op_type, x)
    return tf.transpose(x, inverse)


def _emit_rule(env, name, x, y, full, swap, extra):
    """The pattern of arithmetic rule `name`, built from its table row: X and Y are values,
    Const(v) a constant v of X's dtype (X's shape when `full`, else a scalar), other variables
    (permutations, shapes) come from `extra`; `swap` puts operands of commutative ops the
    other way round."""
    xv = env.operand(x)

    def build(pattern):
        if isinstance(pattern, Var):
            if pattern.name in ("x", "y"):
                return env.operand(x if pattern.name == "x" else y)
            return np.asarray(extra[pattern.name], np.int32)
        if isinstance(pattern, Const):
            shape = tuple(xv.shape) if full else ()
            return tf.constant(np.full(shape, pattern.value, xv.dtype.as_numpy_dtype))
        args = [build(a) for a in pattern.args]
        op_type = concrete_type(pattern.type, xv.dtype)
        if swap and len(args) == 2 and "commutative" in get_op(op_type).flags:
            args.reverse()
        return _apply(op_type, *args)

    return build(RULES[name].pattern)


def _emit_add_chain(env, refs):
    total = env.operand(refs[0])
    for r in refs[1:]:
        total = total + env.operand(r)
    return total


MISC = {
    "zeros_like": tf.zeros_like,
    "ones_like": tf.ones_like,
    "identity": tf.identity,
    "stop_gradient": tf.stop_gradient,
    "reverse": lambda x: tf.reverse(x, [0]),
    "tile": lambda x: tf.tile(x, [2] + [1] * (len(x.shape) - 1)),
    "expand_squeeze": lambda x: tf.squeeze(tf.expand_dims(x, 0), [0]),
    "first_row": lambda x: x[:1],
    "gather": lambda x: tf.gather(x, [0, 0], axis=0),
    "cumsum": lambda x: tf.cumsum(x, axis=0),
    "pad": lambda x: tf.pad(x, [[1, 0]] + [[0, 0]] * (len(x.shape) - 1)),
    "softmax": tf.nn.softmax,
    "broadcast": lambda x: tf.broadcast_to(x, [2] + list(x.shape)),
    "shape_of_known": lambda x: tf.cast(tf.shape(x), tf.float32),
    "unstack_last": lambda x: tf.unstack(x, axis=0)[-1],            # ops with several outputs
    "split_first": lambda x: tf.split(tf.concat([x, x], 0), 2, axis=0)[0],
    "minimum_of_halves": lambda x: tf.minimum(*tf.split(tf.concat([x, -x], 0), 2, axis=0)),
}
MISC_NEEDS_RANK = {"reverse", "tile", "first_row", "gather", "cumsum", "pad", "softmax",
                   "unstack_last", "split_first", "minimum_of_halves"}


def _emit_misc(env, name, a):
    return MISC[name](env.operand(a))


def _emit_random(env, shape, seed):
    return tf.random.uniform(shape, seed=seed)


def _emit_read(env, k):
    return env.variables[k].read_value()


def _emit_assign(env, how, k, a):
    getattr(env.variables[k], how)(env.operand(a))


def _emit_ctrl(env, dep, a, op_type):
    """`op_type(a)` (or an identity) under `tf.control_dependencies` on a print or a Variable
    update: ops that wait for a stateful op without reading it."""
    if dep[0] == "print":
        first = tf.print(env.operand(dep[1]))
    else:
        first = env.variables[dep[1]].assign_add(env.operand(dep[2]))
    with tf.control_dependencies([first]):
        x = env.operand(a)
        return tf.identity(x) if op_type is None else _apply(op_type, x)


def _emit_print(env, a):
    tf.print(env.operand(a))


def _emit_check(env, a):
    tf.debugging.check_numerics(env.operand(a), "property test")


def _emit_assert(env, a):
    x = env.operand(a)
    tf.debugging.Assert(tf.reduce_all(tf.equal(x, x)), [x])


# -- control flow: a chain is a list of dtype- and shape-preserving steps on one value -------------

def run_chain(chain, x, env: Env):
    for link in chain:
        kind = link[0]
        if kind == "u":
            x = _apply(link[1], x)
        elif kind == "bc":        # binary with a Python scalar, on either side
            _, op_type, scalar, left = link
            x = _apply(op_type, scalar, x) if left else _apply(op_type, x, scalar)
        elif kind == "outer":     # binary with f(outer value): loop-invariant in a body
            _, op_type, unary, j = link
            y = env.values[j] if unary is None else _apply(unary, env.values[j])
            x = _apply(op_type, x, y)
        elif kind == "outer_bc":  # binary with (outer value op scalar): may fail (x // 0)
            _, op_type, inner, scalar, j = link
            x = _apply(op_type, x, _apply(inner, env.values[j], scalar))
        elif kind == "print":
            tf.print(x)
        elif kind == "assign":
            env.variables[link[2]].assign_add(x) if link[1] == "assign_add" else \
                env.variables[link[2]].assign(x)
        elif kind == "read_add":
            x = x + env.variables[link[1]].read_value()
        elif kind == "random":
            x = x + tf.random.uniform(x.shape, seed=link[1])
        elif kind == "check":
            x = tf.debugging.check_numerics(x, "in a sub-graph")
        elif kind == "cond":      # nested control flow
            x = _cond(link[1], x, link[2], link[3], env)
        elif kind == "while":
            x = _while(x, link[1], link[2], None, env)
        elif kind == "call":
            x = _call(x, link[1], env)
        else:
            raise ValueError(link)
    return x


def _predicate(pred, x, env: Env):
    """("const", b): a constant; ("v", i): sum(value i) > 0 (any, for bools); ("x",): the
    same of the chain's value."""
    if pred[0] == "const":
        return tf.constant(pred[1])
    v = env.values[pred[1]] if pred[0] == "v" else x
    return tf.reduce_any(v) if v.dtype is tf.bool else tf.reduce_sum(v) > 0


def _cond(pred, x, then_chain, else_chain, env: Env):
    return tf.cond(_predicate(pred, x, env), lambda: run_chain(then_chain, x, env),
                   lambda: run_chain(else_chain, x, env))


def _while(x, limit, body_chain, max_iterations, env: Env):
    """`limit`: None (the condition is the constant False), an int, or ("v", i): an int32
    scalar value of the program (the loop may run no iteration, or many: at most 4)."""
    def cond(i, _):
        if limit is None:
            return tf.constant(False)
        if isinstance(limit, tuple):
            return i < tf.minimum(env.values[limit[1]], 4)
        return i < limit

    def body(i, y):
        return i + 1, run_chain(body_chain, y, env)

    return tf.while_loop(cond, body, (tf.constant(0), x),
                         maximum_iterations=max_iterations)[1]


def _call(x, chain, env: Env):
    inner = tf.function(lambda y: run_chain(chain, y, env), autograph=False)
    return inner(x)


def _emit_cond(env, pred, a, then_chain, else_chain):
    return _cond(pred, env.operand(a), then_chain, else_chain, env)


def _emit_while(env, a, limit, body_chain, max_iterations):
    return _while(env.operand(a), limit, body_chain, max_iterations, env)


def _emit_call(env, a, chain, twice):
    """A nested tf.function; `twice`: called a second time on its own result (two call ops of
    one function graph)."""
    inner = tf.function(lambda y: run_chain(chain, y, env), autograph=False)
    x = inner(env.operand(a))
    return inner(x) if twice else x


_EMIT = {
    "unary": _emit_unary, "binary": _emit_binary, "cast": _emit_cast, "select": _emit_select,
    "clip": _emit_clip, "reduce": _emit_reduce, "argmax": _emit_argmax,
    "reshape": _emit_reshape, "transpose": _emit_transpose, "concat": _emit_concat,
    "matmul": _emit_matmul, "dense": _emit_dense, "to4d": _emit_to4d, "conv": _emit_conv,
    "shape_of": _emit_shape_of, "layout": _emit_layout, "add_chain": _emit_add_chain,
    "misc": _emit_misc, "random": _emit_random, "read": _emit_read, "assign": _emit_assign,
    "print": _emit_print, "check": _emit_check, "assert": _emit_assert, "cond": _emit_cond,
    "while": _emit_while, "call": _emit_call, "rule": _emit_rule, "ctrl": _emit_ctrl,
}


@dataclass
class Traced:
    graph: object          # the FuncGraph
    variables: list        # the Variables it captures (fresh ones per trace)


def trace(program: Program) -> Traced:
    """The FuncGraph of `program` as `tf.function` traces it."""
    captured = [tf.constant(c) for c in program.captures]
    variables = [tf.Variable(v) for v in program.variables]

    def f(*xs):
        env = Env(xs, captured, variables)
        for step in program.steps:
            emit(step, env)
        return tuple(env.values[i] for i in program.outputs)

    specs = [tf.TensorSpec(shape, getattr(tf, dt)) for dt, shape in program.inputs]
    cf = tf.function(f, autograph=False).get_concrete_function(*specs)
    return Traced(cf.graph, variables)
