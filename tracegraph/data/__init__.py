"""`tf.data`: input pipelines (DESIGN layer 11). See `runtime.py` for how datasets run and how
a new source is written, `dataset.py` for the Python object users hold."""

from . import (  # noqa: F401  (registers the op records)
    batching,
    caching,
    checking,
    choosing,
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

Dataset = DatasetV2
Iterator = OwnedIterator

__all__ = ["Dataset", "DatasetSpec", "Iterator", "IteratorSpec", "Options", "AUTOTUNE",
           "INFINITE_CARDINALITY", "UNKNOWN_CARDINALITY", "Optional", "OptionalSpec",
           "RaggedTensorSpec", "SparseTensorSpec", "AutoShardPolicy", "AutotuneOptions",
           "DistributeOptions", "ExternalStatePolicy", "OptimizationOptions",
           "ThreadingOptions", "experimental"]
