"""tests/keras: real Keras 3 (the `keras` extra) on tracegraph through tf.keras. Skipped where
Keras is not installed. In this process tf.keras binds the name `tensorflow` to tracegraph
(that is what it does); tests of what happens before that run in subprocesses."""

import importlib.util

import pytest

import tracegraph as tf

if importlib.util.find_spec("keras") is None:
    pytest.skip("Keras is not installed (pip install 'tracegraph[keras]')",
                allow_module_level=True)

# Keras's trainer asks `isinstance(iterator, tf.data.Iterator)` on every train/test/predict
# call: those tests need tf.data (issue 21).
needs_tf_data = pytest.mark.skipif(not hasattr(tf, "data"),
                                   reason="Keras's trainer needs tf.data (issue 21)")


@pytest.fixture(scope="session")
def keras():
    return tf.keras

# Keras's own test files (upstream/) run in their own pytest process (test_upstream.py).
collect_ignore = ["upstream"]
