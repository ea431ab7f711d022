"""`tf.nn.embedding_lookup`: rows of an embedding table (or of a table split into partitions,
TensorFlow's "div" or "mod" strategy) gathered by id, optionally rescaled to at most
`max_norm`. A partitioned table is looked up as one: the partitions concatenated, each id
moved to its row there (TensorFlow's own assignment of ids to partitions), one `GatherV2`."""

from __future__ import annotations

import numpy as np

from .. import dtypes as d
from ..ops.registry import convert_to_tensor
from .array import shape
from .clipping import clip_by_norm
from .indexing import gather, where
from .join_split import concat, stack
from .math import add, cast, floordiv, floormod, less, maximum, subtract

__all__ = ["embedding_lookup", "embedding_lookup_partitioned"]


def embedding_lookup(params, ids, max_norm=None, name=None):
    """The rows of `params` (a tensor, a Variable, or a list of partitions split "div"-wise)
    at `ids`; rows whose L2 norm exceeds `max_norm` are scaled down to it."""
    return embedding_lookup_partitioned(params, ids, "div", name, max_norm)


def embedding_lookup_partitioned(params, ids, partition_strategy="mod", name=None,
                                 max_norm=None):
    """TensorFlow 1's `embedding_lookup` (default strategy "mod")."""
    if params is None or (isinstance(params, (list, tuple)) and not params):
        raise ValueError("Length of params is currently 0. Need at least one param.")
    if partition_strategy not in ("mod", "div"):
        raise ValueError(f"Unrecognized partition strategy: {partition_strategy}. Must be one "
                         f"of either `mod` or `div`.")
    parts = list(params) if isinstance(params, (list, tuple)) else [params]
    ids = convert_to_tensor(ids)
    if len(parts) == 1:
        return _clip(gather(parts[0], ids, name=name), ids, max_norm)
    parts = [p if hasattr(p, "read_value") else convert_to_tensor(p) for p in parts]
    sizes = [_rows(p) for p in parts]
    n = len(parts)
    ids = cast(ids, d.int64) if ids.dtype != d.int64 else ids
    if partition_strategy == "mod":
        which, row = floormod(ids, n), floordiv(ids, n)
    else:
        total = _total(sizes)
        per, extras = floordiv(total, n), floormod(total, n)
        which = maximum(floordiv(ids, add(per, 1)), floordiv(subtract(ids, extras), per))
        row = where(less(which, extras), floormod(ids, add(per, 1)),
                    floormod(subtract(ids, extras), per))
    offsets = _offsets(sizes)
    position = add(gather(offsets, which), row)
    table = concat([p.read_value() if hasattr(p, "read_value") else p for p in parts], 0)
    return _clip(gather(table, position, name=name), ids, max_norm)


def _rows(p):
    n = p.shape.as_list()[0] if p.shape.rank else None
    return n if n is not None else cast(shape(p)[0], d.int64)


def _total(sizes):
    if all(isinstance(s, int) for s in sizes):
        return np.int64(sum(sizes))
    total = sizes[0]
    for s in sizes[1:]:
        total = add(total, s)
    return total


def _offsets(sizes):
    """Where each partition starts in the concatenated table."""
    if all(isinstance(s, int) for s in sizes):
        return np.concatenate([[0], np.cumsum(sizes[:-1])]).astype(np.int64)
    starts, at = [np.int64(0)], np.int64(0)
    for s in sizes[:-1]:
        at = add(at, s)
        starts.append(at)
    return stack([convert_to_tensor(v, dtype=d.int64) for v in starts])


def _clip(rows, ids, max_norm):
    if max_norm is None:
        return rows
    ids_rank, rows_rank = ids.shape.rank, rows.shape.rank
    if ids_rank is None or rows_rank is None:
        raise ValueError("max_norm needs the ids' and the params' ranks known")
    return clip_by_norm(rows, max_norm, axes=list(range(ids_rank, rows_rank)))
