"""Extension types in tracegraph's saved models: specs in signatures and values as results,
saved under the type's `__name__` and found again by it."""

import numpy as np
import pytest

import tracegraph as tf
from tracegraph.framework import extension_type


class Scaled(tf.experimental.ExtensionType):
    __name__ = "tests.formats.native.Scaled"
    values: tf.Tensor
    scale: float
    tags: tuple[str, ...] = ()


class Unnamed(tf.experimental.ExtensionType):
    values: tf.Tensor


class Grower(tf.Module):
    def __init__(self):
        super().__init__()
        self.v = tf.Variable(2.0)

    @tf.function
    def grow(self, x):
        return Scaled(x.values * self.v, x.scale * 2, x.tags)


def test_round_trip_of_specs_and_results(tmp_path):
    module = Grower()
    module.grow.get_concrete_function(
        Scaled.Spec(tf.TensorSpec([None], tf.float32), 1.5, ("a",)))
    tf.saved_model.save(module, str(tmp_path))
    loaded = tf.saved_model.load(str(tmp_path))
    out = loaded.grow(Scaled([1.0, 2.0, 3.0], 1.5, ("a",)))
    assert type(out) is Scaled and out.scale == 3.0 and out.tags == ("a",)
    np.testing.assert_allclose(out.values, [2.0, 4.0, 6.0])
    with pytest.raises(ValueError, match="Could not find matching concrete function"):
        loaded.grow(Scaled([1.0], 2.5, ("a",)))   # another Python field value


def test_a_type_without_name_cannot_be_saved(tmp_path):
    module = tf.Module()
    module.f = tf.function(lambda x: x)
    module.f.get_concrete_function(Unnamed.Spec(tf.TensorSpec([2])))
    with pytest.raises(ValueError, match="has no `__name__` to be saved under"):
        tf.saved_model.save(module, str(tmp_path))


def test_loading_without_the_type_defined_names_it(tmp_path, monkeypatch):
    module = Grower()
    module.grow.get_concrete_function(Scaled.Spec(tf.TensorSpec([2]), 1.0, ()))
    tf.saved_model.save(module, str(tmp_path))
    monkeypatch.delitem(extension_type._REGISTERED, "tests.formats.native.Scaled")
    with pytest.raises(Exception, match="'tests.formats.native.Scaled' is not defined: import"):
        tf.saved_model.load(str(tmp_path))
