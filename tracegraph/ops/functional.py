"""Functional control flow: `If`/`StatelessIf`, `While`/`StatelessWhile` and
`PartitionedCall`/`StatefulPartitionedCall`, whose attrs hold sub-graphs.

Executors hand the kernels compiled sub-graphs as callables (`then_branch(*inputs)`), so the
kernels are plain Python `if`/`while`. The code generator asks each record's `emit` hook to
write the same control flow inline, around the sub-graphs' code, through a small emitter
interface: `line(text, op)`, `block()` (an indented suite), `inline(graph, input_exprs)` (emits a
sub-graph's ops, returns its output expressions), `temp()`, `reserve(name)`/`release_name(name)`.
"""

from __future__ import annotations

import numpy as np

from .. import dtypes as d
from ..shapes import TensorType, most_specific_common
from . import gradutil as G
from .registry import ALL_TYPES, GRADIENT_HOOKS, REQUIRED, TypeAttr, defgrad, defop

_ANY = ALL_TYPES
_CONTROL = {"control_flow"}


def _graph_output_types(graph) -> list[TensorType]:
    return [TensorType(t.dtype, t._shape) for t in graph.outputs]


# ---- If --------------------------------------------------------------------------------------

def infer_if(cond, input, then_branch=REQUIRED, else_branch=REQUIRED,  # noqa: A002
             Tout=(), output_shapes=(), **_):
    if cond.shape not in (None, ()):
        raise ValueError(f"The predicate of a cond must be a scalar, got shape {cond.shape}")
    then_types = _graph_output_types(then_branch)
    else_types = _graph_output_types(else_branch)
    out = []
    for a, b in zip(then_types, else_types):
        out.append(TensorType(a.dtype, most_specific_common(a.shape, b.shape)))
    return tuple(out)


def kernel_if(cond, input, then_branch=REQUIRED, else_branch=REQUIRED,  # noqa: A002
              Tout=(), output_shapes=(), **_):
    return then_branch(*input) if cond else else_branch(*input)


def _assign(targets, values) -> str:
    return f"{', '.join(targets)} = {', '.join(values)}"


def emit_if(em, op, ins, outs) -> None:
    """if pred: <then branch inline> else: <else branch inline>."""
    pred, args = ins[0], ins[1:]
    em.line(f"if {pred}:", op)
    for branch in (op.attrs["then_branch"], op.attrs["else_branch"]):
        with em.block():
            results = em.inline(branch, args)
            em.line(_assign(outs, results) if outs else "pass")
        if branch is op.attrs["then_branch"]:
            em.line("else:")


_IF = dict(inputs=("cond: Tcond", "input: list(Tin)"),
           attrs={"Tcond": TypeAttr(_ANY), "Tin": TypeAttr(_ANY), "then_branch": REQUIRED,
                  "else_branch": REQUIRED, "Tout": (), "output_shapes": ()},
           infer=infer_if, kernel=kernel_if, num_outputs=None, emit=emit_if)

stateless_if_op = defop("stateless_if", "StatelessIf", flags=_CONTROL | {"pure"}, **_IF)
if_op = defop("if", "If", stateful=True, flags=_CONTROL, **_IF)


# ---- While -----------------------------------------------------------------------------------

def infer_while(input, cond=REQUIRED, body=REQUIRED, T=(), output_shapes=(),  # noqa: A002
                parallel_iterations=10, **_):
    shapes = list(output_shapes) if output_shapes else [t.shape for t in input]
    return tuple(TensorType(t.dtype, s) for t, s in zip(input, shapes))


def kernel_while(input, cond=REQUIRED, body=REQUIRED, T=(), output_shapes=(),  # noqa: A002
                 parallel_iterations=10, **_):
    values = tuple(input)
    while cond(*values)[0]:
        values = body(*values)
    return list(values)


def emit_while(em, op, ins, outs) -> None:
    """Loop variables live in reserved names; the cond graph is emitted before the loop and
    again at the end of each iteration, so the loop pays no call per iteration."""
    cond, body = op.attrs["cond"], op.attrs["body"]
    loop_vars = [em.temp() for _ in ins]
    for name in loop_vars:
        em.reserve(name)
    if loop_vars:
        em.line(_assign(loop_vars, ins), op)
    (test,) = em.inline(cond, loop_vars)
    em.line(f"while {test}:")
    with em.block():
        results = em.inline(body, loop_vars)
        if loop_vars:
            em.line(_assign(loop_vars, results))
        (test_again,) = em.inline(cond, loop_vars)
        if test_again != test:
            em.line(f"{test} = {test_again}")
    for name, out in zip(loop_vars, outs):
        em.alias(out, name)   # the loop's results stay in the loop variables: no copies
    for name in loop_vars:
        em.release_name(name)
        em.free_if_dead(name)


_WHILE = dict(inputs=("input: list(T)",),
              attrs={"T": TypeAttr(_ANY), "cond": REQUIRED, "body": REQUIRED,
                     "output_shapes": (), "parallel_iterations": 10},
              infer=infer_while, kernel=kernel_while, num_outputs=None, emit=emit_while)

stateless_while_op = defop("stateless_while", "StatelessWhile", flags=_CONTROL | {"pure"},
                           **_WHILE)
while_op = defop("while", "While", stateful=True, flags=_CONTROL, **_WHILE)


# ---- calls of other functions ----------------------------------------------------------------

def infer_call(args, f=REQUIRED, Tin=(), Tout=(), **_):
    return tuple(_graph_output_types(f))


def kernel_call(args, f=REQUIRED, Tin=(), Tout=(), **_):
    return f(*args)


_CALL = dict(inputs=("args: list(Tin)",),
             attrs={"Tin": TypeAttr(_ANY), "f": REQUIRED, "Tout": ()},
             infer=infer_call, kernel=kernel_call, num_outputs=None)

partitioned_call_op = defop("partitioned_call", "PartitionedCall",
                            flags={"pure", "function_call"}, **_CALL)
stateful_partitioned_call_op = defop("stateful_partitioned_call", "StatefulPartitionedCall",
                                     stateful=True, flags={"function_call"}, **_CALL)


@defgrad(partitioned_call_op, stateful_partitioned_call_op)
def _call_grad(op, *grads):
    """The called graph's ops run again under a tape in the caller's context (eagerly or as
    backward ops of the caller's graph)."""
    return GRADIENT_HOOKS["function"](op.attrs["f"], list(op.inputs), grads)


# ---- gradients of control flow ----------------------------------------------------------------

def _differentiable(x) -> bool:
    dtype = getattr(x, "dtype", None)
    return dtype is not None and (dtype.is_floating or dtype.is_complex)


def _handle_of(x):
    """The Variable storage a resource input stands for (a handle, or a graph edge whose known
    value is the handle), or None for other inputs."""
    if hasattr(x, "owner") and hasattr(x, "value"):
        return x
    if getattr(x, "dtype", None) is d.resource:
        return getattr(x, "_value", None)
    return None


def _zeros_for(x):
    """Zeros shaped like an input's gradient (a resource input: its Variable's value)."""
    handle = _handle_of(x)
    if handle is None:
        return G.zeros_like(x)
    return G.op("fill", np.asarray(handle.shape, np.int32),
                np.zeros((), handle.dtype.as_numpy_dtype))


def _resource_like(x) -> bool:
    return _handle_of(x) is not None


def _branch_grads(graph, args, grads):
    got = GRADIENT_HOOKS["function"](graph, args, grads)
    out = []
    for x, g in zip(args, got):
        if _differentiable(x) or _resource_like(x):
            out.append(g if g is not None else _zeros_for(x))
        else:
            out.append(None)
    return out


@defgrad(stateless_if_op, if_op)
def _if_grad(op, *grads):
    """A cond of the branches' gradients: each branch's ops run again under a tape."""
    pred, args = op.inputs[0], list(op.inputs[1:])
    then_g, else_g = op.attrs["then_branch"], op.attrs["else_branch"]
    grads = list(grads)
    result = GRADIENT_HOOKS["cond"](pred, lambda: _branch_grads(then_g, args, grads),
                                    lambda: _branch_grads(else_g, args, grads))
    return [None] + list(result)


@defgrad(stateless_while_op, while_op)
def _while_grad(op, *grads):
    """Runs the loop again, stacking the loop variables of every iteration, then a backward
    loop from the last iteration to the first applies the body's gradient to each stacked
    state (the body's ops run again under a tape in the backward loop's graph)."""
    from ..shapes import TensorShape

    inputs = list(op.inputs)
    cond_g, body_g = op.attrs["cond"], op.attrs["body"]
    n = len(inputs)
    invariant = [body_g.outputs[k] is body_g.inputs[k] for k in range(n)]
    varying = [k for k in range(n) if not invariant[k]]
    shapes = list(op.attrs.get("output_shapes") or [None] * n)
    while_loop = GRADIENT_HOOKS["while_loop"]
    replay = GRADIENT_HOOKS["replay"]

    def state_of(vs):
        return [vs[varying.index(k)] if k in varying else inputs[k] for k in range(n)]

    def fw_cond(count, *rest):
        return replay(cond_g, state_of(rest[:len(varying)]))[0]

    def fw_body(count, *rest):
        vs, stacks = rest[:len(varying)], rest[len(varying):]
        new = replay(body_g, state_of(vs))
        new_vs = [new[k] for k in varying]
        stacks = [G.op("concat", [s, G.op("expand_dims", v, 0)], 0)
                  for s, v in zip(stacks, new_vs)]
        return (G.op("add", count, 1), *new_vs, *stacks)

    init = [inputs[k] for k in varying]
    stacks = [G.op("expand_dims", v, 0) for v in init]
    invariants = [TensorShape([])] + [TensorShape(shapes[k]) for k in varying] + \
        [TensorShape([None] + list(TensorShape(shapes[k]).as_list() or []))
         if TensorShape(shapes[k]).rank is not None else TensorShape(None) for k in varying]
    out = while_loop(fw_cond, fw_body, [np.int32(0), *init, *stacks],
                     shape_invariants=invariants)
    count, stacks = out[0], list(out[1 + len(varying):])

    wanted = [k for k in range(n) if _differentiable(inputs[k]) or _resource_like(inputs[k])]
    start = [grads[k] if grads[k] is not None else _zeros_for(inputs[k]) for k in wanted]

    def bw_cond(j, *gs):
        return G.op("greater_equal", j, 0)

    def bw_body(j, *gs):
        vs = [G.op("gather", s, j, 0) for s in stacks]
        upstream = [None] * n
        for k, g in zip(wanted, gs):
            upstream[k] = g
        got = GRADIENT_HOOKS["function"](body_g, state_of(vs), upstream)
        return (G.op("subtract", j, 1),
                *[got[k] if got[k] is not None else _zeros_for(inputs[k]) for k in wanted])

    result = while_loop(bw_cond, bw_body, [G.op("subtract", count, 1), *start])
    found = dict(zip(wanted, list(result)[1:]))
    return [found.get(k) for k in range(n)]
