"""Forward values for the gradient of a while loop, as TensorFlow's while_v2 keeps them: the
forward loop accumulates, iteration by iteration, each value of its body the gradient's rules
read (a TensorList per value, written at the iteration's index: O(1) per write), and the
backward loop reads iteration j's value from it instead of running the loop again.

The forward `While` gets copies of its body and cond, an iteration counter and one list per
accumulated value as new loop variables (their initial values are moved before it:
`Graph.move_before`). Only first derivatives reuse them: when a tape would record the backward
ops (a derivative of the gradient), or the loop is differentiated after the fact
(`tf.gradients`), or from a sub-graph whose own values are computed again, the loop runs again
in the backward pass (`rules/functional.py`), because TensorList reads have no gradient rule.
"""

from __future__ import annotations

import weakref

import numpy as np

from .. import dtypes as d
from ..graph.building import GraphContext
from ..graph.graph import Operation
from ..library.array import constant
from ..library.math import add
from ..ops.registry import context_scope
from ..ops.tensor_list import (
    tensor_list_get_item_op,
    tensor_list_reserve_op,
    tensor_list_set_item_op,
)
from ..shapes import TensorType
from .backprop import _Entry
from .forward_values import being_built, forwardable
from .graph_gradient import SubgraphOp
from .recording import active_tapes

__all__ = ["forward_loop", "loop_as_traced", "LoopForwarding"]

_FORWARDING: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
_SCALAR_INT = TensorType(d.int32, ())
_LIST = TensorType(d.variant, ())


def forward_loop(op):
    """The LoopForwarding of a While op as its gradient rule sees it, and how the op's outputs
    read in the backward context; (None, None) when the loop's values cannot be reused."""
    if active_tapes():
        return None, None
    if isinstance(op, SubgraphOp):
        if op.value_of.forward is None:
            return None, None
        target, caller_value = op.op, op.value_of
    elif isinstance(op, _Entry) and op.outputs and hasattr(op.outputs[0], "op") and \
            being_built(op.outputs[0].op.graph):
        target, caller_value = op.outputs[0].op, _same
    else:
        return None, None
    loop = _FORWARDING.get(target)
    if loop is None:
        loop = _FORWARDING[target] = LoopForwarding(target)
    return loop, caller_value


def loop_as_traced(op):
    """(cond, body, number of loop variables) of a While op as traced, before any gradient
    made it accumulate values (what running the loop again replays)."""
    target = op.op if isinstance(op, SubgraphOp) else (
        op.outputs[0].op if isinstance(op, _Entry) and op.outputs and
        hasattr(op.outputs[0], "op") else op)
    loop = _FORWARDING.get(target) if isinstance(target, Operation) else None
    if loop is not None:
        return loop.cond.copied_from, loop.body.copied_from, loop.n
    return op.attrs["cond"], op.attrs["body"], len(op.inputs)


def _same(t):
    return t


class LoopForwarding:
    """A While op whose body accumulates the values its gradient reads. It holds nothing that
    keeps the op alive (it is the op's value in a weak table): the op holds its body and cond,
    copies of the traced ones (`copied_from`)."""

    def __init__(self, op):
        self.op_ref = weakref.ref(op)
        self.n = len(op.inputs)                 # the loop's own loop variables
        op.extend_outputs({"body": op.attrs["body"].copy()[0],
                           "cond": op.attrs["cond"].copy()[0]}, [])
        self.index: dict[int, int] = {}         # id(tensor of the body) -> output of op
        self.counter_input = len(op.inputs)     # the iteration counter: the next loop variable
        self.counter_output = self._add_loop_var(
            lambda: constant(0, d.int32), lambda ph: add(ph, 1), _SCALAR_INT)

    @property
    def op(self):
        return self.op_ref()

    @property
    def body(self):
        return self.op.attrs["body"]

    @property
    def cond(self):
        return self.op.attrs["cond"]

    def iterations(self, caller_value):
        """How many times the forward loop ran, in the backward context."""
        return caller_value(self.op.outputs[self.counter_output])

    def value(self, t, j, caller_value):
        """Iteration j's value of `t` (a tensor of the body copy) in the backward context, or
        None when it is computed again."""
        k = id(t)
        if k not in self.index:
            if not forwardable(t):
                return None   # computed again (a constant stays static)
            self.index[k] = self._accumulate(t)
        shape = tuple(t.shape.as_list()) if t.shape.rank is not None else None
        acc = caller_value(self.op.outputs[self.index[k]])
        return tensor_list_get_item_op(acc, j, element_dtype=t.dtype, element_shape=shape)

    def _accumulate(self, t) -> int:
        shape = tuple(t.shape.as_list()) if t.shape.rank is not None else None
        return self._add_loop_var(
            lambda: tensor_list_reserve_op(np.int32(0), element_dtype=t.dtype,
                                           element_shape=shape),
            lambda ph: tensor_list_set_item_op(ph, self.body.inputs[self.counter_input], t,
                                               resize_if_index_out_of_bounds=True), _LIST)

    def _add_loop_var(self, make_initial, make_next, tensor_type) -> int:
        """A new loop variable: its initial value made before the op, its next value by the
        body from its placeholder; returns its output index."""
        graph, body, cond = self.op.graph, self.body, self.cond
        before = len(graph.get_operations())
        with context_scope(GraphContext(graph)):
            initial = make_initial()
        graph.move_before(graph.get_operations()[before:], self.op)
        placeholder = body.placeholder(tensor_type, "loop_var")
        body.inputs.append(placeholder)
        with context_scope(GraphContext(body)):
            body.outputs.append(make_next(placeholder))
        cond.inputs.append(cond.placeholder(tensor_type, "unused_loop_var"))
        self.op.extend_inputs([initial])
        attrs = {"T": tuple(self.op.attrs.get("T", ())) + (tensor_type.dtype,)}
        if "output_shapes" in self.op.attrs:
            attrs["output_shapes"] = tuple(self.op.attrs["output_shapes"]) + (tensor_type.shape,)
        (out,) = self.op.extend_outputs(attrs, [tensor_type])
        return out.value_index
