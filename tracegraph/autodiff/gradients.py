"""`tf.custom_gradient` and `tf.gradients` (a graph being built, differentiated after the
fact)."""

from __future__ import annotations

import functools

from ..framework.tensor import Tensor
from ..framework.variables import Variable
from ..library import array as array_ops
from ..nest import flatten, pack_sequence_as
from ..ops.registry import context_scope
from .backprop import UnconnectedGradients, _finish, backprop
from .recording import active_tapes, base_context
from .tape import GradientTape

__all__ = ["custom_gradient", "gradients", "record_custom"]


# ---- tf.custom_gradient --------------------------------------------------------------------

def record_custom(inputs, outputs, rule, name="CustomGradient") -> None:
    """Records a computation with a hand-written rule on every recording tape."""
    for tape in active_tapes():
        tape._record_custom(inputs, outputs, rule, name)


def custom_gradient(f=None):
    """`@tf.custom_gradient`: `f(*x)` returns `(y, grad_fn)`; `grad_fn(*dy)` returns the
    gradients of the tensor arguments (and, with `variables=`, of the Variables f used)."""
    if f is None:
        return custom_gradient

    @functools.wraps(f)
    def decorated(*args, **kwargs):
        tapes = active_tapes()
        if not tapes:
            result, _ = f(*args, **kwargs)
            return result
        with context_scope(base_context()):
            with GradientTape() as probe:
                result, grad_fn = f(*args, **kwargs)
            variables = list(probe.watched_variables())
            flat_out = flatten(result)
            outs = [array_ops.identity(o) if isinstance(o, (Tensor, Variable)) else o
                    for o in flat_out]
        tensor_args = [a for a in flatten(args) if isinstance(a, (Tensor, Variable))]
        n_args = len(tensor_args)

        def rule(op, *dys):
            dys = [dy for dy, o in zip(dys, outs) if isinstance(o, Tensor)]
            if variables:
                dx, dv = grad_fn(*dys, variables=variables)
            else:
                dx, dv = grad_fn(*dys), []
            dx = list(dx) if isinstance(dx, (list, tuple)) else [dx]
            if len(dx) != n_args:
                raise ValueError(f"custom_gradient function expected to return {n_args} "
                                 f"gradients, but returned {len(dx)} instead.")
            return dx + list(dv)

        inputs = tensor_args + variables
        live = [o for o in outs if isinstance(o, Tensor)]
        for tape in tapes:
            tape._record_custom(inputs, live, rule, f.__name__)
        return pack_sequence_as(result, outs)

    return decorated


# ---- tf.gradients: differentiate a graph being built ---------------------------------------

def gradients(ys, xs, grad_ys=None, name="gradients", gate_gradients=False,
              aggregation_method=None, stop_gradients=None,
              unconnected_gradients=UnconnectedGradients.NONE):
    """`tf.gradients`: symbolic gradients inside a `tf.function` (no tape needed)."""
    ctx = base_context()
    graph = getattr(ctx, "graph", None)
    if graph is None:
        raise RuntimeError("tf.gradients is not supported when eager execution is enabled. "
                           "Use tf.GradientTape instead.")
    unconnected = UnconnectedGradients(unconnected_gradients)
    ys, flat_xs = flatten(ys), flatten(xs)
    grad_ys = [None] * len(ys) if grad_ys is None else flatten(grad_ys)
    keys = []
    for x in flat_xs:
        if isinstance(x, Variable):
            found = getattr(graph, "captures", {}).get(id(x.handle))  # a TF1 graph: none
            keys.append(id(found[1]) if found is not None else id(x.handle))
        else:
            keys.append(id(x))
    stop = {id(s) for s in flatten(stop_gradients)} if stop_gradients is not None else set()
    entries = [op for op in graph.operations if not any(id(o) in stop for o in op.outputs)]
    seeds = [(id(y), g if g is not None else array_ops.ones_like(y)) for y, g in zip(ys, grad_ys)]
    with context_scope(ctx):
        found = backprop(entries, seeds, set(keys), key=id)
        return [_finish(found.get(k), x, unconnected) for k, x in zip(keys, flat_xs)]
