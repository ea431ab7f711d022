"""`tf.data`: input pipelines (DESIGN layer 11). See `runtime.py` for how datasets run and how
a new source is written, `dataset.py` for the Python object users hold."""

# Importing the modules registers their op records (csv_*, example_parsing, sequence_parsing,
# tensor_protos, text_files and tfrecord are the file formats).
from . import (  # noqa: F401
    batching,
    caching,
    checking,
    choosing,
    csv_dataset,
    csv_files,
    example_parsing,
    experimental,
    generator,
    interleaving,
    iterators,
    mapping,
    optional,
    options,
    ordering,
    padding,
    sequence_parsing,
    shuffling,
    sources,
    storage,
    tensor_protos,
    windowing,
)
from .dataset import (
    AUTOTUNE,
    INFINITE_CARDINALITY,
    UNKNOWN_CARDINALITY,
    DatasetV2,
)
from .iterators import OwnedIterator
from .optional import Optional, OptionalSpec
from .options import (
    AutoShardPolicy,
    AutotuneOptions,
    DistributeOptions,
    ExternalStatePolicy,
    OptimizationOptions,
    Options,
    ThreadingOptions,
)
from .specs import DatasetSpec, IteratorSpec, RaggedTensorSpec, SparseTensorSpec
from .text_files import TextLineDatasetV2 as TextLineDataset
from .tfrecord import TFRecordDatasetV2 as TFRecordDataset

Dataset = DatasetV2
Iterator = OwnedIterator

__all__ = ["Dataset", "DatasetSpec", "Iterator", "IteratorSpec", "Options", "AUTOTUNE",
           "INFINITE_CARDINALITY", "UNKNOWN_CARDINALITY", "Optional", "OptionalSpec",
           "RaggedTensorSpec", "SparseTensorSpec", "AutoShardPolicy", "AutotuneOptions",
           "DistributeOptions", "ExternalStatePolicy", "OptimizationOptions",
           "ThreadingOptions", "experimental", "TFRecordDataset",
           "TextLineDataset"]
