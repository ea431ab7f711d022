"""The layer above export: tracegraph beyond one machine, on a dask cluster
(`tf.distribute`).

What travels to a worker is a saved graph (the safe JSON + npz format, as bytes keyed by their
hash), never pickled code: a worker needs tracegraph installed, not the user's modules.

- `map_blocks(fn, *dask_arrays)`: a traced function over row blocks, as dask arrays;
  `map_partitions(fn, dataframe)` for a dask DataFrame's partitions as arrays.
- `DaskStrategy(client)`: data-parallel custom training loops (`scope`, `run`, `reduce`,
  `num_replicas_in_sync`), with `ReduceOp`.

dask and distributed are an optional extra (`pip install 'tracegraph[distributed]'`), imported
only when used.
"""

from .blocks import map_blocks, map_partitions
from .shipping import GraphBundle, bundle_concrete, cache_info, load_bundle
from .strategy import DaskStrategy, PerReplica, ReduceOp

__all__ = ["map_blocks", "map_partitions", "DaskStrategy", "ReduceOp", "PerReplica",
           "GraphBundle", "bundle_concrete", "load_bundle", "cache_info"]
