"""Composite values in tf.cond branches and tf.while_loop variables (TensorFlow's
`expand_composites=True`): a value whose TraceType carries tensors (`tf.experimental.Optional`,
a tf.data dataset or iterator) is its tensors inside the staged op, and is rebuilt around the
op's outputs by its type. Keras's `steps_per_execution` loop carries an Optional of the last
step's outputs and reads the next element as an Optional in a `tf.cond`.
(tf.function's own composite results: composite_outputs.py.)
"""

from __future__ import annotations

from .trace_type import has_trace_type, trace_type_of

__all__ = ["composite_type", "composite_parts", "from_composite_parts"]


def composite_type(value):
    """The TraceType of a composite value (one carried by tensors), else None."""
    if not has_trace_type(value):
        return None
    trace_type = trace_type_of(value)
    return trace_type if trace_type.flatten() else None


def composite_parts(leaves: list) -> list:
    """`leaves` with each composite leaf replaced by the tensors its type carries."""
    out = []
    for leaf in leaves:
        trace_type = composite_type(leaf)
        if trace_type is None:
            out.append(leaf)
        else:
            out.extend(trace_type.to_tensors(leaf))
    return out


def from_composite_parts(templates: list, flat) -> list:
    """The inverse of `composite_parts`: leaves shaped as `templates`, composite ones rebuilt
    by the template's type from the next tensors of `flat`."""
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


def as_graph_outputs(value, convert, outputs: list):
    """A composite value returned by a cond branch: its tensors (through `convert`, which
    captures outside ones) appended to the sub-graph's `outputs`, the value rebuilt on them."""
    trace_type = composite_type(value)
    tensors = [convert(t) for t in trace_type.to_tensors(value)]
    outputs.extend(tensors)
    return trace_type.from_tensors(iter(tensors))


def outputs_in_place(leaves: list, outputs, is_output) -> list:
    """`leaves` with a staged op's `outputs` in place: a composite leaf rebuilt from as many as
    its type carries, an `is_output` leaf replaced by the next one, others kept."""
    outputs = iter(outputs)
    out = []
    for leaf in leaves:
        trace_type = composite_type(leaf)
        if trace_type is not None:
            count = len(trace_type.flatten())
            out.append(trace_type.from_tensors(iter([next(outputs) for _ in range(count)])))
        else:
            out.append(next(outputs) if is_output(leaf) else leaf)
    return out


def same_in_both_branches(a, b) -> bool:
    """Whether two Python leaves of a cond's branches agree: equal values, or composites of one
    kind carrying as many tensors (two Optionals)."""
    type_a, type_b = composite_type(a), composite_type(b)
    if type_a is not None or type_b is not None:
        return type_a is not None and type_b is not None and \
            type(type_a) is type(type_b) and len(type_a.flatten()) == len(type_b.flatten())
    return type(a) is type(b) and (a is b or a == b)
