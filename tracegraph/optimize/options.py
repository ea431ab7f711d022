"""`tf.config.optimizer`: the optimizer's options, with TensorFlow's keys and behaviour (R-6.2).

`set_experimental_options(dict)` merges into the current options and `get_experimental_options()`
returns what was set plus `disable_model_pruning` and `disable_meta_optimizer`, as TensorFlow
does. Unlike TensorFlow, an unknown key or a value of the wrong type is a ValueError naming the
key and the valid ones (TensorFlow silently ignores typos). Every change bumps `version`, so
ConcreteFunctions optimize and compile again before their next call. The values themselves live
in `config` with TensorFlow's other global settings.
"""

from __future__ import annotations

from dataclasses import dataclass

from .. import config

__all__ = ["set_experimental_options", "get_experimental_options", "effective_options",
           "OPTIONS", "Option", "current"]


@dataclass(frozen=True)
class Option:
    key: str
    default: object          # True/False for toggles, an int for min_graph_nodes
    doc: str
    does_nothing: str = ""   # why the option has no effect on a CPU-only NumPy runtime


# In TensorFlow's order (get_experimental_options lists them in this order).
OPTIONS = [
    Option("layout_optimizer", True, "NCHW convolutions and pooling run as NHWC, with the "
           "transposes it creates cancelled in pairs"),
    Option("constant_folding", True, "evaluate ops whose inputs are constants (10 MiB cap), "
           "and shapes that are statically known"),
    Option("shape_optimization", True, "simplify computations on shapes"),
    Option("remapping", True, "fuse matmul/conv2d + bias + activation into one in-place kernel"),
    Option("arithmetic_optimization", True, "algebraic simplification by a table of IEEE-safe "
           "rewrite rules"),
    Option("dependency_optimization", True, "remove Identity and NoOp nodes and redundant "
           "control edges"),
    Option("loop_optimization", True, "hoist loop invariants out of while bodies; remove "
           "branches and loops whose predicate is a constant"),
    Option("function_optimization", True, "inline calls of nested tf.functions"),
    Option("debug_stripper", False, "remove Assert, CheckNumerics and Print"),
    Option("disable_model_pruning", False, "keep ops that no output or side effect needs"),
    Option("scoped_allocator_optimization", False, "(no effect)", does_nothing=(
        "TensorFlow merges the output buffers of collective ops; tracegraph has no device "
        "allocator or collective ops, NumPy allocates every array")),
    Option("pin_to_host_optimization", False, "(no effect)", does_nothing=(
        "every op already runs on the host: tracegraph is CPU-only")),
    Option("implementation_selector", True, "(no effect)", does_nothing=(
        "tracegraph has one implementation per op")),
    Option("auto_mixed_precision", False, "float16 for matmul/conv regions with casts at the "
           "boundaries (changes rounding)"),
    Option("use_plugin_optimizers", True, "(no effect)", does_nothing=(
        "tracegraph loads no optimizer plugins")),
    Option("disable_meta_optimizer", False, "run no pass at all"),
    Option("auto_mixed_precision_onednn_bfloat16", False, "(no effect)", does_nothing=(
        "NumPy has no bfloat16 arithmetic")),
    Option("min_graph_nodes", 4, "graphs with fewer nodes are left alone (0: the default, 4)"),
    # RewriterConfig fields TensorFlow's Python API does not expose; tracegraph does.
    Option("common_subgraph_elimination", True, "merge identical pure ops"),
    Option("memory_optimization", True, "kernels write into input buffers that die (out=)"),
    Option("auto_parallel", False, "(no effect)", does_nothing=(
        "TensorFlow replicates the graph across several devices; tracegraph has one CPU "
        "device (independent branches are the parallel executor's job)")),
    # tracegraph's own.
    Option("arithmetic_rounding_changing", True, "arithmetic_optimization's rounding-changing "
           "rules (1/(1/x) -> x), on by default like Grappler's; off, the pass keeps every "
           "result bit for bit"),
    Option("experimental_verify", False, "run optimized and unoptimized graphs on the first "
           "call's inputs and raise naming the first pass that changed a result"),
]
_BY_KEY = {o.key: o for o in OPTIONS}
_ALWAYS_REPORTED = ("disable_model_pruning", "disable_meta_optimizer")



def _validate(options: dict) -> None:
    if not isinstance(options, dict):
        raise ValueError(f"set_experimental_options expects a dict, got {options!r}")
    for key, value in options.items():
        option = _BY_KEY.get(key)
        if option is None:
            valid = ", ".join(o.key for o in OPTIONS)
            raise ValueError(f"Unknown optimizer option {key!r}. Valid options: {valid}.")
        if isinstance(option.default, bool):
            if not isinstance(value, bool):
                raise ValueError(f"Optimizer option {key!r} must be True or False, got "
                                 f"{value!r}.")
        elif isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise ValueError(f"Optimizer option {key!r} must be a non-negative int, got "
                             f"{value!r}.")


def set_experimental_options(options: dict) -> None:
    """Merges `options` into the current ones (TensorFlow's keys; see OPTIONS)."""
    _validate(options)
    config.update_optimizer_options(options)


def get_experimental_options() -> dict:
    """What was set, in TensorFlow's order, plus disable_model_pruning and
    disable_meta_optimizer (always reported, as TensorFlow does)."""
    out = {}
    chosen = config.optimizer_options
    for o in OPTIONS:
        if o.key in chosen:
            out[o.key] = chosen[o.key]
        elif o.key in _ALWAYS_REPORTED:
            out[o.key] = o.default
    return out


def current() -> dict:
    """Every option's effective value."""
    values = {o.key: config.optimizer_options.get(o.key, o.default) for o in OPTIONS}
    if values["min_graph_nodes"] == 0:
        values["min_graph_nodes"] = 4
    return values


def effective_options() -> list[dict]:
    """One row per option: key, value, default, whether it was set, and what it does."""
    values = current()
    return [{"key": o.key, "value": values[o.key], "default": o.default,
             "set": o.key in config.optimizer_options, "effect": o.does_nothing or o.doc}
            for o in OPTIONS]


def reset() -> None:
    """Back to TensorFlow's defaults (a testing aid)."""
    config.reset_optimizer_options()
