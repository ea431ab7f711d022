"""Values a traced function returns that are not tensors but carry them: a tf.data iterator or
dataset, any value whose TraceType has `to_tensors` / `from_tensors` (TensorFlow's composite
outputs, `nest.flatten(..., expand_composites=True)`).

While tracing, such a value becomes a `CompositeOutput`: its TraceType and its tensors, which
become graph outputs like any returned tensor (nest's custom protocol flattens it to them). A
call rebuilds the user's value from the outputs' values with the TraceType's `from_tensors`:
an iterator made inside the function is a new iterator on each call; one made outside it
(`tf.init_scope`) is returned itself, its state shared across calls, as in TensorFlow.
"""

from __future__ import annotations

from ..framework.tensor import Tensor
from ..framework.variables import Variable
from ..nest import children, is_nested
from ..nest import rebuild_node as rebuild_structure
from .trace_type import has_trace_type, trace_type_of

__all__ = ["CompositeOutput", "is_composite", "has_composites", "rebuild_composites"]


class CompositeOutput:
    """A returned composite value while traced: its TraceType and its graph tensors."""

    __slots__ = ("spec", "components")

    def __init__(self, spec, components):
        self.spec, self.components = spec, tuple(components)

    def __tf_flatten__(self):
        return self.spec, self.components

    @classmethod
    def __tf_unflatten__(cls, spec, components):
        return cls(spec, components)

    @property
    def __tf_trace_type_text__(self) -> str:   # a function type's output (function_type.py)
        return repr(self.spec)

    def rebuild(self):
        """The user's value from the components' values."""
        return self.spec.from_tensors(iter(self.components))

    def __repr__(self):
        return f"CompositeOutput({self.spec!r})"


def is_composite(value) -> bool:
    """Whether a returned value is a composite: not a tensor, its TraceType carries tensors."""
    if isinstance(value, (Tensor, Variable)) or not has_trace_type(value):
        return False
    spec = trace_type_of(value)
    return hasattr(spec, "to_tensors") and hasattr(spec, "from_tensors")


def as_composite_output(value, convert) -> CompositeOutput:
    """`value` as a CompositeOutput whose components are graph tensors (`convert` captures
    values from outside the graph, such as an eager iterator's resource)."""
    spec = trace_type_of(value)
    return CompositeOutput(spec, [convert(c) for c in spec.to_tensors(value)])


def has_composites(structure) -> bool:
    if isinstance(structure, CompositeOutput):
        return True
    return is_nested(structure) and any(has_composites(c) for c in children(structure))


def rebuild_composites(structure):
    """`structure` with every CompositeOutput (holding values now) rebuilt as the user's."""
    if isinstance(structure, CompositeOutput):
        return structure.rebuild()
    if not is_nested(structure):
        return structure
    return rebuild_structure(structure, [rebuild_composites(c) for c in children(structure)])
