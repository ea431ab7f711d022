"""The Keras bridge: `tf.keras` (and `import tracegraph.keras`) is real Keras 3 running on
tracegraph, from the `keras` extra.

Keras's TensorFlow backend reaches TensorFlow by name (`import tensorflow as tf`, and a dozen
`tensorflow.python.*` modules). Importing this module therefore, once per process:

1. refuses (ImportError) when a real TensorFlow is already imported, when Keras is already
   imported without tracegraph as its TensorFlow, or when the Keras backend chosen by
   `KERAS_BACKEND` or `keras.json` is not "tensorflow";
2. binds `sys.modules["tensorflow"]` to tracegraph and puts the alias importer
   (`tracegraph/compat/importer.py`) first on `sys.meta_path`, so that from then on
   `import tensorflow` anywhere in the process is tracegraph;
3. imports Keras with `KERAS_BACKEND=tensorflow` and becomes `keras._tf_keras.keras`, the
   module TensorFlow 2.21's `tf.keras` is (`tf.keras.layers.Dense is keras.layers.Dense`).

Nothing of this happens in a process that never touches `tf.keras` or `tracegraph.keras`.
"""

from __future__ import annotations

import importlib
import importlib.util
import json
import os
import sys
import warnings

# The Keras versions tested with this bridge (pyproject's `keras` extra pins the same range).
TESTED_KERAS = ((3, 10), (3, 15))
_EXTRA = "pip install 'tracegraph[keras]'"


def _refuse(why: str) -> ImportError:
    return ImportError(f"tf.keras (the Keras bridge) cannot start: {why}")


def _keras_config_backend() -> tuple[str | None, str]:
    """The backend Keras will pick at import, and where that choice comes from."""
    env = os.environ.get("KERAS_BACKEND")
    if env:
        return env, "the KERAS_BACKEND environment variable"
    home = os.environ.get("KERAS_HOME") or os.path.join(os.path.expanduser("~"), ".keras")
    if not os.access(home, os.W_OK):  # Keras falls back to /tmp/.keras, as here
        home = os.path.join("/tmp", ".keras")
    path = os.path.join(home, "keras.json")
    try:
        with open(path) as f:
            backend = json.load(f).get("backend")
    except (OSError, ValueError):
        return None, "Keras's default"
    return backend, path


def _check_process() -> None:
    import tracegraph
    bound = sys.modules.get("tensorflow")
    if bound is not None and bound is not tracegraph:
        raise _refuse(
            "a real TensorFlow is imported in this process (tensorflow from "
            f"{getattr(bound, '__file__', '?')}). tf.keras under tracegraph binds the name "
            "'tensorflow' to tracegraph, which would change what that code is running on. Use "
            "TensorFlow's own tf.keras there, or run tracegraph's Keras in another process.")
    backend, source = _keras_config_backend()
    if backend is not None and backend != "tensorflow":
        raise _refuse(
            f"Keras is configured to use the '{backend}' backend ({source}). tracegraph runs "
            "Keras's TensorFlow backend: set KERAS_BACKEND=tensorflow, or leave tf.keras alone "
            "to keep Keras on its own backend.")
    if "keras" in sys.modules and bound is not tracegraph:
        raise _refuse(
            "Keras is already imported, bound to no TensorFlow or to another one; tracegraph "
            "must be in place before Keras is imported. Touch tf.keras (or import "
            "tracegraph.keras) before importing keras.")


def _check_version(keras) -> None:
    try:
        version = tuple(int(v) for v in keras.__version__.split(".")[:2])
    except ValueError:
        return
    if not TESTED_KERAS[0] <= version <= TESTED_KERAS[1]:
        low, high = (".".join(map(str, v)) for v in TESTED_KERAS)
        warnings.warn(f"Keras {keras.__version__} is outside the versions tracegraph is tested "
                      f"with ({low} to {high}.x); it may use TensorFlow names tracegraph lacks.",
                      stacklevel=3)


def _bind() -> object:
    import tracegraph
    from tracegraph.compat import importer
    from tracegraph.keras_switch import keras_installed
    if not keras_installed():
        raise ImportError(f"tf.keras is Keras 3, which is not installed: {_EXTRA}")
    _check_process()
    was_bound = sys.modules.get("tensorflow") is tracegraph
    os.environ.setdefault("KERAS_BACKEND", "tensorflow")
    sys.modules["tensorflow"] = tracegraph
    importer.install()
    try:
        keras = importlib.import_module("keras")
        _check_version(keras)
        return importlib.import_module("keras._tf_keras.keras")
    except BaseException:
        if not was_bound:  # leave `import tensorflow` as it was
            sys.modules.pop("tensorflow", None)
            importer.uninstall()
        raise


_module = _bind()
sys.modules[__name__] = _module
