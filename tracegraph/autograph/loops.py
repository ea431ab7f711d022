"""The runtime operators of loops: `while_stmt` and `for_stmt`.

A tensor condition (or iterating over a tensor) stages a `while_loop` over the state variables
that are defined; a Python condition or iterable runs the loop in Python (unrolled when
tracing). A `return` inside a staged loop makes the return value a loop variable: its type is
found by tracing the body once into a scratch graph. A `break` or `return` inside a Python loop
that depends on a tensor raises TensorFlow's NotImplementedError.
"""

from __future__ import annotations

import numpy as np

from .. import dtypes as d
from ..framework.tensor import EagerTensor, Tensor
from ..nest import flatten, is_nested, pack_sequence_as
from ..ops.registry import convert_to_tensor
from ..shapes import TensorShape
from ..trace import control_flow as cf
from ..trace.control_flow import StagingTypeError, StagingValueError
from .values import (
    StagingNotImplementedError,
    UndefinedReturnValue,
    is_symbolic,
    is_undefined,
    python_bool,
    zeros_like_structure,
)

__all__ = ["while_stmt", "for_stmt"]


# ---- while ------------------------------------------------------------------------------------

def while_stmt(test, body, get_state, set_state, names, live, opts=None):
    first = test()
    if not is_symbolic(first):
        _python_while(first, test, body)
        return
    _staged_loop(test, body, get_state, set_state, list(names), list(live), None)


def _python_while(first, test, body) -> None:
    cond = first
    while python_bool(cond):
        body()
        cond = test()
        if is_symbolic(cond):
            raise StagingNotImplementedError(
                f"The condition of a Python `while` loop started as a Python value, then "
                f"became a tensor: a variable changed type, or a `break` or `return` inside "
                f"the loop depends on a tensor condition. Make the condition a tensor from the "
                f"start (e.g. tf.constant) to stage the loop.{cf._where()}")


def _staged_loop(test, body, get_state, set_state, names, live, iterate):
    """Stages a while_loop over the defined state variables. `iterate` (for loops over
    tensors) is (tensor, length) and adds a hidden counter."""
    initial = list(get_state())
    carried, dropped = [], []
    for i, (n, v) in enumerate(zip(names, initial)):
        if is_undefined(v):
            if n in live:
                raise StagingValueError(
                    f"'{n}' must be defined before the loop: it is first assigned inside a "
                    f"tensor-dependent loop and used after it.{cf._where()}")
            dropped.append(i)
        else:
            carried.append(i)
    probed = _fill_return_values(initial, carried, test, body, get_state, set_state, iterate)
    loop_vars = [_as_loop_var(names[i], initial[i]) for i in carried]
    invariants = _return_value_invariants(carried, loop_vars, probed)
    if iterate is not None:
        loop_vars = [convert_to_tensor(0, dtype=d.int32)] + loop_vars
        invariants = invariants and [TensorShape([])] + invariants

    def set_loop_vars(values):
        state = list(initial)
        for i, v in zip(carried, values):
            state[i] = v
        set_state(tuple(state))

    # Return values the probe found no path to set: they must stay unset (else a value would
    # be dropped silently; the probe traces the body as the loop does, so this never fires).
    unreachable = [i for i, v in enumerate(initial)
                   if isinstance(v, UndefinedReturnValue) and i not in carried]

    def current():
        state = get_state()
        if any(not isinstance(state[i], UndefinedReturnValue) for i in unreachable):
            raise StagingValueError(f"Internal error: a `return` inside this loop was not seen "
                                    f"while probing its type; please report it.{cf._where()}")
        return [state[i] for i in carried]

    def cond_fn(*values):
        values = list(values)
        if iterate is not None:
            from ..library.math import less, logical_and
            counter, values = values[0], values[1:]
            set_loop_vars(values)
            in_range = less(counter, iterate[1])
            if test is None:
                return in_range
            extra = test()
            return logical_and(in_range, convert_to_tensor(extra)) if extra is not None \
                else in_range
        set_loop_vars(values)
        return test()

    def body_fn(*values):
        values = list(values)
        if iterate is not None:
            from ..library.math import add
            counter, values = values[0], values[1:]
            set_loop_vars(values)
            body(iterate[0][counter])
            return [add(counter, 1)] + current()
        set_loop_vars(values)
        body()
        return current()

    var_names = [names[i] for i in carried]
    results = cf.stage_while(cond_fn, body_fn, loop_vars, var_names=var_names,
                             shape_invariants=invariants)
    if iterate is not None:
        results = results[1:]
    final = list(initial)
    for i, v in zip(carried, results):
        final[i] = v
    set_state(tuple(final))


def _as_loop_var(name, value):
    if isinstance(value, UndefinedReturnValue):
        return value
    if is_nested(value):
        return pack_sequence_as(value, [_as_loop_var(name, v) for v in flatten(value)])
    if isinstance(value, (Tensor, bool, int, float, np.ndarray, np.generic)) or \
            hasattr(value, "read_value"):
        return value
    raise StagingTypeError(f"'{name}' is a {type(value).__name__} and cannot be a loop variable "
                           f"of a tensor-dependent loop; only tensors and Python numbers can."
                           f"{cf._where()}")


def _static_shape(leaf):
    shape = getattr(leaf, "shape", None)
    return TensorShape(shape)._dims if shape is not None else np.shape(leaf)


def _return_value_invariants(carried, loop_vars, probed):
    """Shape invariants when return values start as zeros: their shapes as the body makes
    them (zeros of an unknown dim have a known 0 there), every other variable its own."""
    if not probed:
        return None
    out = []
    for i, value in zip(carried, loop_vars):
        leaves = flatten(value) if is_nested(value) else [value]
        shapes = probed.get(i) or [_static_shape(leaf) for leaf in leaves]
        out.extend(TensorShape(s) for s in shapes)
    return out


def _probe_placeholders(graph, value):
    from ..shapes import TensorType
    if is_nested(value):
        return pack_sequence_as(value, [_probe_placeholders(graph, v) for v in flatten(value)])
    if hasattr(value, "read_value") or is_undefined(value):
        return value
    t = convert_to_tensor(value)
    return graph.placeholder(TensorType(t.dtype, t._shape), "return_probe_var")


def _fill_return_values(initial, carried, test, body, get_state, set_state, iterate) -> dict:
    """A `return` inside a tensor loop: the return value is a loop variable. Its type is found
    by tracing the body once into a scratch graph; it starts as zeros of that type. A return
    value no path of the body sets is removed from `carried`. Returns the static shapes of
    the filled values' leaves, by state index."""
    pending = [i for i in carried if isinstance(initial[i], UndefinedReturnValue)]
    if not pending:
        return {}
    from ..graph.building import GraphContext
    from ..graph.graph import FuncGraph
    from ..ops.registry import context_scope, current_context
    from ..shapes import TensorType
    scratch = FuncGraph("return_probe", outer_graph=current_context().graph)
    with context_scope(GraphContext(scratch)):
        # The loop variables as the body sees them: placeholders, never Python values (a
        # Python counter would take one Python path through the body and miss the return).
        state = list(initial)
        for i in carried:
            if i not in pending:
                state[i] = _probe_placeholders(scratch, initial[i])
        set_state(tuple(state))
        if iterate is not None:  # an element of the iterated type (it may have no rows)
            items = iterate[0]
            shape = None if items._shape is None else tuple(items._shape[1:])
            body(scratch.placeholder(TensorType(items.dtype, shape), "return_probe_item"))
        else:
            body()
        probed = list(get_state())
    set_state(tuple(initial))
    shapes = {}
    for i in pending:
        if isinstance(probed[i], UndefinedReturnValue):
            # No path through the body returns (e.g. the return follows a `break`): not a
            # loop variable, it stays undefined after the loop.
            carried.remove(i)
            continue
        initial[i] = zeros_like_structure(probed[i])()
        shapes[i] = [_static_shape(leaf) for leaf in flatten(probed[i])]
    return shapes


# ---- for --------------------------------------------------------------------------------------

def for_stmt(iterable, extra_test, body, get_state, set_state, names, live, opts=None):
    if is_symbolic(iterable):
        shape = iterable.shape
        if shape.rank == 0:
            raise StagingTypeError(f"Cannot iterate over a scalar tensor.{cf._where()}")
        length = shape[0] if shape.rank is not None and shape[0] is not None else None
        if length is None:
            from ..library.array import shape as shape_op
            length = shape_op(iterable)[0]
        _staged_loop(extra_test, body, get_state, set_state, list(names), list(live),
                     (iterable, length))
        return
    if isinstance(iterable, EagerTensor):
        iterable = list(iterable)
    if extra_test is not None and not _python_for_test(extra_test):
        return
    for item in iterable:
        body(item)
        # Checked after every iteration, the last one too (as TensorFlow does): a flag that
        # became a tensor would otherwise be silently ignored.
        if extra_test is not None and not _python_for_test(extra_test):
            break


def _python_for_test(extra_test) -> bool:
    test = extra_test()
    if is_symbolic(test):
        raise StagingNotImplementedError(
            f"A `break` or `return` inside a Python `for` loop depends on a tensor condition; "
            f"this is not supported: iterate over a tensor (e.g. tf.range) to stage the loop."
            f"{cf._where()}")
    return python_bool(test)
