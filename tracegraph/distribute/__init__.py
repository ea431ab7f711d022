"""The layer above export: tracegraph beyond one machine, on a dask cluster
(`tf.distribute`).

What travels to a worker is a saved graph (the safe JSON + npz format, as bytes keyed by their
hash), never pickled code: a worker needs tracegraph installed, not the user's modules.

- `map_blocks(fn, *dask_arrays)`: a traced function over row blocks, as dask arrays;
  `map_partitions(fn, dataframe)` for a dask DataFrame's partitions as arrays.
- The default strategy and replica context (`get_strategy`, `get_replica_context`, ...) and
  the base classes, from `framework/distribution.py`.
- `MirroredStrategy` (replicas as threads over this machine's CPU devices) and
  `OneDeviceStrategy`, from `one_machine.py`.
- `DaskStrategy(client)`: data-parallel custom training loops (`scope`, `run`, `reduce`,
  `num_replicas_in_sync`), with `ReduceOp`.

dask and distributed are an optional extra (`pip install 'tracegraph[distributed]'`), imported
only when used.
"""

from ..framework.distribution import (
    DistributedDataset,
    DistributedIterator,
    DistributedValues,
    MultiWorkerMirroredStrategy,
    ReplicaContext,
    Strategy,
    StrategyExtended,
    TPUStrategy,
    get_replica_context,
    get_strategy,
    has_strategy,
    in_cross_replica_context,
)
from . import experimental
from .blocks import map_blocks, map_partitions
from .one_machine import InputContext, MirroredStrategy, OneDeviceStrategy
from .shipping import GraphBundle, bundle_concrete, cache_info, load_bundle
from .strategy import DaskStrategy, PerReplica, ReduceOp

__all__ = ["get_strategy", "has_strategy", "get_replica_context", "in_cross_replica_context",
           "Strategy", "StrategyExtended", "ReplicaContext", "DistributedValues",
           "DistributedIterator", "DistributedDataset", "TPUStrategy",
           "MultiWorkerMirroredStrategy", "map_blocks", "map_partitions", "DaskStrategy",
           "ReduceOp", "PerReplica", "MirroredStrategy", "OneDeviceStrategy", "InputContext",
           "experimental",
           "GraphBundle", "bundle_concrete", "load_bundle", "cache_info"]
