"""`tf.sparse.fill_empty_rows` and `tf.nn.embedding_lookup_sparse`: what Keras's sparse
`Dense` layer runs (a sparse matrix times a dense one, row by row)."""

from __future__ import annotations

from .. import dtypes as d
from ..library import math as m
from ..library.array import fill, ones_like, shape, zeros
from ..library.indexing import gather, scatter_nd, where
from ..library.join_split import concat
from ..library.reduce import reduce_max
from ..ops.registry import convert_to_tensor
from .sparse import SparseTensor, _sparse, reorder

__all__ = ["fill_empty_rows", "embedding_lookup_sparse"]

_I64 = d.int64


def fill_empty_rows(sp_input, default_value, name=None):
    """(the SparseTensor with `default_value` at `[row, 0, ...]` of every row that had no
    entry, a bool vector of which rows were empty)."""
    sp = _sparse(sp_input, "tf.sparse.fill_empty_rows")
    nrows = sp.dense_shape[:1]
    rows = sp.indices[:, :1]
    counts = scatter_nd(rows, ones_like(sp.values, dtype=d.int32), nrows)
    empty = m.equal(counts, 0)
    new_rows = where(empty)                                         # [k, 1]
    rank = sp.shape.rank if sp.shape.rank is not None else None
    if rank is None:
        raise ValueError("tf.sparse.fill_empty_rows needs a SparseTensor of known rank")
    k = shape(new_rows, out_type=_I64)[:1]
    pad = zeros(concat([k, convert_to_tensor([rank - 1], dtype=_I64)], 0), dtype=_I64)
    indices = concat([sp.indices, concat([new_rows, pad], 1)], 0)
    default = convert_to_tensor(default_value, dtype=sp.dtype)
    values = concat([sp.values, fill(m.cast(k, d.int32), default)], 0)
    return reorder(SparseTensor(indices, values, sp.dense_shape)), empty


def embedding_lookup_sparse(params, sp_ids, sp_weights, partition_strategy=None, name=None,
                            combiner="mean", max_norm=None, allow_fast_lookup=False):
    """Row `i` of the result combines (`"sum"`, `"mean"` or `"sqrtn"`, weighted by
    `sp_weights` when given) the rows of `params` that row `i` of `sp_ids` names; rows after
    the last row with an id are left out, as TensorFlow's segment sums do."""
    if combiner not in ("sum", "mean", "sqrtn"):
        raise ValueError(f"combiner must be one of 'mean', 'sqrtn' or 'sum', got {combiner!r}")
    if isinstance(params, (list, tuple)):
        if len(params) != 1:
            raise NotImplementedError("embedding_lookup_sparse over a partitioned table is not "
                                      "supported in tracegraph")
        params = params[0]
    ids = _sparse(sp_ids, "tf.nn.embedding_lookup_sparse")
    rows = ids.indices[:, 0]
    embedded = gather(params, ids.values)
    if sp_weights is not None:
        weights = m.cast(_sparse(sp_weights, "tf.nn.embedding_lookup_sparse").values,
                         embedded.dtype)
    else:
        weights = ones_like(m.cast(ids.values, embedded.dtype))
    embedded = m.multiply(embedded, weights[:, None])
    nrows = m.add(reduce_max(concat([convert_to_tensor([-1], dtype=_I64), rows], 0)), 1)
    out_shape = concat([nrows[None], shape(embedded, out_type=_I64)[1:]], 0)
    total = scatter_nd(rows[:, None], embedded, out_shape)
    if combiner == "sum":
        return total
    if combiner == "mean":
        scale = scatter_nd(rows[:, None], weights, nrows[None])
    else:
        scale = m.sqrt(scatter_nd(rows[:, None], m.square(weights), nrows[None]))
    return m.divide_no_nan(total, scale[:, None])
