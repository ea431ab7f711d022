"""`tf.data`: input pipelines (DESIGN layer 11). See `runtime.py` for how datasets run and how
a new source is written, `dataset.py` for the Python object users hold."""

# Files (TFRecord, text, CSV; issue 21's file formats): readers and their op records.
from . import (  # noqa: F401  (registers the op records)  # noqa: F401, E402
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
from .specs import DatasetSpec, RaggedTensorSpec, SparseTensorSpec
from .text_files import TextLineDatasetV2 as TextLineDataset  # noqa: E402
from .tfrecord import TFRecordDatasetV2 as TFRecordDataset  # noqa: E402

Dataset = DatasetV2
Iterator = OwnedIterator

__all__ = ["Dataset", "DatasetSpec", "Iterator", "Options", "AUTOTUNE", "INFINITE_CARDINALITY",
           "UNKNOWN_CARDINALITY", "Optional", "OptionalSpec", "RaggedTensorSpec",
           "SparseTensorSpec", "AutoShardPolicy", "AutotuneOptions", "DistributeOptions",
           "ExternalStatePolicy", "OptimizationOptions", "ThreadingOptions",
           "TFRecordDataset", "TextLineDataset"]
