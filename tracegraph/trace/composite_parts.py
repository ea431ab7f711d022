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
