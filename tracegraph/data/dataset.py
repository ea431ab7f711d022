"""`tf.data.Dataset`: the Python object users hold (see `runtime.py` for what runs).

A dataset is an element spec and a `variant` tensor: eagerly the tensor's value, a runtime
node; inside a `tf.function` a symbolic edge of the graph. Sources and transformations are
subclasses named as TensorFlow's (`_TensorSliceDataset`, `_BatchDataset`...) whose
constructors bind their op record (`DatasetV2.__init__`); each lives with its node and record
in a module of its family (`sources`, `batching`, `ordering`, `mapping`, `windowing`,
`caching`...). The methods here only route to them.
"""

from __future__ import annotations

from .. import dtypes as d
from ..framework.core_types import TF_MODULES
from ..framework.tensor import EagerTensor
from ..graph.graph import FuncGraph
from ..library.math import cast
from ..ops.registry import bind, convert_to_tensor, current_context
from ..shapes import TensorSpec
from .iterators import NumpyIterator, OwnedIterator, dataset_cardinality_op, get_single_element
from .runtime import IterationContext
from .specs import DatasetSpec

__all__ = ["DatasetV2", "VariantDataset", "AUTOTUNE", "INFINITE_CARDINALITY",
           "UNKNOWN_CARDINALITY", "as_int64"]

AUTOTUNE = -1
INFINITE_CARDINALITY = -1
UNKNOWN_CARDINALITY = -2


def as_int64(value, name: str):
    """A scalar int64 tensor of the current context (Python ints, tensors of any int type)."""
    t = convert_to_tensor(value, dtype_hint=d.int64)
    if t.dtype is not d.int64:
        if not t.dtype.is_integer:
            raise TypeError(f"`{name}` must be an integer, got {value!r}.")
        t = cast(t, d.int64)
    if t.shape.rank not in (None, 0):
        raise ValueError(f"`{name}` must be a scalar, got shape {t.shape}.")
    return t


class DatasetV2:
    """A potentially large set of elements (`tf.data.Dataset`)."""

    def __init__(self, op, inputs, attrs, element_spec, input_datasets=(), name=None):
        """Binds `op` (a dataset record) on `inputs` in the current context."""
        all_attrs = dict(attrs)
        all_attrs["element_spec"] = element_spec
        self._variant = bind(op, tuple(inputs), all_attrs, name)
        self._element_spec = element_spec
        self._input_datasets = tuple(input_datasets)

    # ---- what a dataset is -----------------------------------------------------------------
    @property
    def element_spec(self):
        return self._element_spec

    @property
    def _type_spec(self) -> DatasetSpec:
        return DatasetSpec(self._element_spec)

    def __tf_tracing_type__(self, context) -> DatasetSpec:
        return DatasetSpec(self._element_spec)

    def __tf_composite_spec__(self) -> DatasetSpec:
        """A tf.function returns a dataset as its variant tensor (nest's composites)."""
        return DatasetSpec(self._element_spec)

    def __repr__(self):
        return f"<{type(self).__name__} element_spec={self._element_spec}>"

    def __bool__(self):
        return True

    def __len__(self):
        if not current_context().executing_eagerly:
            raise TypeError("`tf.data.Dataset` only supports `len` in eager mode. Use "
                            "`tf.data.Dataset.cardinality()` instead.")
        length = self.cardinality()
        if int(length) == INFINITE_CARDINALITY:
            raise TypeError("The dataset is infinite.")
        if int(length) == UNKNOWN_CARDINALITY:
            raise TypeError("The dataset length is unknown.")
        return int(length)

    def cardinality(self):
        return bind(dataset_cardinality_op, (self._variant,), {}, None)

    def options(self):
        from .options import dataset_options
        return dataset_options(self)

    def with_options(self, options, name=None):
        from .options import _OptionsDataset
        return _OptionsDataset(self, options, name)

    def execution_plan(self) -> str:
        """Which path each stage takes when iterated eagerly: the batch path (blocks of
        rows) or element by element (a tracegraph addition; see README "tf.data")."""
        node = self._eager_node("execution_plan")
        return "\n".join(node.plan_lines(IterationContext(node.options)))

    def _eager_node(self, what: str):
        if isinstance(self._variant, EagerTensor) or not hasattr(self._variant, "elements"):
            raise RuntimeError(f"`{what}` is only available for datasets built eagerly.")
        return self._variant

    # ---- iteration ------------------------------------------------------------------------------
    def __iter__(self):
        graph = getattr(current_context(), "graph", None)
        if graph is not None and not isinstance(graph, FuncGraph):
            raise RuntimeError("`tf.data.Dataset` only supports Python-style iteration in "
                               "eager mode or within tf.function.")
        return OwnedIterator(self)

    def __tf_staged_iterator__(self):
        """AutoGraph's hook: `for x in dataset` inside a tf.function iterates this."""
        return OwnedIterator(self)

    def as_numpy_iterator(self):
        return NumpyIterator(self)

    def reduce(self, initial_state, reduce_func, name=None):
        from .mapping import reduce_dataset
        return reduce_dataset(self, initial_state, reduce_func, name)

    def get_single_element(self, name=None):
        return get_single_element(self)

    # ---- sources ---------------------------------------------------------------------------------
    @staticmethod
    def from_tensors(tensors, name=None):
        from .sources import _TensorDataset
        return _TensorDataset(tensors, name)

    @staticmethod
    def from_tensor_slices(tensors, name=None):
        from .sources import _TensorSliceDataset
        return _TensorSliceDataset(tensors, name=name)

    @staticmethod
    def range(*args, **kwargs):
        from .sources import _RangeDataset
        return _RangeDataset(*args, **kwargs)

    @staticmethod
    def counter(start=0, step=1, dtype=d.int64, name=None):
        from .sources import counter
        return counter(start, step, dtype, name)

    @staticmethod
    def from_generator(generator, output_types=None, output_shapes=None, args=None,
                       output_signature=None, name=None):
        from .generator import from_generator
        return from_generator(generator, output_types, output_shapes, args, output_signature,
                              name)

    @staticmethod
    def zip(*args, datasets=None, name=None):
        from .ordering import _ZipDataset
        if datasets is not None and args:
            raise TypeError("Both `*args` and `datasets` cannot be set.")
        datasets = datasets if datasets is not None else (args[0] if len(args) == 1 else args)
        return _ZipDataset(datasets, name)

    @staticmethod
    def list_files(file_pattern, shuffle=None, seed=None, name=None):
        from .sources import list_files
        return list_files(file_pattern, shuffle, seed, name)

    @staticmethod
    def random(seed=None, rerandomize_each_iteration=None, name=None):
        from .sources import random_dataset
        return random_dataset(seed, rerandomize_each_iteration, name)

    @staticmethod
    def sample_from_datasets(datasets, weights=None, seed=None,
                             stop_on_empty_dataset=False, rerandomize_each_iteration=None):
        from .choosing import sample_from_datasets
        return sample_from_datasets(datasets, weights, seed, stop_on_empty_dataset)

    @staticmethod
    def choose_from_datasets(datasets, choice_dataset, stop_on_empty_dataset=True):
        from .choosing import choose_from_datasets
        return choose_from_datasets(datasets, choice_dataset, stop_on_empty_dataset)

    @staticmethod
    def load(path, element_spec=None, compression=None, reader_func=None, wait=False):
        from .storage import load
        return load(path, element_spec, compression, reader_func)

    def save(self, path, compression=None, shard_func=None, checkpoint_args=None):
        from .storage import save
        return save(self, path, compression, shard_func, checkpoint_args)

    # ---- transformations ---------------------------------------------------------------------
    def apply(self, transformation_func):
        dataset = transformation_func(self)
        if not isinstance(dataset, DatasetV2):
            raise TypeError(f"`transformation_func` must return a `tf.data.Dataset` object. "
                            f"Got {type(dataset)}.")
        return dataset

    def batch(self, batch_size, drop_remainder=False, num_parallel_calls=None,
              deterministic=None, name=None):
        from .batching import _BatchDataset
        return _BatchDataset(self, batch_size, drop_remainder, num_parallel_calls,
                             deterministic, name)

    def padded_batch(self, batch_size, padded_shapes=None, padding_values=None,
                     drop_remainder=False, name=None):
        from .padding import _PaddedBatchDataset
        return _PaddedBatchDataset(self, batch_size, padded_shapes, padding_values,
                                   drop_remainder, name)

    def ragged_batch(self, batch_size, drop_remainder=False, row_splits_dtype=d.int64,
                     name=None):
        from .batching import ragged_batch
        return ragged_batch(self, batch_size, drop_remainder, row_splits_dtype, name)

    def rebatch(self, batch_size, drop_remainder=False, name=None):
        from .batching import rebatch
        return rebatch(self, batch_size, drop_remainder, name)

    def unbatch(self, name=None):
        from .batching import _UnbatchDataset
        return _UnbatchDataset(self, name)

    def shuffle(self, buffer_size, seed=None, reshuffle_each_iteration=True, name=None):
        from .shuffling import _ShuffleDataset
        return _ShuffleDataset(self, buffer_size, seed, reshuffle_each_iteration, name)

    def repeat(self, count=None, name=None):
        from .ordering import _RepeatDataset
        return _RepeatDataset(self, count, name)

    def take(self, count, name=None):
        from .ordering import _TakeDataset
        return _TakeDataset(self, count, name)

    def skip(self, count, name=None):
        from .ordering import _SkipDataset
        return _SkipDataset(self, count, name)

    def shard(self, num_shards, index, name=None):
        from .ordering import _ShardDataset
        return _ShardDataset(self, num_shards, index, name)

    def concatenate(self, dataset, name=None):
        from .ordering import _ConcatenateDataset
        return _ConcatenateDataset(self, dataset, name)

    def enumerate(self, start=0, name=None):
        from .ordering import enumerate_dataset
        return enumerate_dataset(self, start, name)

    def prefetch(self, buffer_size, name=None):
        from .caching import _PrefetchDataset
        return _PrefetchDataset(self, buffer_size, name)

    def cache(self, filename="", name=None):
        from .caching import CacheDataset
        return CacheDataset(self, filename, name)

    def map(self, map_func, num_parallel_calls=None, deterministic=None, synchronous=None,
            use_unbounded_threadpool=False, name=None):
        from .mapping import map_dataset
        return map_dataset(self, map_func, num_parallel_calls, deterministic, name)

    def filter(self, predicate, name=None):
        from .mapping import _FilterDataset
        return _FilterDataset(self, predicate, name)

    def flat_map(self, map_func, name=None):
        from .interleaving import _FlatMapDataset
        return _FlatMapDataset(self, map_func, name)

    def interleave(self, map_func, cycle_length=None, block_length=None,
                   num_parallel_calls=None, deterministic=None, name=None):
        from .interleaving import interleave_dataset
        return interleave_dataset(self, map_func, cycle_length, block_length,
                                  num_parallel_calls, deterministic, name)

    def scan(self, initial_state, scan_func, name=None):
        from .mapping import _ScanDataset
        return _ScanDataset(self, initial_state, scan_func, name)

    def take_while(self, predicate, name=None):
        from .mapping import _TakeWhileDataset
        return _TakeWhileDataset(self, predicate, name)

    def unique(self, name=None):
        from .windowing import _UniqueDataset
        return _UniqueDataset(self, name)

    def ignore_errors(self, log_warning=False, name=None):
        from .checking import _IgnoreErrorsDataset
        return _IgnoreErrorsDataset(self, log_warning, name)

    def window(self, size, shift=None, stride=1, drop_remainder=False, name=None):
        from .windowing import _WindowDataset
        return _WindowDataset(self, size, shift, stride, drop_remainder, name)

    def group_by_window(self, key_func, reduce_func, window_size=None,
                        window_size_func=None, name=None):
        from .windowing import _GroupByWindowDataset
        return _GroupByWindowDataset(self, key_func, reduce_func, window_size,
                                     window_size_func, name)

    def bucket_by_sequence_length(self, element_length_func, bucket_boundaries,
                                  bucket_batch_sizes, padded_shapes=None,
                                  padding_values=None, pad_to_bucket_boundary=False,
                                  no_padding=False, drop_remainder=False, name=None):
        from .windowing import bucket_by_sequence_length
        return bucket_by_sequence_length(self, element_length_func, bucket_boundaries,
                                         bucket_batch_sizes, padded_shapes, padding_values,
                                         pad_to_bucket_boundary, no_padding, drop_remainder,
                                         name)

    def rejection_resample(self, class_func, target_dist, initial_dist=None, seed=None,
                           name=None):
        from .choosing import rejection_resample
        return rejection_resample(self, class_func, target_dist, initial_dist, seed)


DatasetV2.__module__ = TF_MODULES["DatasetV2"]   # as Keras recognises a tf.data dataset


class VariantDataset(DatasetV2):
    """A dataset around an existing variant (a nested dataset, a function argument)."""

    def __init__(self, variant, element_spec):   # binds no op: the variant exists
        self._variant = variant
        self._element_spec = element_spec
        self._input_datasets = ()


VariantDataset.__name__ = "_VariantDataset"
VariantDataset.__qualname__ = "_VariantDataset"


def is_dataset(value) -> bool:
    return isinstance(value, DatasetV2)


def scalar_spec(dtype) -> TensorSpec:
    return TensorSpec((), dtype)

