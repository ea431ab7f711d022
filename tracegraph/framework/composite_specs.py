"""`tf.RaggedTensorSpec` and `tf.SparseTensorSpec`: the types of ragged and sparse values.

A spec says how a value splits into *components*, the plain tensors a graph carries
(TensorFlow's `_to_components`): a `RaggedTensor` is its flat values and its row splits (outer
first), a `SparseTensor` its indices, values and dense shape. The same specs are:

- the trace type of a ragged or sparse `tf.function` argument (`__tf_tracing_type__` of the
  value): the function is keyed by the spec, fed through the components (`to_tensors`) and
  sees a value rebuilt from placeholders (`from_tensors`);
- an `input_signature` entry (a spec is its own trace type);
- the element spec of a `tf.data` dataset of ragged or sparse values;
- the `_type_spec` of a value, which `tf.nest.flatten(..., expand_composites=True)` and a
  traced function's outputs use to split and rebuild it.

They follow TensorFlow's TraceType protocol by duck typing (the `TraceType` base class lives in
the tracing layer above this one).
"""

from __future__ import annotations

from .. import dtypes as d
from ..shapes import (
    TensorSpec,
    TypeSpec,
    as_shape_tuple,
    most_specific_common,
    shape_from_tuple,
    shapes_compatible,
)
from .type_spec_registry import register

__all__ = ["RaggedTensorSpec", "SparseTensorSpec"]


def _shape_text(shape: tuple | None) -> str:
    return repr(shape_from_tuple(shape))


class _CompositeSpec(TypeSpec):
    """What both specs share: the trace-type protocol over `_component_specs`."""

    __slots__ = ()
    value_class = None   # RaggedTensor / SparseTensor: set where that class is defined

    def __tf_tracing_type__(self, context):
        return self

    def flatten(self) -> list:
        return self._component_specs()

    def to_tensors(self, value) -> list:
        return self._to_components(value)

    def from_tensors(self, tensors):
        return self._from_components([next(tensors) for _ in self._component_specs()])

    def placeholder_value(self, placeholder_context=None):
        raise NotImplementedError(f"A {type(self).__name__}'s placeholder is made from its "
                                  "component tensors (from_tensors).")

    def cast(self, value, cast_context=None):
        return value

    def is_subtype_of(self, other) -> bool:
        """Whether every value of this spec is a value of `other` (its known dims agree)."""
        if type(other) is not type(self) or not self._same_kind(other):
            return False
        if other._shape is None:
            return True
        if self._shape is None or len(self._shape) != len(other._shape):
            return False
        return all(theirs is None or theirs == mine
                   for mine, theirs in zip(self._shape, other._shape))

    def most_specific_common_supertype(self, others):
        shape = self._shape
        for other in others:
            if type(other) is not type(self) or not self._same_kind(other):
                return None
            shape = most_specific_common(shape, other._shape)
        return self._with_shape(shape)

    def is_compatible_with(self, spec_or_value) -> bool:
        spec = spec_or_value if isinstance(spec_or_value, TypeSpec) else \
            getattr(spec_or_value, "_type_spec", None)
        return (type(spec) is type(self) and self._same_kind(spec)
                and shapes_compatible(self._shape, spec._shape))

    @property
    def _type_spec(self):
        return self


@register("tf.RaggedTensorSpec")
class RaggedTensorSpec(_CompositeSpec):
    """`tf.RaggedTensorSpec(shape, dtype, ragged_rank, row_splits_dtype)`: shape with None for
    the ragged dims (a known dim after the first is a uniform row length)."""

    __slots__ = ("_shape", "_dtype", "_ragged_rank", "_row_splits_dtype", "_flat_values_spec")

    def __init__(self, shape=None, dtype=d.float32, ragged_rank=None,
                 row_splits_dtype=d.int64, flat_values_spec=None):
        self._shape = as_shape_tuple(shape)
        self._dtype = d.as_dtype(dtype)
        self._row_splits_dtype = d.as_dtype(row_splits_dtype)
        if self._row_splits_dtype not in (d.int32, d.int64):
            raise ValueError(f"row_splits_dtype must be int32 or int64, got "
                             f"{self._row_splits_dtype.name}")
        self._flat_values_spec = flat_values_spec
        if flat_values_spec is not None:
            self._dtype = flat_values_spec.dtype
        rank = None if self._shape is None else len(self._shape)
        if ragged_rank is None:
            if rank is None:
                raise ValueError("Must specify ragged_rank or a shape with a known rank.")
            ragged_rank = rank - 1
        if rank is not None and not 0 <= ragged_rank < max(rank, 1):
            raise ValueError(f"ragged_rank must be non-negative and less than the rank "
                             f"({rank}); got {ragged_rank}")
        self._ragged_rank = int(ragged_rank)

    @classmethod
    def from_value(cls, value) -> RaggedTensorSpec:
        return cls(value.shape, value.dtype, value.ragged_rank, value.row_splits.dtype)

    shape = property(lambda self: shape_from_tuple(self._shape))
    dtype = property(lambda self: self._dtype)
    ragged_rank = property(lambda self: self._ragged_rank)
    row_splits_dtype = property(lambda self: self._row_splits_dtype)
    flat_values_spec = property(lambda self: self._flat_values_spec)

    @property
    def value_type(self):
        return self.value_class

    def _same_kind(self, other) -> bool:
        return (self._dtype == other._dtype and self._ragged_rank == other._ragged_rank
                and self._row_splits_dtype == other._row_splits_dtype)

    def _with_shape(self, shape):
        return RaggedTensorSpec(shape, self._dtype, self._ragged_rank, self._row_splits_dtype)

    def _component_specs(self) -> list:
        if self._ragged_rank == 0:
            return [TensorSpec(self._shape, self._dtype)]
        inner = None if self._shape is None else self._shape[self._ragged_rank + 1:]
        flat = TensorSpec(None if inner is None else (None,) + inner, self._dtype)
        outer = None if self._shape is None else self._shape[0]
        first = TensorSpec((None if outer is None else outer + 1,), self._row_splits_dtype)
        rest = [TensorSpec((None,), self._row_splits_dtype)
                for _ in range(self._ragged_rank - 1)]
        return [flat, first, *rest]

    def _to_components(self, value) -> list:
        if self._ragged_rank == 0:
            return [value]
        return [value.flat_values, *value.nested_row_splits]

    def _from_components(self, components):
        if self._ragged_rank == 0:
            return components[0]
        uniform = None if self._shape is None else self._shape[1:self._ragged_rank + 1]
        return self.value_class.from_components(components[0], list(components[1:]), uniform)

    def __eq__(self, other):
        return (type(other) is RaggedTensorSpec and self._shape == other._shape and
                self._same_kind(other))

    def __hash__(self):
        return hash((RaggedTensorSpec, self._shape, self._dtype, self._ragged_rank))

    def __repr__(self):
        return (f"RaggedTensorSpec({_shape_text(self._shape)}, {self._dtype!r}, "
                f"{self._ragged_rank}, {self._row_splits_dtype!r})")


@register("tf.SparseTensorSpec")
class SparseTensorSpec(_CompositeSpec):
    """`tf.SparseTensorSpec(shape, dtype)`: the dense shape (dims may be None), the values'
    dtype."""

    __slots__ = ("_shape", "_dtype")

    def __init__(self, shape=None, dtype=d.float32):
        self._shape = as_shape_tuple(shape)
        self._dtype = d.as_dtype(dtype)

    @classmethod
    def from_value(cls, value) -> SparseTensorSpec:
        return cls(value.shape, value.dtype)

    shape = property(lambda self: shape_from_tuple(self._shape))
    dtype = property(lambda self: self._dtype)

    @property
    def value_type(self):
        return self.value_class

    def _same_kind(self, other) -> bool:
        return self._dtype == other._dtype

    def _with_shape(self, shape):
        return SparseTensorSpec(shape, self._dtype)

    def _component_specs(self) -> list:
        rank = None if self._shape is None else len(self._shape)
        return [TensorSpec((None, rank), d.int64), TensorSpec((None,), self._dtype),
                TensorSpec((rank,), d.int64)]

    def _to_components(self, value) -> list:
        return [value.indices, value.values, value.dense_shape]

    def _from_components(self, components):
        indices, values, dense_shape = components
        return self.value_class(indices, values, dense_shape)

    def __eq__(self, other):
        return (type(other) is SparseTensorSpec and self._shape == other._shape and
                self._dtype == other._dtype)

    def __hash__(self):
        return hash((SparseTensorSpec, self._shape, self._dtype))

    def __repr__(self):
        return f"SparseTensorSpec({_shape_text(self._shape)}, {self._dtype!r})"
