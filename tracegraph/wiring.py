"""Late-bound wiring: every slot through which a lower layer calls an upper one at run time.

A layer imports only the layers above it in DESIGN's list, yet a few lower layers must call
code of upper ones: the trace layer runs and converts functions with `execute/` and
`autograph/`, `bind` needs the eager context of `framework/`, a Module's attributes are
watched by the checkpoint formats. Each such call goes through a slot here, and the slots are
filled once, by `install`, which only `tracegraph/__init__.py` calls (at import, after the
layers are loaded). Nothing else writes here, and no other module keeps a slot of its own:
`tests/test_architecture.py` checks both.

This module imports the two leaf modules that double as TensorFlow's namespaces (`tf.config`,
`tf.dtypes`) and nothing else, so every layer may read it.
"""

from __future__ import annotations

from . import config, dtypes

__all__ = ["install", "prepare_function", "convert_for_tracing", "first_call_report",
           "eager_context", "attribute_set_hooks", "compile_hook", "session_run",
           "session_load"]

# ---- trace/ (layer 6) -> execute/ (10) and autograph/ (8) ----------------------------------
# `ConcreteFunction.compiled()`: how a traced graph becomes runnable (optimize a copy with the
# current options, compile it for the function's executor). Filled with
# `execute.runner.prepare(concrete) -> (compiled callable, graph that runs, optimizer report)`.
prepare_function = None
# `Function` with autograph=True traces AutoGraph's conversion of the Python function. Filled
# with `autograph.api.convert_for_tracing(python_function) -> function to trace`.
convert_for_tracing = None
# `ConcreteFunction.experimental_first_call_report()`: where the first call's time went (trace,
# passes, code generation, jit kernels). Filled with `execute.first_call.first_call_report`.
first_call_report = None

# ---- ops/ (layer 2) -> framework/ (4) --------------------------------------------------------
# The context `bind` uses in a thread that has entered no other (`ops.registry.context_state`
# reads it on the thread's first op): the eager context, `framework.eager.EAGER`, which runs
# kernels and wraps results in EagerTensors.
eager_context = None

# ---- framework/ (4) and training/ (11) -> formats/ (12) ------------------------------------
# Called as hook(object, name, value) after an attribute of a `tf.Module`, an optimizer or a
# `tf.train.Checkpoint` is set: a checkpoint restored before the object had that attribute
# hands the waiting values over now (deferred restoration). Filled with the native checkpoint's
# `formats.checkpoint.deferred_restore.on_attribute_set` and TensorFlow's checkpoint's
# `formats.tensorflow.checkpoint_restore.on_attribute_set`.
attribute_set_hooks: tuple = ()

# ---- execute/compile.py (layer 10) -> its testing aid ----------------------------------------
# Every top-level graph compiled for the code generator, jit or parallel executor passes
# through hook(fn, graph, build, executor) -> callable, where build(other) compiles the same
# graph for another executor. Filled with `execute.crosscheck.cross_checked`, which returns
# `fn` itself unless the test suite turned the executors' cross-check on (`set_crosscheck`).
compile_hook = None


# ---- framework/graph_variables.py (layer 4) -> tf1/ (13) -------------------------------------
# A TF1 graph's Variable evaluates itself in a Session: `v.eval(session)` calls
# session_run(tensor, feed_dict, session) (None: the default session) and `v.load(value,
# session)` calls session_load(variable, value, session). Filled with tf1/session.py's
# `run_in_session` and `load_in_session`.
session_run = None
session_load = None


def install(*, prepare_function, convert_for_tracing, first_call_report, eager_context,
            attribute_set_hooks, compile_hook, optimizer_options, casts, session_run=None,
            session_load=None) -> None:
    """Fills every slot (tracegraph/__init__.py, once). Also gives `tf.config` and `tf.dtypes`
    the names TensorFlow puts there that live in upper layers: `tf.config.optimizer`
    (`optimizer_options`, a namespace of optimize/options.py's functions) and
    `tf.dtypes.cast`/`saturate_cast`/`complex` (`casts`, from library/math.py)."""
    globals().update(prepare_function=prepare_function, convert_for_tracing=convert_for_tracing,
                     first_call_report=first_call_report, eager_context=eager_context,
                     attribute_set_hooks=tuple(attribute_set_hooks), compile_hook=compile_hook,
                     session_run=session_run, session_load=session_load)
    config.optimizer = optimizer_options
    dtypes.cast, dtypes.saturate_cast, dtypes.complex = casts
