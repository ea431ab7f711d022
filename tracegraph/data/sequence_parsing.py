"""`tf.io.parse_single_sequence_example`: one SequenceExample's context features (as
`parse_example`'s: the context is field 1 like an Example's features, so ParseExampleV2 reads
it) and its feature lists, whose steps parse like a batch of examples: a
FixedLenSequenceFeature gives `[steps] + shape` (each step must hold `shape`'s values), a
VarLenFeature a SparseTensor `[steps, longest]`, a RaggedFeature a RaggedTensor
`[steps, None]`. (`parse_sequence_example` over a batch is not offered.)

The op (`_ParseSequenceExample`, tracegraph's own record: TensorFlow's
ParseSequenceExampleV2 has 23 inputs/outputs for the same job) takes the keys and shapes as
attrs and runs `example_decoding`'s gatherers over the steps.
"""

from __future__ import annotations

import numpy as np

from .. import dtypes as d
from ..errors import InvalidArgumentError
from ..ops.registry import bind, convert_to_tensor, defop
from ..shapes import TensorType
from .example_decoding import (
    Column,
    Where,
    dense_from_lists,
    gather_feature,
    ragged_from_lists,
    sparse_from_lists,
)
from .example_parsing import build_parsed, run_parse_op
from .example_protos import messages
from .parsing_config import (
    FixedLenFeature,
    FixedLenSequenceFeature,
    ParseParams,
    RaggedFeature,
    VarLenFeature,
)

__all__ = ["parse_single_sequence_example"]

_CONTEXT_TYPES = (VarLenFeature, FixedLenFeature, RaggedFeature)
_SEQUENCE_TYPES = (VarLenFeature, FixedLenSequenceFeature, RaggedFeature)


def _step_lists(lists, key, dtype, where) -> Column:
    """The steps of a feature list as a Column (no steps when the list is absent)."""
    if key not in lists:
        return Column.of_lists([], dtype)
    steps = [{key: f} for f in lists[key].feature]
    return gather_feature(steps, key, dtype, where, dense=True)


def _decode_one(serialized, sparse, dense, ragged):
    from google.protobuf.message import DecodeError

    try:
        proto = messages().SequenceExample.FromString(serialized)
    except DecodeError:
        raise InvalidArgumentError(f"Could not parse example input, value: "
                                   f"'{serialized!r}'") from None
    lists = proto.feature_lists.feature_list
    where = Where(None, single=True)
    out = {}
    for key, dtype in sparse:
        steps = _step_lists(lists, key, dtype, where)
        out[key] = sparse_from_lists(steps, dtype, batched=True)
    for key, dtype, shape in dense:
        steps = _step_lists(lists, key, dtype, where)
        if not len(steps):
            out[key] = np.zeros((0,) + tuple(shape), object if dtype is d.string
                                else dtype.as_numpy_dtype)
        else:
            out[key] = dense_from_lists(steps, key, dtype, tuple(shape), None, where)
    for key, dtype, split_dtype in ragged:
        steps = _step_lists(lists, key, dtype, where)
        out[key] = ragged_from_lists(steps, dtype, split_dtype)
    return out


def infer_sequence(serialized, sparse_types=(), dense_types=(), dense_shapes=(),
                   ragged_value_types=(), ragged_split_types=(), **_):
    out = [TensorType(d.int64, (None, 2)) for _ in sparse_types]
    out += [TensorType(t, (None,)) for t in sparse_types]
    out += [TensorType(d.int64, (2,)) for _ in sparse_types]
    out += [TensorType(t, (None,) + tuple(s)) for t, s in zip(dense_types, dense_shapes)]
    out += [TensorType(t, (None,)) for t in ragged_value_types]
    out += [TensorType(t, (None,)) for t in ragged_split_types]
    return tuple(out)


def kernel_sequence(serialized, sparse_keys=(), sparse_types=(), dense_keys=(),
                    dense_types=(), dense_shapes=(), ragged_keys=(), ragged_value_types=(),
                    ragged_split_types=()):
    value = np.asarray(serialized, dtype=object).reshape(-1)[0]
    parsed = _decode_one(value, list(zip(sparse_keys, sparse_types)),
                         list(zip(dense_keys, dense_types, dense_shapes)),
                         list(zip(ragged_keys, ragged_value_types, ragged_split_types)))
    sparse = [parsed[k] for k in sparse_keys]
    return tuple([s[0] for s in sparse] + [s[1] for s in sparse] + [s[2] for s in sparse] +
                 [parsed[k] for k in dense_keys] + [parsed[k][0] for k in ragged_keys] +
                 [parsed[k][1] for k in ragged_keys])


parse_sequence_op = defop(
    "parse_sequence_example", "_ParseSequenceExample", inputs=("serialized: string",),
    attrs={"sparse_keys": (), "sparse_types": (), "dense_keys": (), "dense_types": (),
           "dense_shapes": (), "ragged_keys": (), "ragged_value_types": (),
           "ragged_split_types": ()},
    infer=infer_sequence, kernel=kernel_sequence, num_outputs=None,
    flags={"pure", "data_dependent_shape"})


def _sequence_params(features: dict) -> ParseParams:
    params = ParseParams.from_features(
        {k: (FixedLenSequenceFeature(f.shape, f.dtype, True, f.default_value)
             if isinstance(f, FixedLenSequenceFeature) else f) for k, f in features.items()},
        _SEQUENCE_TYPES)
    return params


def parse_single_sequence_example(serialized, context_features=None, sequence_features=None,
                                  example_name=None, name=None):
    """`tf.io.parse_single_sequence_example`: (context dict, feature-list dict)."""
    if not (context_features or sequence_features):
        raise ValueError("Invalid `context_features` and `sequence_features`: at least one "
                         "must be specified.")
    serialized = convert_to_tensor(serialized, dtype=d.string)
    if serialized.shape.rank not in (None, 0):
        raise ValueError(f"Input serialized must be a scalar; got shape {serialized.shape}.")
    context = {}
    if context_features:
        params = ParseParams.from_features(context_features, _CONTEXT_TYPES)
        context = build_parsed(_context_outputs(serialized, params, name), params,
                               context_features, batched=False)
    sequences = {}
    if sequence_features:
        params = _sequence_params(sequence_features)
        attrs = {"sparse_keys": tuple(params.sparse_keys),
                 "sparse_types": tuple(params.sparse_types),
                 "dense_keys": tuple(params.dense_keys),
                 "dense_types": tuple(params.dense_types),
                 "dense_shapes": tuple(tuple(s.as_list()[1:]) for s in params.dense_shapes),
                 "ragged_keys": tuple(params.ragged_keys),
                 "ragged_value_types": tuple(params.ragged_value_types),
                 "ragged_split_types": tuple(params.ragged_split_types)}
        out = bind(parse_sequence_op, (serialized,), attrs, name)
        out = list(out) if isinstance(out, (list, tuple)) else [out]
        sequences = build_parsed(out, params, sequence_features, batched=True)
    return context, sequences


def _context_outputs(serialized, params, name):
    """The context of a SequenceExample parses as an Example: field 1 holds Features in
    both messages, so ParseExampleV2 reads it as it is."""
    return run_parse_op(serialized, params, None, name)
