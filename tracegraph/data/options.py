"""`tf.data.Options` and `Dataset.with_options`, with TensorFlow's names and merge rule.

Every option starts unset (None: the default applies). `with_options` merges the new options
into those of the input pipeline; an option set by several `with_options` takes the last
value set, as in TensorFlow (`merge_options`). Setting an unknown option is TensorFlow's
AttributeError; a value of the wrong type its TypeError.

tracegraph adds one option: `experimental_optimization.columnar_execution` (default True):
False makes every stage take its element-by-element path instead of moving blocks of rows
(see `Dataset.execution_plan()`).
"""

from __future__ import annotations

import enum

from .dataset import DatasetV2
from .records import defdataset
from .runtime import Node

__all__ = ["Options", "AutotuneOptions", "DistributeOptions", "OptimizationOptions",
           "ThreadingOptions", "AutoShardPolicy", "ExternalStatePolicy", "merge_options",
           "dataset_options", "_OptionsDataset"]


class AutoShardPolicy(enum.IntEnum):
    OFF = -1
    AUTO = 0
    FILE = 1
    DATA = 2
    HINT = 3


class ExternalStatePolicy(enum.Enum):
    WARN = 0
    IGNORE = 1
    FAIL = 2


class AutotuneAlgorithm(enum.Enum):
    DEFAULT = 0
    HILL_CLIMB = 1
    GRADIENT_DESCENT = 2
    MAX_PARALLELISM = 3
    STAGE_BASED = 4


class OptionsBase:
    """Typed options: `_OPTIONS` maps each name to (type, default factory)."""

    _OPTIONS: dict = {}

    def __init__(self):
        object.__setattr__(self, "_mutable", True)
        for name, (_, factory) in self._OPTIONS.items():
            object.__setattr__(self, "_" + name, factory() if factory else None)

    def __getattr__(self, name):
        if name in type(self)._OPTIONS:
            return object.__getattribute__(self, "_" + name)
        raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")

    def __setattr__(self, name, value):
        if not self._mutable:
            raise ValueError("Mutating `tf.data.Options()` returned by `tf.data.Dataset."
                             "options()` has no effect. Use `tf.data.Dataset.with_options("
                             "options)` to set or update dataset options.")
        spec = type(self)._OPTIONS.get(name)
        if spec is None:
            raise AttributeError(f"Cannot set the property {name} on {type(self).__name__}.")
        kind = spec[0]
        if value is not None and not isinstance(value, kind):
            raise TypeError(f"Property \"{name}\" must be of type \"{kind}\", got "
                            f"\"{value}\" (type: {type(value)}).")
        object.__setattr__(self, "_" + name, value)

    def _set_mutable(self, mutable: bool) -> None:
        object.__setattr__(self, "_mutable", mutable)
        for name in self._OPTIONS:
            value = object.__getattribute__(self, "_" + name)
            if isinstance(value, OptionsBase):
                value._set_mutable(mutable)

    def __eq__(self, other):
        if type(other) is not type(self):
            return NotImplemented
        return all(getattr(self, n) == getattr(other, n) for n in self._OPTIONS)

    def __ne__(self, other):
        eq = self.__eq__(other)
        return eq if eq is NotImplemented else not eq

    __hash__ = None


def _opt(kind, factory=None):
    return kind, factory


class AutotuneOptions(OptionsBase):
    _OPTIONS = {"enabled": _opt(bool), "cpu_budget": _opt(int), "ram_budget": _opt(int),
                "autotune_algorithm": _opt(AutotuneAlgorithm),
                "initial_parallelism": _opt(int), "min_parallelism": _opt(int)}


class DistributeOptions(OptionsBase):
    _OPTIONS = {"auto_shard_policy": _opt(AutoShardPolicy), "num_devices": _opt(int)}


class OptimizationOptions(OptionsBase):
    _OPTIONS = {name: _opt(bool) for name in (
        "apply_default_optimizations", "filter_fusion", "filter_parallelization",
        "inject_prefetch", "seq_interleave_prefetch", "map_and_batch_fusion",
        "map_and_filter_fusion", "map_fusion", "map_parallelization", "noop_elimination",
        "parallel_batch", "shuffle_and_repeat_fusion", "warm_start", "columnar_execution")}


class ThreadingOptions(OptionsBase):
    _OPTIONS = {"max_intra_op_parallelism": _opt(int), "private_threadpool_size": _opt(int)}


class Options(OptionsBase):
    """`tf.data.Options`: how a pipeline runs (`dataset.with_options(options)`)."""

    _OPTIONS = {
        "autotune": _opt(AutotuneOptions, AutotuneOptions),
        "deterministic": _opt(bool),
        "experimental_deterministic": _opt(bool),
        "experimental_distribute": _opt(DistributeOptions, DistributeOptions),
        "experimental_external_state_policy": _opt(ExternalStatePolicy),
        "experimental_optimization": _opt(OptimizationOptions, OptimizationOptions),
        "experimental_slack": _opt(bool),
        "experimental_symbolic_checkpoint": _opt(bool),
        "experimental_threading": _opt(ThreadingOptions, ThreadingOptions),
        "experimental_warm_start": _opt(bool),
        "threading": _opt(ThreadingOptions, ThreadingOptions),
    }

    def __setattr__(self, name, value):
        if name == "experimental_deterministic":   # TensorFlow's alias
            name = "deterministic"
        if name == "experimental_threading":
            name = "threading"
        super().__setattr__(name, value)

    def __getattr__(self, name):
        if name == "experimental_deterministic":
            name = "deterministic"
        if name == "experimental_threading":
            name = "threading"
        return super().__getattr__(name)

    def merge(self, options):
        """The options with `options` merged in (its set values win)."""
        return merge_options(self, options)


def merge_options(options_list):
    """One options object from several; an option set in several takes the last value set."""
    options_list = [o for o in options_list if o is not None]
    if not options_list:
        return None
    kind = type(options_list[0])
    result = kind()
    for options in options_list:
        if type(options) is not kind:
            raise TypeError("Could not merge incompatible options of type "
                            f"{type(options)} and {kind}.")
        for name in kind._OPTIONS:
            value = object.__getattribute__(options, "_" + name)
            if isinstance(value, OptionsBase):
                current = object.__getattribute__(result, "_" + name)
                object.__setattr__(result, "_" + name, merge_options([current, value]))
            elif value is not None:
                object.__setattr__(result, "_" + name, value)
    return result


def dataset_options(dataset) -> Options:
    """`dataset.options()`: the merged options of the pipeline, read-only."""
    found = []

    def walk(ds):
        for inp in getattr(ds, "_input_datasets", ()):
            walk(inp)
        own = getattr(ds, "_own_options", None)
        if own is not None:
            found.append(own)
    walk(dataset)
    node = getattr(dataset, "_variant", None)
    if not found and isinstance(node, Node) and node.options is not None:
        found.append(node.options)
    result = merge_options(found) if found else Options()
    result._set_mutable(False)
    return result


class OptionsNode(Node):
    """Passes its input through; carries options for the iteration."""

    def __init__(self, input_dataset, element_spec, options):
        super().__init__(element_spec, [input_dataset])
        self.input = input_dataset
        self.options = merge_options([self.options, options])
        self.cardinality = input_dataset.cardinality

    def elements(self, ctx):
        return self.input.elements(ctx)

    def _columnar(self, ctx):
        return self.input.columnar(ctx)

    def blocks(self, ctx):
        return self.input.blocks(ctx)

    def describe(self):
        return "OptionsDataset"


def _options_node(input_dataset, serialized_options=None, element_spec=None):
    return OptionsNode(input_dataset, element_spec, serialized_options)


options_dataset_op = defdataset("options_dataset", "OptionsDataset",
                                inputs=("input_dataset: variant",),
                                attrs={"serialized_options": None}, node=_options_node)


def _check(options):
    if not isinstance(options, Options):
        raise TypeError(f"`options` must be a `tf.data.Options`, got {options!r}.")
    return options


def _copy(options: Options) -> Options:
    copy = merge_options([options])
    copy._set_mutable(True)
    return copy


class _OptionsDataset(DatasetV2):
    def __init__(self, input_dataset, options, name=None):
        options = _copy(_check(options))
        self._own_options = options
        super().__init__(options_dataset_op, (input_dataset._variant,),
                         {"serialized_options": options}, input_dataset.element_spec,
                         [input_dataset], name)
