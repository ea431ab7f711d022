"""Forward values for the gradients of function calls and conds, as TensorFlow reuses them:
instead of running a called graph or a cond branch again for its gradient, the forward op is
made to output the intermediate values the gradient's rules read, and the backward ops read
those outputs.

The forward op's sub-graphs are first replaced by copies of their own (`FuncGraph.copy`: a
traced function's graph is shared by every caller and stays as traced); each value a rule
reads is then appended to the copy's outputs and to the op's (`Operation.extend_outputs`), once.
For a cond, the other branch outputs zeros in its place (never read: the backward cond takes the
same branch). Tapes that recorded the forward op learn its new outputs, so a tape around them
differentiates through the reused values (higher derivatives).

A value is not forwarded, but computed again by the backward ops (`graph_gradient.py`'s replay),
when it is known at trace time (a constant: replaying keeps it static), when its dtype has no
zeros (strings, resources), or when the forward op cannot change: it lives in a graph no
longer being built, or inside a sub-graph that is itself replayed (the eager call of a traced
function runs its whole graph again in the backward function).
"""

from __future__ import annotations

import weakref

import numpy as np

from .. import dtypes as d
from ..graph.building import GraphContext
from ..graph.graph import Operation
from ..library.array import zeros
from ..ops.registry import context_scope, current_context
from ..ops.tensor_list import tensor_list_reserve_op
from ..shapes import TensorType, most_specific_common
from .backprop import _Entry
from .graph_gradient import SubgraphOp
from .tape import active_tapes

__all__ = ["forward_values", "being_built", "forwardable"]

# The forward ops already made to output values: op -> its Forwarding (dropped with the op).
_FORWARDING: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def forward_values(op, attr: str):
    """(graph, forward) for the sub-graph `attr` of a call or cond op as its gradient rule sees
    it (a tape entry, a graph's Operation, or a sub-graph's op seen from its caller): the graph
    to differentiate, and `forward(tensor)` giving the caller's value of one of its tensors from
    an output of the forward op (None: compute it again). `forward` is None when the forward op
    cannot be changed."""
    target, caller_value = _forward_op(op)
    if target is None:
        return op.attrs[attr], None
    forwarding = _FORWARDING.get(target)
    if forwarding is None:
        forwarding = _FORWARDING[target] = Forwarding(target)
    graph = forwarding.graphs[attr]
    tapes = active_tapes()   # now: a cond's branches are traced outside the tapes' contexts
    return graph, lambda t: forwarding.value(graph, t, caller_value, tapes)


def _forward_op(op):
    """The Operation to extend and how its outputs read in the backward context."""
    if isinstance(op, SubgraphOp):   # inside a sub-graph whose own values are forwarded
        forwarded = op.value_of.forward is not None
        return (op.op, op.value_of) if forwarded else (None, None)
    if isinstance(op, _Entry):
        found = op.outputs[0].op if op.outputs and hasattr(op.outputs[0], "op") else None
    else:
        found = op if isinstance(op, Operation) else None
    if found is None or not being_built(found.graph):
        return None, None
    return found, _same


def _same(t):
    return t


def being_built(graph) -> bool:
    """Whether `graph` is the graph being built or one it is nested in."""
    current = getattr(current_context(), "graph", None)
    while current is not None:
        if current is graph:
            return True
        current = getattr(current, "outer_graph", None)
    return False


class Forwarding:
    """A call or cond op whose sub-graphs are copies of its own, each value of them it outputs
    for its gradient, by the copy's tensor. It holds nothing that keeps the op alive (it is
    the op's value in a weak table): the op itself holds its copies."""

    def __init__(self, op):
        self.op_ref = weakref.ref(op)
        self.attrs = [attr for attr, _ in op.subgraphs()]
        op.extend_outputs({attr: graph.copy()[0] for attr, graph in op.subgraphs()}, [])
        self.index: dict[int, int] = {}   # id(tensor of a copy) -> output index of op

    @property
    def op(self):
        return self.op_ref()

    @property
    def graphs(self) -> dict:
        """The op's sub-graphs (its copies) by attr."""
        return {attr: self.op.attrs[attr] for attr in self.attrs}

    def value(self, graph, t, caller_value, tapes):
        k = id(t)
        if k not in self.index:
            if not forwardable(t):
                return None
            self.index[k] = self._add(graph, t, tapes)
        return caller_value(self.op.outputs[self.index[k]])

    def _add(self, graph, t, tapes) -> int:
        """Appends `t` (a tensor of `graph`, one of the copies) to the op's outputs; `tapes`
        that recorded the op learn the new output."""
        shape = t.shape.as_list() if t.shape.rank is not None else None
        graphs = self.graphs
        for other in graphs.values():
            if other is graph:
                other.outputs.append(t)
            else:   # the other branch of a cond: zeros in t's place (0 for unknown dims)
                with context_scope(GraphContext(other)):
                    dummy = _stand_in(t, shape)
                other.outputs.append(dummy)
                shape = most_specific_common(tuple(shape) if shape is not None else None,
                                             dummy.dims)
        shape = tuple(shape) if shape is not None else None
        attrs = dict(graphs)
        if "Tout" in self.op.attrs:
            attrs["Tout"] = tuple(self.op.attrs["Tout"]) + (t.dtype,)
        if "output_shapes" in self.op.attrs:
            attrs["output_shapes"] = tuple(self.op.attrs["output_shapes"]) + (shape,)
        (out,) = self.op.extend_outputs(attrs, [TensorType(t.dtype, shape)])
        for tape in tapes:
            tape.add_outputs(self.op, [out])
        return out.value_index


def _stand_in(t, shape):
    """What the branch without `t` outputs in its place: zeros (of 0 length along unknown
    dims), or an empty list for a list (a forward loop's accumulated values)."""
    if t.dtype is d.variant:
        return tensor_list_reserve_op(np.int32(0), element_dtype=d.float32)
    return zeros([0 if n is None else n for n in shape] if shape else [], t.dtype)


def forwardable(t) -> bool:
    """Values known at trace time are recomputed (they stay static); dtypes without zeros
    (strings, resources) are too."""
    dtype = t.dtype
    known = t.tensor_type.value is not None
    return not known and (dtype.is_floating or dtype.is_complex or dtype.is_integer or
                          dtype.is_bool or dtype is d.variant)
