"""Memory optimization: an elementwise op whose record names a NumPy ufunc writes its result
into the buffer of an input that dies at it (`np.add(a, b, out=a)`), when that is provably
safe: the input is a fresh array made by its producer (not a view, a constant, an argument or
a Variable's value), this op is its only reader, and it has the result's static shape and
dtype (no broadcasting into it). The report gives the estimated peak of live intermediate
bytes before and after. The mark is `Operation.inplace_input` (graph/graph.py documents the
protocol; this pass is its only writer, the executors read it). The rule is
`builder.may_write_into`: every later rebuild of the graph drops a mark that no longer holds
(another pass gave the op another input).
"""

from __future__ import annotations

from ..graph.analysis import last_uses, needed_ops
from ..ops.registry import is_placeholder_like
from .builder import GraphBuilder, consumers, may_write_into
from .passes import LazyDetail, graph_pass


def _nbytes(t) -> int:
    return t.static_nbytes or 0


def peak_bytes(graph, inplace: dict) -> int:
    """Peak of live op-output bytes over the execution order (`inplace`: id(op) -> input)."""
    return _peaks(graph, [inplace])[0]


def _peaks(graph, mappings: list) -> list[int]:
    """`peak_bytes` of one graph under several in-place mappings (one schedule for all)."""
    outputs = list(getattr(graph, "outputs", []))
    needed = needed_ops(graph, outputs)
    schedule = [op for op in graph.operations if id(op) in needed]
    last = last_uses(schedule, outputs)
    allocates = [not is_placeholder_like(op.op_def) and
                 not (op.op_def.flags & _NOT_ALLOCATING) for op in schedule]
    return [_peak(schedule, last, allocates, inplace) for inplace in mappings]


_NOT_ALLOCATING = frozenset({"constant", "identity"})


def _peak(schedule, last, allocates, inplace) -> int:
    live, peak = 0, 0
    owned: set[int] = set()
    for index, op in enumerate(schedule):
        reused = inplace.get(id(op))
        if reused is None and allocates[index]:
            for t in op.outputs:
                live += _nbytes(t)
                owned.add(id(t))
        if reused is not None and id(op.inputs[reused]) in owned:
            owned.discard(id(op.inputs[reused]))
            owned.add(id(op.outputs[0]))
        peak = max(peak, live)
        for t in op.inputs:
            if id(t) in owned and last.get(id(t)) == index:
                owned.discard(id(t))
                live -= _nbytes(t)
    return peak


def _inplace_input(op, uses, outputs) -> int | None:
    ufunc = op.op_def.ufunc
    if ufunc is None or len(op.outputs) != 1 or op.inplace_input is not None:
        return None
    out = op.outputs[0]
    if not out.known_shape or not out.dtype.is_numeric:
        return None
    for i in range(len(op.inputs)):
        if may_write_into(op, i, uses, outputs):
            return i
    return None


@graph_pass("memory_optimization", run_once=True, annotates=True)
def memory_optimization(graph, ctx):
    uses = consumers(graph)
    outputs = {id(t) for t in getattr(graph, "outputs", [])}
    chosen = {}
    for op in graph.operations:
        index = _inplace_input(op, uses, outputs)
        if index is not None:
            chosen[id(op)] = index
    if not chosen:
        return graph
    b = GraphBuilder(graph)
    marks = {}
    for op in b.pending():
        new = b.copy(op)
        if id(op) in chosen:
            new.inplace_input = marks[id(new)] = chosen[id(op)]   # its one writer
            ctx.rewrote("in_place", [op.inputs[chosen[id(op)]]], [op])
    # a one-to-one copy: the marks just chosen and those the graph had hold as they did
    result = b.finish(inplace_checked=True)
    ctx.detail = LazyDetail(lambda: _peak_detail(result, marks))
    return result


def _peak_detail(graph, marks: dict) -> str:
    """The report's estimate, computed when read: the peak without the new marks (the graph
    the pass got has the same ops) and with them."""
    before, after = _peaks(graph, [{}, marks])
    return f"peak intermediate memory {before:,} -> {after:,} bytes"
