"""Runs Keras's own tests (copied here by fetch.py) on tracegraph: the bridge is in place
before Keras is imported, as `tf.keras` puts it. Replaces what Keras's repository conftest
gives its tests (the sdist has none): the markers and `skip_if_backend`."""

import pytest

import tracegraph as tf

tf.keras  # noqa: B018 - binds `tensorflow` to tracegraph, then imports Keras


def pytest_configure(config):
    config.addinivalue_line("markers", "requires_trainable_backend: needs a trainable backend")


def skip_if_backend(given_backend, reason):
    from keras.src.backend import backend

    return pytest.mark.skipif(backend() == given_backend, reason=reason)
