"""Type specs of dataset elements besides `TensorSpec`: ragged, sparse, nested datasets.

An element spec is a nested structure (tuples, dicts, named tuples) whose leaves are specs.
Each leaf spec says how a value of its kind splits into *components*, the plain tensors a
graph carries (TensorFlow's `_to_components`): a dense tensor is one component, a
`RaggedTensor` its flat values and row splits, a `SparseTensor` its indices, values and dense
shape, a nested `Dataset` one `variant` scalar (its runtime pipeline). `structure.py` walks
whole elements; this module holds the specs and their component rules.
"""

from __future__ import annotations

from .. import dtypes as d
from ..shapes import TensorSpec, as_shape_tuple, shape_from_tuple, shapes_compatible
from ..trace.trace_type import TraceType

__all__ = ["RaggedTensorSpec", "SparseTensorSpec", "DatasetSpec", "IteratorSpec",
           "component_specs",
           "spec_is_compatible", "most_specific_spec"]


def _shape_text(shape: tuple | None) -> str:
    return repr(shape_from_tuple(shape))


class RaggedTensorSpec:
    """`tf.RaggedTensorSpec`: shape (outer dims; ragged ones None), dtype, ragged rank."""

    __slots__ = ("_shape", "_dtype", "_ragged_rank", "_row_splits_dtype")

    def __init__(self, shape=None, dtype=d.float32, ragged_rank=None,
                 row_splits_dtype=d.int64, flat_values_spec=None):
        self._shape = as_shape_tuple(shape)
        self._dtype = d.as_dtype(dtype)
        self._row_splits_dtype = d.as_dtype(row_splits_dtype)
        rank = None if self._shape is None else len(self._shape)
        if ragged_rank is None:
            if rank is None:
                raise ValueError("Must specify ragged_rank or a shape with a known rank.")
            ragged_rank = rank - 1
        if rank is not None and not 0 <= ragged_rank < max(rank, 1):
            raise ValueError(f"ragged_rank must be non-negative and less than the rank "
                             f"({rank}); got {ragged_rank}")
        self._ragged_rank = int(ragged_rank)

    shape = property(lambda self: shape_from_tuple(self._shape))
    dtype = property(lambda self: self._dtype)
    ragged_rank = property(lambda self: self._ragged_rank)
    row_splits_dtype = property(lambda self: self._row_splits_dtype)

    @property
    def value_type(self):
        from ..framework.ragged import RaggedTensor
        return RaggedTensor

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

    def __eq__(self, other):
        return (type(other) is RaggedTensorSpec and self._shape == other._shape and
                self._dtype == other._dtype and self._ragged_rank == other._ragged_rank and
                self._row_splits_dtype == other._row_splits_dtype)

    def __hash__(self):
        return hash((RaggedTensorSpec, self._shape, self._dtype, self._ragged_rank))

    def __repr__(self):
        return (f"RaggedTensorSpec({_shape_text(self._shape)}, {self._dtype!r}, "
                f"{self._ragged_rank}, {self._row_splits_dtype!r})")


class SparseTensorSpec:
    """`tf.SparseTensorSpec`: the dense shape (dims may be None) and the values' dtype."""

    __slots__ = ("_shape", "_dtype")

    def __init__(self, shape=None, dtype=d.float32):
        self._shape = as_shape_tuple(shape)
        self._dtype = d.as_dtype(dtype)

    shape = property(lambda self: shape_from_tuple(self._shape))
    dtype = property(lambda self: self._dtype)

    @property
    def value_type(self):
        from ..framework.sparse import SparseTensor
        return SparseTensor

    def _component_specs(self) -> list:
        rank = None if self._shape is None else len(self._shape)
        return [TensorSpec((None, rank), d.int64), TensorSpec((None,), self._dtype),
                TensorSpec((rank,), d.int64)]

    def __eq__(self, other):
        return (type(other) is SparseTensorSpec and self._shape == other._shape and
                self._dtype == other._dtype)

    def __hash__(self):
        return hash((SparseTensorSpec, self._shape, self._dtype))

    def __repr__(self):
        return f"SparseTensorSpec({_shape_text(self._shape)}, {self._dtype!r})"


class DatasetSpec(TraceType):
    """`tf.data.DatasetSpec`: the type of a dataset (its element spec) and, for a batch of
    datasets, the batch shape. It is a dataset's trace key when a `tf.function` takes one."""

    __slots__ = ("_element_spec", "_dataset_shape")

    def __init__(self, element_spec, dataset_shape=()):
        self._element_spec = element_spec
        self._dataset_shape = as_shape_tuple(dataset_shape)

    element_spec = property(lambda self: self._element_spec)
    shape = property(lambda self: shape_from_tuple(self._dataset_shape))

    @property
    def value_type(self):
        from .dataset import DatasetV2
        return DatasetV2

    def _component_specs(self) -> list:
        return [TensorSpec(self._dataset_shape, d.variant)]

    # ---- the trace-type protocol: a tf.function keyed by element spec -----------------------
    def __tf_tracing_type__(self, context):
        """A DatasetSpec in an input_signature stands for the datasets it accepts."""
        return self

    def is_subtype_of(self, other) -> bool:
        if not isinstance(other, DatasetSpec) or self._dataset_shape != other._dataset_shape:
            return False
        from ..nest import flatten
        try:
            from ..nest import assert_same_structure
            assert_same_structure(self._element_spec, other._element_spec)
        except (ValueError, TypeError):
            return False
        return all(spec_is_compatible(mine, theirs) for mine, theirs in
                   zip(flatten(self._element_spec), flatten(other._element_spec)))

    def most_specific_common_supertype(self, others):
        from ..nest import flatten, pack_sequence_as
        specs = flatten(self._element_spec)
        for other in others:
            if not isinstance(other, DatasetSpec):
                return None
            theirs = flatten(other._element_spec)
            if len(theirs) != len(specs):
                return None
            specs = [most_specific_spec(a, b) for a, b in zip(specs, theirs)]
            if any(s is None for s in specs):
                return None
        return DatasetSpec(pack_sequence_as(self._element_spec, specs), self._dataset_shape)

    def placeholder_value(self, placeholder_context=None):
        raise NotImplementedError("A DatasetSpec's placeholder is made from its variant "
                                  "tensor (from_tensors).")

    def flatten(self) -> list:
        return self._component_specs()

    def to_tensors(self, value) -> list:
        return [value._variant]

    def from_tensors(self, tensors):
        from .dataset import VariantDataset
        return VariantDataset(next(tensors), self._element_spec)

    def __eq__(self, other):
        return (type(other) is DatasetSpec and self._dataset_shape == other._dataset_shape
                and _same_structure_and_specs(self._element_spec, other._element_spec))

    def __hash__(self):
        from ..nest import flatten
        return hash((DatasetSpec, self._dataset_shape, tuple(flatten(self._element_spec)),
                     repr(self._element_spec)))

    def __repr__(self):
        return f"DatasetSpec({self._element_spec!r}, {_shape_text(self._dataset_shape)})"


class IteratorSpec(DatasetSpec):
    """`tf.data.IteratorSpec`: the type of an iterator (its element spec). An iterator passed
    to a tf.function is keyed by it, and fed as its iterator resource (Keras passes the
    epoch's iterator to its train function this way: one trace for every epoch)."""

    __slots__ = ()

    def __init__(self, element_spec):
        super().__init__(element_spec, ())

    @property
    def value_type(self):
        from .iterators import OwnedIterator
        return OwnedIterator

    def is_subtype_of(self, other) -> bool:
        return isinstance(other, IteratorSpec) and DatasetSpec.is_subtype_of(self, other)

    def most_specific_common_supertype(self, others):
        if not all(isinstance(o, IteratorSpec) for o in others):
            return None
        common = DatasetSpec.most_specific_common_supertype(self, others)
        return None if common is None else IteratorSpec(common.element_spec)

    def to_tensors(self, value) -> list:
        return [value._resource]

    def from_tensors(self, tensors):
        from .iterators import OwnedIterator
        return OwnedIterator.from_resource(next(tensors), self._element_spec)

    def __eq__(self, other):
        return type(other) is IteratorSpec and DatasetSpec.__eq__(
            DatasetSpec(self._element_spec), DatasetSpec(other._element_spec))

    def __hash__(self):
        return hash((IteratorSpec, DatasetSpec.__hash__(self)))

    def __repr__(self):
        return f"IteratorSpec({self._element_spec!r},)"


def _same_structure_and_specs(a, b) -> bool:
    from ..nest import assert_same_structure, flatten
    try:
        assert_same_structure(a, b)
    except (ValueError, TypeError):
        return False
    return flatten(a) == flatten(b)


def component_specs(spec) -> list:
    """The TensorSpecs of the components of a value of `spec` (one leaf spec)."""
    if isinstance(spec, TensorSpec):
        return [spec]
    return spec._component_specs()


def spec_is_compatible(value_spec, spec) -> bool:
    """Whether values of `value_spec` are accepted where `spec` is expected (same kind and
    dtype, shapes compatible)."""
    if type(value_spec) is not type(spec):
        return False
    if isinstance(spec, DatasetSpec):
        return value_spec.is_subtype_of(spec) or spec.is_subtype_of(value_spec)
    if value_spec.dtype != spec.dtype:
        return False
    if isinstance(spec, RaggedTensorSpec) and value_spec.ragged_rank != spec.ragged_rank:
        return False
    return shapes_compatible(value_spec.shape.as_tuple(), spec.shape.as_tuple())


def most_specific_spec(a, b):
    """The most specific spec both `a` and `b` fit (shapes relaxed), or None."""
    from ..shapes import most_specific_common
    if type(a) is not type(b):
        return None
    if isinstance(a, DatasetSpec):
        return a.most_specific_common_supertype([b])
    if a.dtype != b.dtype:
        return None
    shape = most_specific_common(a.shape.as_tuple(), b.shape.as_tuple())
    if isinstance(a, TensorSpec):
        return TensorSpec(shape, a.dtype)
    if isinstance(a, RaggedTensorSpec):
        if a.ragged_rank != b.ragged_rank:
            return None
        return RaggedTensorSpec(shape, a.dtype, a.ragged_rank, a.row_splits_dtype)
    return SparseTensorSpec(shape, a.dtype)
