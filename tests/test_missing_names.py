"""A TensorFlow name tracegraph lacks (issue 26, item 22): `tf.X` and `tf.math.X` raise an
AttributeError that says tracegraph does not have it yet, as `tf.keras.layers` does, and
`hasattr` / `getattr(tf, name, default)` keep working."""

import pytest

import tracegraph as tf

NAMESPACES = {"tf": tf, "tf.math": tf.math, "tf.nn": tf.nn, "tf.linalg": tf.linalg,
              "tf.random": tf.random, "tf.strings": tf.strings, "tf.debugging": tf.debugging,
              "tf.config": tf.config, "tf.io": tf.io, "tf.train": tf.train,
              "tf.saved_model": tf.saved_model, "tf.summary": tf.summary, "tf.dtypes": tf.dtypes,
              "tf.errors": tf.errors, "tf.nest": tf.nest, "tf.distribute": tf.distribute,
              "tf.sparse": tf.sparse, "tf.ragged": tf.ragged, "tf.autograph": tf.autograph,
              "tf.bitwise": tf.bitwise, "tf.test": tf.test, "tf.data": tf.data}


@pytest.mark.parametrize("label", list(NAMESPACES))
def test_a_missing_name_says_tracegraph_does_not_have_it_yet(label):
    module = NAMESPACES[label]
    with pytest.raises(AttributeError, match=rf"has no attribute 'not_a_tf_name': tracegraph "
                                             rf"does not have {label}\.not_a_tf_name yet"):
        module.not_a_tf_name  # noqa: B018
    assert not hasattr(module, "not_a_tf_name")
    assert getattr(module, "not_a_tf_name", 7) == 7


def test_dunder_lookups_stay_plain_and_real_names_are_untouched():
    with pytest.raises(AttributeError) as info:
        tf.__wrapped__  # noqa: B018
    assert "does not have" not in str(info.value)
    assert tf.math.add is not None and callable(tf.reduce_sum)
    from tracegraph.api import keras as keras_without_the_extra
    with pytest.raises(AttributeError, match="has only tf.keras.optimizers"):
        keras_without_the_extra.layers  # noqa: B018
    with pytest.raises(ImportError):
        from tracegraph.api.math import not_a_tf_name  # noqa: F401
