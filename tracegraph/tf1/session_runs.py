"""One kind of `Session.run` compiled: the pruned fan-in of its fetches, as a function graph that
the optimizer and the executors run like any `tf.function`'s.

TF1's graphs are non-strict the TF1 way: a run computes the fetched tensors and runs the target
ops, and only what they need (`needed`), stopping at fed tensors. Nothing else runs, stateful or
not (TF2's `tf.function` runs every stateful op; a TF1 graph has no automatic control
dependencies, so a run that does not ask for an update does not make it). The ops needed are
copied, in creation order, into a `FuncGraph` whose inputs are the fed tensors and whose
captures are the Session's storage for each Variable (`VarHandleOp`); its outputs are the
fetched tensors. Ops downstream of a feed forget the values inference computed from what the
feed replaces (a fed `tf.constant` changes them). Then the usual path: `optimize` (Grappler's
passes) and `compile_graph` (codegen by default).
"""

from __future__ import annotations

import itertools

from .. import dtypes as d
from ..errors import InvalidArgumentError, OpError
from ..execute.compile import compile_graph
from ..framework.eager import tf_type_name
from ..graph.graph import FuncGraph
from ..ops.array import placeholder_op
from ..optimize import optimize
from ..shapes import TensorType

__all__ = ["CompiledRun", "needed_ops", "pruned_copy", "session_error"]

_runs = itertools.count(1)


def needed_ops(tensors, targets, fed: set[int]) -> set[int]:
    """ids of the ops a run needs: the fan-in of `tensors` and `targets` through data and
    control edges, stopping at fed tensors (id in `fed`)."""
    stack = [t.op for t in tensors if id(t) not in fed] + list(targets)
    needed: set[int] = set()
    while stack:
        op = stack.pop()
        if id(op) in needed:
            continue
        needed.add(id(op))
        stack.extend(t.op for t in op.inputs if id(t) not in fed)
        stack.extend(op.control_inputs)
    return needed


def _shape_text(dims) -> str:
    if dims is None:
        return "<unknown>"
    return "[" + ",".join("?" if n is None else str(n) for n in dims) + "]"


def _unfed_placeholder(op) -> InvalidArgumentError:
    t = op.outputs[0]
    error = InvalidArgumentError(
        None, op, f"You must feed a value for placeholder tensor '{op.name}' with dtype "
        f"{tf_type_name(t.dtype)} and shape {_shape_text(t.dims)}")
    error._graph_node = op.name
    return error


def session_error(error: OpError, graph) -> OpError:
    """An op's error in a Session's run as TensorFlow 2.21 words it: "Graph execution error:",
    the node and the user's line that defined it, the op's message, the node again. Errors of
    no op of `graph` (inside a called function) stay as they are."""
    name = getattr(error, "_graph_node", None)
    try:
        op = graph.get_operation_by_name(name) if name else None
    except (KeyError, ValueError):
        op = None
    if op is None:
        return error
    message = error.message.split("\n\t [[node ", 1)[0]
    where = ""
    if op.source is not None:
        where = (f"Detected at node '{name}' defined at (most recent call last):\n    File "
                 f"\"{op.source.filename}\", line {op.source.lineno}, in {op.source.function}\n")
    new = type(error)(None, None, f"Graph execution error:\n\n{where}Node: '{name}'\n"
                                  f"{message}\n\t [[{{{{node {name}}}}}]]")
    new._graph_node = new.op_name = name
    return new


def pruned_copy(graph, tensors, targets, fed, capture_for, name: str) -> FuncGraph:
    """A function graph of the ops of `graph` that `tensors` and `targets` need, stopping at
    the `fed` tensors (its inputs, in order); its outputs are `tensors`. `capture_for(op)`
    gives the value an op without a kernel stands for (a Session's Variable storage, a
    function's capture), captured in its place; a placeholder with none must be fed."""
    fed_ids = {id(t) for t in fed}
    needed = needed_ops(tensors, targets, fed_ids)
    run = FuncGraph(name)
    mapping: dict[int, object] = {}
    for t in fed:
        ph = run.placeholder(TensorType(t.dtype, t.dims), f"feed/{t.op.name}")
        run.inputs.append(ph)
        mapping[id(t)] = ph
    copied: dict[int, object] = {}
    tainted: set[int] = set(mapping)   # tensors whose value a feed may change
    for op in graph.operations:
        if id(op) not in needed:
            continue
        value = capture_for(op) if op.op_def.kernel is None else None
        if value is not None:
            new = _capture(run, op, value)
        elif op.op_def is placeholder_op:
            raise _unfed_placeholder(op)
        else:
            new = _copy(run, op, mapping, copied, tainted)
        copied[id(op)] = new
        for old_t, new_t in zip(op.outputs, new.outputs):
            mapping.setdefault(id(old_t), new_t)
    run.outputs = [mapping[id(t)] for t in tensors]
    return run


def _capture(run: FuncGraph, op, value):
    """`value` (a Session's Variable storage or iterator, a function's capture) captured where
    the op without a kernel that stands for it was."""
    dtype = op.outputs[0].dtype
    ph = run.placeholder(TensorType(dtype, op.outputs[0].dims,
                                    value if dtype is d.resource else None), op.name)
    run.captures[id(value)] = (value, ph)
    return ph.op


def _copy(run: FuncGraph, op, mapping, copied, tainted):
    inputs = [mapping[id(t)] for t in op.inputs]
    controls = [copied[id(c)] for c in op.control_inputs]
    if any(id(t) in tainted for t in op.inputs):
        # downstream of a feed: values inferred from what the feed replaces do not hold
        new = run.add_operation(op.op_def, op.name, inputs, op.input_arity, dict(op.attrs),
                                [TensorType(t.dtype, t.dims) for t in op.outputs],
                                controls, op.source)
        tainted.update(id(t) for t in op.outputs)
        return new
    return run.copy_operation(op, op.name, inputs, controls)


class CompiledRun:
    """A run signature (fetched tensors, target ops, fed tensors) of one Session, compiled.

    `__call__(feed_values)` returns the fetched values in `tensors`' order."""

    def __init__(self, graph, tensors, targets, fed, handle_for, executor: str = "codegen"):
        def capture_for(op):
            return None if op.op_def is placeholder_op else handle_for(op)
        run = pruned_copy(graph, tensors, targets, fed, capture_for,
                          f"session_run_{next(_runs)}")
        self.graph = run
        optimized, self.report = optimize(run)
        constants = [(ph, value) for value, ph in optimized.captures.values()]
        self._fn = compile_graph(optimized, list(optimized.inputs), list(optimized.outputs),
                                 constants, executor, run.name)
        self.optimized_graph = optimized

    def __call__(self, feed_values):
        return self._fn(*feed_values)
