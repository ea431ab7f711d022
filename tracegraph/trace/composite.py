"""Composite values as tf.function results: values made of tensors and described by a type
(`tf.experimental.Optional`, tf.data datasets and iterators, `tf.RaggedTensor`,
`tf.SparseTensor`), returned from a traced function as TensorFlow returns them.

A value is composite when its class declares `__tf_tracing_type__` and the TraceType it gives
carries tensors (`flatten()` not empty). Its type splits it into those tensors
(`to_tensors`) and builds it again from them (`from_tensors`): the traced graph outputs the
tensors, and each call rebuilds the value around the call's results (eager tensors, or the
outputs of a call recorded in an enclosing graph). The same protocol feeds composite arguments
(tracing.py).
"""

from __future__ import annotations

from .trace_type import has_trace_type, trace_type_of

__all__ = ["composite_type", "OutputLayout", "expand_composites", "rebuild_composites"]


def composite_type(value):
    """The TraceType of a composite value (one carried by tensors), else None."""
    if not has_trace_type(value):
        return None
    trace_type = trace_type_of(value)
    return trace_type if trace_type.flatten() else None


def expand_composites(leaves: list) -> list:
    """`leaves` with each composite leaf replaced by the tensors its type carries (a while
    loop's variables, as TensorFlow's `expand_composites=True`)."""
    out = []
    for leaf in leaves:
        trace_type = composite_type(leaf)
        if trace_type is None:
            out.append(leaf)
        else:
            out.extend(trace_type.to_tensors(leaf))
    return out


def rebuild_composites(templates: list, flat) -> list:
    """The inverse of `expand_composites`: leaves shaped as `templates`, composite ones
    rebuilt by the template's type from the next tensors of `flat`."""
    flat = iter(flat)
    out = []
    for template in templates:
        trace_type = composite_type(template)
        if trace_type is None:
            out.append(next(flat))
        else:
            count = len(trace_type.flatten())
            out.append(trace_type.from_tensors(iter([next(flat) for _ in range(count)])))
    return out


class OutputLayout:
    """Where a traced function's graph outputs go among its flattened structured outputs:
    a tensor leaf takes one output, a composite leaf as many as its type carries."""

    __slots__ = ("parts", "has_composites")

    def __init__(self, leaves: list, is_output):
        parts = []   # (leaf index, TraceType or None, number of graph outputs)
        for i, leaf in enumerate(leaves):
            trace_type = composite_type(leaf)
            if trace_type is not None:
                parts.append((i, trace_type, len(trace_type.flatten())))
            elif is_output(leaf):
                parts.append((i, None, 1))
        self.parts = tuple(parts)
        self.has_composites = any(t is not None for _, t, _ in parts)

    def pack(self, leaves: list, outputs, wrap) -> list:
        """`leaves` with the graph's `outputs` (each through `wrap`) in place: tensors as they
        are, composites rebuilt by their types."""
        leaves = list(leaves)
        outputs = iter(outputs)
        for index, trace_type, count in self.parts:
            if trace_type is None:
                leaves[index] = wrap(next(outputs))
            else:
                leaves[index] = trace_type.from_tensors(
                    iter([wrap(next(outputs)) for _ in range(count)]))
        return leaves

    def tensors(self, leaves: list) -> list:
        """The tensors of structured output `leaves`, in graph output order."""
        out = []
        for index, trace_type, _ in self.parts:
            leaf = leaves[index]
            out.extend([leaf] if trace_type is None else trace_type.to_tensors(leaf))
        return out
