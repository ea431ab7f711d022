"""Keras's convolution, pooling, normalization and embedding layers on tracegraph give
TensorFlow 2.21's outputs and gradients (fixtures/conv_pool_layers.npz, made by
fixtures/make_conv_pool_layers.py from conv_pool_layers.py)."""

import pathlib

import numpy as np
import pytest

import tracegraph as tf

from . import conv_pool_layers

REFERENCE = np.load(pathlib.Path(__file__).with_name("fixtures") / "conv_pool_layers.npz")


# names only: building the layers needs tf.keras, which must not be touched while collecting
# (it binds the name `tensorflow` for the whole process)
NAMES = sorted({key.split("/")[0] for key in REFERENCE.files})


@pytest.mark.parametrize("name", NAMES)
def test_layer_matches_tensorflow(name):
    layer, shape = conv_pool_layers.cases(tf.keras)[name]
    got = conv_pool_layers.run(tf, layer, shape, name)
    want = [REFERENCE[k] for k in sorted((k for k in REFERENCE.files
                                         if k.startswith(f"{name}/")),
                                        key=lambda k: int(k.split("/")[1]))]
    assert len(got) == len(want)
    for g, w in zip(got, want):
        assert g.shape == w.shape
        np.testing.assert_allclose(g, w, rtol=1e-4, atol=1e-4 * max(1.0, np.abs(w).max()))
