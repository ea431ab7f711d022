"""`flat_map` and `interleave`: a function maps each element to a dataset, whose elements are
output one dataset after another (flat_map) or cycling over `cycle_length` open datasets,
`block_length` elements from each in turn (interleave, TensorFlow's order: an empty slot of
the cycle takes the next input element's dataset in place; a finished dataset frees its slot).

With `num_parallel_calls`, each open dataset of the cycle runs on its own thread, a few
elements ahead; the output order stays the deterministic one.
"""

from __future__ import annotations

from ..errors import InvalidArgumentError
from ..ops.registry import REQUIRED
from .dataset import DatasetV2, as_int64
from .functions import ANY_ARGUMENT, compiled, trace_function
from .mapping import _fn_name
from .records import defdataset
from .runtime import UNKNOWN, Node
from .specs import DatasetSpec
from .structure import runtime_components
from .worker_threads import prefetched, resolve_parallelism

__all__ = ["_FlatMapDataset", "_InterleaveDataset", "_ParallelInterleaveDataset",
           "interleave_dataset"]


class _DatasetMaker:
    """Runs the function attr on an element: the runtime node of the dataset it returns."""

    def __init__(self, f, other_arguments, in_specs):
        self.call = compiled(f)
        self.args = list(other_arguments)
        self.in_specs = in_specs

    def __call__(self, element):
        return self.call(*runtime_components(self.in_specs, element), *self.args)[0]


class InterleaveNode(Node):
    def __init__(self, input_dataset, other_arguments, cycle_length, block_length,
                 element_spec, f, num_parallel_calls=0, deterministic="default"):
        super().__init__(element_spec, [input_dataset])
        self.input = input_dataset
        self.make = _DatasetMaker(f, other_arguments, input_dataset.specs)
        self.cycle_length = resolve_parallelism(cycle_length) if int(cycle_length) == -1 \
            else int(cycle_length)
        self.block_length = int(block_length)
        if self.cycle_length <= 0:
            raise InvalidArgumentError("cycle_length must be greater than zero.")
        if self.block_length <= 0:
            raise InvalidArgumentError("block_length must be greater than zero.")
        self.parallel = int(num_parallel_calls) != 0
        self.cardinality = UNKNOWN

    def describe(self):
        kind = "ParallelInterleaveDataset" if self.parallel else "InterleaveDataset"
        return f"{kind}(cycle_length={self.cycle_length}, block_length={self.block_length})"

    def _open(self, element, ctx):
        node = self.make(element)
        rows = node.rows(ctx)
        return prefetched(rows, 2 * self.block_length, ctx, "interleave") if self.parallel \
            else rows

    def elements(self, ctx):
        inputs = self.input.rows(ctx)
        cycle = [None] * self.cycle_length
        open_count, index, taken, input_done = 0, 0, 0, False
        while not input_done or open_count:
            current = cycle[index]
            if current is not None:
                element = next(current, None)
                if element is not None:
                    yield element
                    taken += 1
                    if taken == self.block_length:
                        index, taken = (index + 1) % self.cycle_length, 0
                    continue
                cycle[index] = None
                open_count -= 1
                index, taken = (index + 1) % self.cycle_length, 0
            elif not input_done:
                element = next(inputs, None)
                if element is None:
                    input_done = True
                    continue
                cycle[index] = self._open(element, ctx)
                open_count += 1
            else:
                index, taken = (index + 1) % self.cycle_length, 0


interleave_dataset_op = defdataset(
    "interleave_dataset", "InterleaveDataset",
    inputs=("input_dataset: variant", "other_arguments: list(Targuments)",
            "cycle_length: int64", "block_length: int64"),
    attrs={"Targuments": ANY_ARGUMENT, "f": REQUIRED}, node=InterleaveNode)


def _parallel_interleave_node(input_dataset, other_arguments, cycle_length, block_length,
                              num_parallel_calls, element_spec, f, deterministic="default"):
    return InterleaveNode(input_dataset, other_arguments, cycle_length, block_length,
                          element_spec, f, num_parallel_calls, deterministic)


parallel_interleave_dataset_op = defdataset(
    "parallel_interleave_dataset", "ParallelInterleaveDatasetV4",
    inputs=("input_dataset: variant", "other_arguments: list(Targuments)",
            "cycle_length: int64", "block_length: int64", "num_parallel_calls: int64"),
    attrs={"Targuments": ANY_ARGUMENT, "f": REQUIRED, "deterministic": "default"},
    node=_parallel_interleave_node)


def _trace_dataset_function(dataset, map_func, what: str):
    fn = trace_function(map_func, dataset.element_spec, _fn_name(map_func))
    if not isinstance(fn.output_spec, DatasetSpec):
        raise TypeError(f"The `map_func` argument must return a `Dataset` object. Got "
                        f"{_returned_type(fn)!r}.")
    return fn


def _returned_type(fn) -> str:
    result = fn.graph.structured_outputs
    return type(result)


class _FlatMapDataset(DatasetV2):
    def __init__(self, input_dataset, map_func, name=None):
        fn = _trace_dataset_function(input_dataset, map_func, "flat_map")
        super().__init__(interleave_dataset_op,
                         (input_dataset._variant, fn.captured, as_int64(1, "cycle_length"),
                          as_int64(1, "block_length")),
                         {"f": fn.graph}, fn.output_spec.element_spec, [input_dataset], name)


class _InterleaveDataset(DatasetV2):
    def __init__(self, input_dataset, map_func, cycle_length, block_length, name=None):
        fn = _trace_dataset_function(input_dataset, map_func, "interleave")
        super().__init__(interleave_dataset_op,
                         (input_dataset._variant, fn.captured,
                          as_int64(cycle_length, "cycle_length"),
                          as_int64(block_length, "block_length")),
                         {"f": fn.graph}, fn.output_spec.element_spec, [input_dataset], name)


class _ParallelInterleaveDataset(DatasetV2):
    def __init__(self, input_dataset, map_func, cycle_length, block_length, num_parallel_calls,
                 deterministic=None, name=None):
        fn = _trace_dataset_function(input_dataset, map_func, "interleave")
        det = "default" if deterministic is None else ("true" if deterministic else "false")
        super().__init__(parallel_interleave_dataset_op,
                         (input_dataset._variant, fn.captured,
                          as_int64(cycle_length, "cycle_length"),
                          as_int64(block_length, "block_length"),
                          as_int64(num_parallel_calls, "num_parallel_calls")),
                         {"f": fn.graph, "deterministic": det}, fn.output_spec.element_spec,
                         [input_dataset], name)


def interleave_dataset(dataset, map_func, cycle_length=None, block_length=None,
                       num_parallel_calls=None, deterministic=None, name=None):
    cycle_length = -1 if cycle_length is None else cycle_length
    block_length = 1 if block_length is None else block_length
    if num_parallel_calls is None:
        return _InterleaveDataset(dataset, map_func, cycle_length, block_length, name)
    return _ParallelInterleaveDataset(dataset, map_func, cycle_length, block_length,
                                      num_parallel_calls, deterministic, name)


