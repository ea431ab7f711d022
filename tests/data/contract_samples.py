"""Contract rows (tests/ops/test_contract.py) for tf.data's op records: datasets, iterators,
optionals. Dataset values are runtime nodes made by the records' own kernels; `ITERATOR` in a
row stands for a fresh iterator started on a small range (materialized per run)."""

from __future__ import annotations

import numpy as np

from tracegraph import dtypes as d
from tracegraph.ops.registry import get_op
from tracegraph.shapes import TensorSpec

I64 = TensorSpec((), d.int64)


def node(op_name, *inputs, **attrs):
    op = get_op(op_name)
    return op.kernel(*inputs, **{**op.attr_defaults, **attrs})


def i64(v):
    return np.int64(v)


RANGE = node("range_dataset", i64(0), i64(5), i64(1), element_spec=I64)
WORDS = node("tensor_slice_dataset", [np.array([b"a", b"b"], dtype=object)],
             element_spec=TensorSpec((), d.string))
BATCHED = node("batch_dataset", RANGE, i64(2), np.bool_(False),
               element_spec=TensorSpec((None,), d.int64))
ATTRS = {"output_types": (d.int64,), "output_shapes": ((),)}


def iterator():
    it = get_op("anonymous_iterator").kernel()
    it.start(RANGE)
    return it


def optional(value):
    from tracegraph.data.optional import OptionalValue
    return OptionalValue(value)


SAMPLES = {
    "tensor_dataset": [(([np.arange(3)],), {"element_spec": TensorSpec((3,), d.int64)})],
    "tensor_slice_dataset": [(([np.arange(3), np.ones((3, 2), np.float32)],),
                              {"element_spec": (I64, TensorSpec((2,), d.float32))})],
    "range_dataset": [((i64(0), i64(10), i64(3)), {"element_spec": I64})],
    "random_dataset": [((i64(1), i64(2)), {"element_spec": I64})],
    "batch_dataset": [((RANGE, i64(2), np.bool_(True)),
                       {"element_spec": TensorSpec((2,), d.int64)})],
    "unbatch_dataset": [((BATCHED,), {"element_spec": I64})],
    "shuffle_dataset": [((RANGE, i64(3), i64(1), i64(2)), {"element_spec": I64})],
    "repeat_dataset": [((RANGE, i64(2)), {"element_spec": I64})],
    "take_dataset": [((RANGE, i64(2)), {"element_spec": I64})],
    "skip_dataset": [((RANGE, i64(2)), {"element_spec": I64})],
    "shard_dataset": [((RANGE, i64(2), i64(1)), {"element_spec": I64})],
    "concatenate_dataset": [((RANGE, RANGE), {"element_spec": I64})],
    "zip_dataset": [(([RANGE, WORDS],), {"element_spec": (I64, TensorSpec((), d.string))})],
    "ignore_errors_dataset": [((RANGE,), {"element_spec": I64})],
    "options_dataset": [((RANGE,), {"element_spec": I64})],
    "dataset_cardinality": [((RANGE,), {})],
    "anonymous_iterator": [((), ATTRS)],
    "make_iterator": [((RANGE, "ITERATOR"), {})],
    "iterator_get_next": [(("ITERATOR",), ATTRS)],
    "iterator_get_next_as_optional": [(("ITERATOR",), ATTRS)],
    "optional_from_value": [(([np.arange(3)],), {})],
    "optional_none": [((), {})],
    "optional_has_value": [((optional([np.arange(3)]),), {})],
    "optional_get_value": [((optional([np.int64(4)]),), ATTRS)],
}


def _graph(fn, spec):
    from tracegraph.data.functions import trace_function
    return trace_function(fn, spec, "f").graph


def _range_of(x):
    from tracegraph.data.dataset import DatasetV2
    return DatasetV2.range(x)


def _gen():
    yield from range(3)


DOUBLE = _graph(lambda x: x * 2, I64)
EVEN = _graph(lambda x: x % 2 == 0, I64)
SCAN = _graph(lambda s, x: (s + x, s), (I64, I64))
SUM = _graph(lambda s, x: s + x, (I64, I64))
RANGES = _graph(_range_of, I64)
I64_ATTRS = {"output_types": (d.int64,), "output_shapes": ((),)}

SAMPLES.update({
    "map_dataset": [((RANGE, []), {"element_spec": I64, "f": DOUBLE})],
    "parallel_map_dataset": [((RANGE, [], i64(2)), {"element_spec": I64, "f": DOUBLE})],
    "filter_dataset": [((RANGE, []), {"element_spec": I64, "predicate": EVEN})],
    "take_while_dataset": [((RANGE, []), {"element_spec": I64, "predicate": EVEN})],
    "scan_dataset": [((RANGE, [i64(0)], []), {"element_spec": I64, "f": SCAN,
                                              "state_spec": I64})],
    "reduce_dataset": [((RANGE, [i64(0)], []), {"f": SUM, **I64_ATTRS})],
    "interleave_dataset": [((RANGE, [], i64(2), i64(1)), {"element_spec": I64, "f": RANGES})],
    "parallel_interleave_dataset": [((RANGE, [], i64(2), i64(1), i64(2)),
                                     {"element_spec": I64, "f": RANGES})],
    "generator_dataset": [(([],), {"element_spec": I64, "generator": _gen})],
})


WEIGHTS = node("tensor_dataset", [np.array([0.5, 0.5])],
               element_spec=TensorSpec((2,), d.float64))
KEY = _graph(lambda x: x % 2, I64)
SIZE = _graph(lambda k: np.int64(2), I64)


def _batched(key, window):
    return window.batch(2)


def _window_spec():
    from tracegraph.data.specs import DatasetSpec
    return (I64, DatasetSpec(I64))


REDUCE = _graph(_batched, _window_spec())

SAMPLES.update({
    "assert_cardinality_dataset": [((RANGE, i64(5)), {"element_spec": I64})],
    "cache_dataset": [((RANGE, np.array(b"", dtype=object)), {"element_spec": I64})],
    "prefetch_dataset": [((RANGE, i64(2)), {"element_spec": I64})],
    "directed_interleave_dataset": [((RANGE, [RANGE, RANGE]), {"element_spec": I64})],
    "sample_index_dataset": [((np.array([0.5, 0.5]), i64(1), i64(2)), {"element_spec": I64})],
    "sample_index_from_weights_dataset": [((WEIGHTS, i64(1), i64(2)), {"element_spec": I64})],
    "unique_dataset": [((RANGE,), {"element_spec": I64})],
    "window_dataset": [((RANGE, i64(2), i64(1), i64(1), np.bool_(False)),
                        {"element_spec": _window_spec()[1]})],
    "padded_batch_dataset": [((BATCHED, i64(2), [np.array([3], np.int64)], [i64(0)],
                               np.bool_(False)),
                              {"element_spec": TensorSpec((None, 3), d.int64)})],
    "group_by_window_dataset": [((RANGE, [], [], []),
                                 {"element_spec": TensorSpec((None,), d.int64),
                                  "key_func": KEY, "reduce_func": REDUCE,
                                  "window_size_func": SIZE})],
    "load_dataset": [((np.array([], dtype=object),), {"element_spec": I64})],
})
