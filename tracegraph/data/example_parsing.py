"""`tf.io.parse_example` / `parse_single_example`: the `ParseExampleV2` op record and the
functions that build its outputs into tensors, `SparseTensor`s and `RaggedTensor`s.

One op parses a whole batch (after `.batch()`, `dataset.map(lambda x: parse_example(x,
spec))` is one kernel call per batch): its inputs and attrs are TensorFlow's, so a traced
graph holds `ParseExampleV2` as TensorFlow's does and runs the same eagerly, in a
`tf.function` and in `Dataset.map`. The kernel is `example_decoding.decode_examples`.
"""

from __future__ import annotations

from .. import dtypes as d
from ..framework.ragged import RaggedTensor
from ..framework.sparse import SparseTensor
from ..ops.registry import REQUIRED, TypeAttr, bind, convert_to_tensor, defop
from ..shapes import TensorType
from .example_decoding import decode_examples
from .example_protos import messages
from .parsing_config import (
    PARSE_TYPES,
    FixedLenFeature,
    FixedLenSequenceFeature,
    ParseParams,
    RaggedFeature,
    VarLenFeature,
)

__all__ = ["parse_example", "parse_single_example", "parse_example_op", "build_parsed"]

_FEATURE_TYPES = (VarLenFeature, FixedLenFeature, FixedLenSequenceFeature, RaggedFeature)


def _batch_dims(serialized: TensorType) -> tuple:
    if serialized.shape is None or len(serialized.shape) == 0:
        return ()
    return (serialized.shape[0],)


def infer_parse_example(serialized, names, sparse_keys, dense_keys, ragged_keys,
                        dense_defaults, num_sparse=0, sparse_types=(), ragged_value_types=(),
                        ragged_split_types=(), dense_shapes=(), **_):
    if serialized.shape is not None and len(serialized.shape) > 1:
        raise ValueError(f"Shape must be at most rank 1 but is rank {len(serialized.shape)} "
                         f"for 'ParseExampleV2' (serialized shape: {list(serialized.shape)}).")
    if serialized.shape is None:   # a scalar or a vector: ranks unknown
        batch, rank = None, None
    else:
        batch = _batch_dims(serialized)
        rank = len(batch) + 1
    out = [TensorType(d.int64, (None, rank)) for _ in range(num_sparse)]
    out += [TensorType(t, (None,)) for t in sparse_types]
    out += [TensorType(d.int64, (rank,)) for _ in range(num_sparse)]
    out += [TensorType(default.dtype, None if batch is None else batch + tuple(shape))
            for default, shape in zip(dense_defaults, dense_shapes)]
    out += [TensorType(t, (None,)) for t in ragged_value_types]
    splits = (None if not batch or batch[0] is None else batch[0] + 1,)
    if batch == ():   # one example: its values alone (row splits [0, n])
        splits = (2,)
    out += [TensorType(t, splits) for t in ragged_split_types]
    return tuple(out)


def _texts(keys) -> list[str]:
    import numpy as np
    return [k.decode() if isinstance(k, bytes) else str(k)
            for k in np.asarray(keys, dtype=object).reshape(-1)]


def kernel_parse_example(serialized, names, sparse_keys, dense_keys, ragged_keys,
                         dense_defaults, num_sparse=0, sparse_types=(), ragged_value_types=(),
                         ragged_split_types=(), dense_shapes=(), **_):
    import numpy as np
    dense = []
    for key, default, shape in zip(_texts(dense_keys), dense_defaults, dense_shapes):
        default = np.asarray(default)
        dtype = d.string if default.dtype == object else d.as_dtype(default.dtype)
        if shape and shape[0] is None:
            default = default.reshape(())
        elif default.size == 0 and (not shape or np.prod(shape) != 0):
            default = None   # a required feature: TensorFlow passes an empty default
        dense.append((key, dtype, tuple(shape), default))
    sparse = list(zip(_texts(sparse_keys), sparse_types))
    ragged = list(zip(_texts(ragged_keys), ragged_value_types, ragged_split_types))
    return tuple(decode_examples(serialized, names, sparse, dense, ragged,
                                 messages().Example))


parse_example_op = defop(
    "parse_example", "ParseExampleV2",
    inputs=("serialized: string", "names: string", "sparse_keys: string",
            "dense_keys: string", "ragged_keys: string", "dense_defaults: list(Tdense)"),
    attrs={"Tdense": TypeAttr(frozenset(PARSE_TYPES)), "num_sparse": REQUIRED,
           "sparse_types": (), "ragged_value_types": (), "ragged_split_types": (),
           "dense_shapes": ()},
    infer=infer_parse_example, kernel=kernel_parse_example, num_outputs=None,
    flags={"pure", "data_dependent_shape"})


def _string_vector(values):
    import numpy as np
    array = np.array([v.encode() for v in values], dtype=object).reshape(-1)
    return convert_to_tensor(array, dtype=d.string)


def _dense_default_tensor(params: ParseParams, i: int):
    import numpy as np
    dtype, default = params.dense_types[i], params.dense_defaults[i]
    if default is None:
        default = np.zeros((0,), dtype=object if dtype is d.string else dtype.as_numpy_dtype)
    return convert_to_tensor(default, dtype=dtype)


def run_parse_op(serialized, params: ParseParams, names=None, name=None) -> list:
    """Binds ParseExampleV2 for `params` on `serialized`; returns its flat outputs."""
    serialized = convert_to_tensor(serialized, dtype=d.string)
    names = convert_to_tensor([] if names is None else names, dtype=d.string)
    defaults = [_dense_default_tensor(params, i) for i in range(len(params.dense_keys))]
    attrs = {"num_sparse": len(params.sparse_keys),
             "sparse_types": tuple(params.sparse_types),
             "ragged_value_types": tuple(params.ragged_value_types),
             "ragged_split_types": tuple(params.ragged_split_types),
             "dense_shapes": tuple(tuple(s.as_list()) for s in params.dense_shapes)}
    out = bind(parse_example_op, (serialized, names, _string_vector(params.sparse_keys),
                                  _string_vector(params.dense_keys),
                                  _string_vector(params.ragged_keys), defaults), attrs, name)
    return list(out) if isinstance(out, (list, tuple)) else [out]


def build_parsed(outputs: list, params: ParseParams, features: dict, batched: bool) -> dict:
    """The dict TensorFlow returns: sparse keys, then dense, then ragged (each sorted)."""
    n_sparse = len(params.sparse_keys)
    n_dense = len(params.dense_keys)
    indices, values, shapes = (outputs[:n_sparse], outputs[n_sparse:2 * n_sparse],
                               outputs[2 * n_sparse:3 * n_sparse])
    dense = outputs[3 * n_sparse:3 * n_sparse + n_dense]
    rest = outputs[3 * n_sparse + n_dense:]
    n_ragged = len(params.ragged_keys)
    ragged_values, ragged_splits = rest[:n_ragged], rest[n_ragged:]
    result = {}
    for key, i, v, s in zip(params.sparse_keys, indices, values, shapes):
        result[key] = SparseTensor(i, v, s)
    result.update(zip(params.dense_keys, dense))
    ragged = {}
    for key, v, s in zip(params.ragged_keys, ragged_values, ragged_splits):
        ragged[key] = RaggedTensor.from_row_splits(v, s, validate=False) if batched else v
    for key in sorted(features):
        feature = features[key]
        if isinstance(feature, RaggedFeature):
            value_key = key if feature.value_key is None else feature.value_key
            result[key] = _partitioned(ragged[value_key], feature, ragged, batched)
    return result


def _partitioned(values, feature: RaggedFeature, ragged: dict, batched: bool):
    """A RaggedFeature's tensor: its values split by its partitions, innermost last."""
    if not feature.partitions:
        return values
    raise NotImplementedError(
        f"RaggedFeature partitions ({feature.partitions}) are not supported by tracegraph "
        f"yet: parse the partition features as RaggedFeatures and build the RaggedTensor "
        f"with tf.RaggedTensor.from_row_splits/from_row_lengths.")


def parse_example(serialized, features, example_names=None, name=None) -> dict:
    """`tf.io.parse_example`: a batch (vector) of serialized Examples to a dict of tensors."""
    if not features:
        raise ValueError("Argument `features` cannot be None.")
    features = _prepend_none_dimension(features)
    params = ParseParams.from_features(features, _FEATURE_TYPES)
    serialized = convert_to_tensor(serialized, dtype=d.string)
    outputs = run_parse_op(serialized, params, example_names, name)
    batched = serialized.shape.rank != 0
    return build_parsed(outputs, params, features, batched)


def parse_single_example(serialized, features, example_names=None, name=None) -> dict:
    """`tf.io.parse_single_example`: one serialized Example (a scalar) to a dict."""
    if not features:
        raise ValueError("Invalid `features`: `features` cannot be None.")
    serialized = convert_to_tensor(serialized, dtype=d.string)
    if serialized.shape.rank not in (None, 0):
        raise ValueError(f"Input serialized must be a scalar; got shape {serialized.shape}.")
    return parse_example(serialized, features, example_names, name)


def _prepend_none_dimension(features: dict) -> dict:
    """TensorFlow's check: FixedLenSequenceFeature needs allow_missing in parse_example."""
    for feature in features.values():
        if isinstance(feature, FixedLenSequenceFeature) and not feature.allow_missing:
            raise ValueError("Unsupported: FixedLenSequenceFeature requires allow_missing to "
                             "be True.")
    return features
