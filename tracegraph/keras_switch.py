"""What `tf.keras` is: real Keras 3 through the bridge (`tracegraph/keras`) when the `keras`
extra is installed, else tracegraph's optimizers-only module (`api/keras.py`)."""

from __future__ import annotations

import importlib
import importlib.util
import sys


def keras_installed() -> bool:
    """Whether Keras can be imported (`sys.modules["keras"] = None` hides it, as Python's
    import system reads that entry)."""
    if "keras" in sys.modules:
        return sys.modules["keras"] is not None
    return importlib.util.find_spec("keras") is not None


def keras_module():
    import tracegraph
    if keras_installed():
        module = importlib.import_module("tracegraph.keras")
    else:
        from .api import keras as module
    tracegraph.keras = module
    return module
