"""Keras models on tracegraph against TensorFlow 2.21 + the same Keras (fixtures/reference.npz,
made by fixtures/make_reference.py from workload.py): with the same seed the initial weights
are TensorFlow's bit for bit (stateless random ops draw TF's Philox numbers), every trainable
weight changes in a step, and losses, weights and predictions after training agree."""

import importlib.metadata
import pathlib

import numpy as np
import pytest

import tracegraph as tf

from . import workload
from .conftest import needs_tf_data

REF = np.load(pathlib.Path(__file__).parent / "fixtures" / "reference.npz")
# BatchNormalization cancels the gradient of the bias before it: Adam turns float noise on that
# near-zero gradient into steps of ~1e-4, on TensorFlow as here.
TOLERANCE = {"batchnorm_adamw_cce": 5e-4}


def _compare(name, got):
    atol = TOLERANCE.get(name, 2e-5)
    same_keras = _keras_version() == _version(str(REF["versions"][1]))
    for key, value in got.items():
        want = REF[f"{name}/{key}"]
        if key == "test" or (key == "losses" and name != "custom_loop"):
            if not same_keras:   # Keras 3.10 reports the running mean of its metrics
                continue
        if key.startswith("init_"):
            np.testing.assert_array_equal(value, want, err_msg=f"{name} {key}")
        else:
            np.testing.assert_allclose(np.asarray(value, np.float64), want, rtol=1e-5,
                                       atol=atol, err_msg=f"{name} {key}")


def _version(text):
    return tuple(int(v) for v in text.split(".")[:2])


def _keras_version():
    return _version(importlib.metadata.version("keras"))   # without importing it


def _trainable_changed(got):
    """The weights at each index that differ between init_ and final_."""
    return {int(k[6:]): not np.array_equal(got[k], got[f"final_{k[6:]}"])
            for k in got if k.startswith("init_")}


@needs_tf_data
@pytest.mark.parametrize("name", sorted(workload.CASES))
def test_training_matches_tensorflow(keras, name):
    got = workload.run_case(keras, name)
    _compare(name, got)


@needs_tf_data
@pytest.mark.parametrize("name", sorted(workload.CASES))
def test_every_trainable_weight_changes_in_one_step(keras, name):
    keras.utils.set_random_seed(1)
    model, x_key, y_key = workload.CASES[name](keras)
    d = workload.data()
    before = [w.numpy().copy() for w in model.trainable_weights]
    model.train_on_batch(d[x_key], d[y_key])
    unchanged = [w.path for w, b in zip(model.trainable_weights, before)
                 if np.array_equal(w.numpy(), b)]
    assert not unchanged and model.trainable_weights


def test_custom_training_loop_in_a_function_matches_tensorflow(keras):
    got = workload.custom_loop(tf, keras)
    _compare("custom_loop", got)
    init = workload.custom_loop(tf, keras)  # the same seed gives the same run
    np.testing.assert_array_equal(init["losses"], got["losses"])


def test_eager_custom_loop_updates_every_weight(keras):
    keras.utils.set_random_seed(2)
    model = keras.Sequential([keras.Input((6,)), keras.layers.Dense(4, activation="relu"),
                              keras.layers.LayerNormalization(), keras.layers.Dense(3)])
    optimizer = keras.optimizers.SGD(0.1)
    d = workload.data()
    before = [w.numpy().copy() for w in model.trainable_weights]
    with tf.GradientTape() as tape:
        loss = keras.losses.sparse_categorical_crossentropy(
            d["labels"], model(d["x"], training=True), from_logits=True)
        loss = tf.reduce_mean(loss)
    grads = tape.gradient(loss, model.trainable_weights)
    assert all(g is not None for g in grads)
    optimizer.apply_gradients(zip(grads, model.trainable_weights))
    assert all(not np.array_equal(w.numpy(), b) for w, b in zip(model.trainable_weights, before))


def test_regularizers_and_added_losses_have_gradients(keras):
    """Keras sums the losses with ops.sum([loss, reg]): TF's auto-packing conversion (a Pack),
    differentiable, not a constant."""
    layer = keras.layers.Dense(3, kernel_regularizer=keras.regularizers.L2(0.1))
    x = tf.constant(workload.data()["x"])
    layer(x)
    with tf.GradientTape() as tape:
        loss = keras.ops.sum([tf.reduce_sum(layer(x)), *layer.losses])
    grads = tape.gradient(loss, layer.trainable_weights)
    assert all(g is not None for g in grads)
    kernel = layer.kernel.numpy()
    want = np.tile(x.numpy().sum(0)[:, None], (1, 3)) + 0.2 * kernel
    np.testing.assert_allclose(grads[0].numpy(), want, rtol=1e-5)


def _custom_layer(keras):
    class Scale(keras.layers.Layer):
        """A layer whose weights are made in a deferred build (the input's last dim)."""

        def build(self, input_shape):
            self.w = self.add_weight(shape=(input_shape[-1],), initializer="ones")

        def call(self, x):
            return x * self.w

    return Scale


@needs_tf_data
def test_layers_of_the_milestone_train(keras):
    Scale = _custom_layer(keras)
    inputs = keras.Input((6,))
    h = keras.layers.Dense(8, activation="relu")(inputs)
    h = keras.layers.Dropout(0.2)(h)
    h = keras.layers.LayerNormalization()(h)
    h = keras.layers.BatchNormalization()(h)
    h = Scale()(h)
    h = keras.layers.Lambda(lambda t: t * 2.0)(h)
    model = keras.Model(inputs, keras.layers.Dense(3, activation="softmax")(h))
    model.compile("adam", "sparse_categorical_crossentropy", metrics=["accuracy"])
    d = workload.data()
    before = [w.numpy().copy() for w in model.trainable_weights]
    model.train_on_batch(d["x"], d["labels"])
    assert all(not np.array_equal(w.numpy(), b) for w, b in zip(model.trainable_weights, before))
    assert model.predict_on_batch(d["x"]).shape == (16, 3)


@needs_tf_data
def test_predict_on_numpy_arrays(keras):
    """`predict` batches NumPy arrays through a tf.data pipeline (Keras's array adapter)."""
    keras.utils.set_random_seed(1)
    model, x_key, _ = workload.CASES["mlp_adam_scce"](keras)
    x = workload.data()[x_key]
    np.testing.assert_allclose(model.predict(x, batch_size=5, verbose=0),
                               model.predict_on_batch(x), rtol=1e-6)


@needs_tf_data
@pytest.mark.parametrize("flag", ["run_eagerly", "jit_compile"])
def test_run_eagerly_and_jit_compile_match_the_graph(keras, flag):
    results = {}
    # Keras turns jit_compile off under op determinism (which the suite's conftest enables).
    deterministic = tf.config.is_op_determinism_enabled()
    tf.config.disable_op_determinism()
    try:
        for option in (False, True):
            keras.utils.set_random_seed(1)
            model, x_key, y_key = workload.CASES["mlp_adam_scce"](keras)
            model.compile(keras.optimizers.Adam(0.01),
                          keras.losses.SparseCategoricalCrossentropy(from_logits=True),
                          **{flag: option})
            assert getattr(model, flag) is option
            d = workload.data()
            results[option] = [model.train_on_batch(d[x_key], d[y_key]) for _ in range(2)]
    finally:
        if deterministic:
            tf.config.experimental.enable_op_determinism()
    np.testing.assert_allclose(results[True], results[False], rtol=1e-5)


@needs_tf_data
def test_custom_train_step(keras):
    class Model(keras.Model):
        def train_step(self, data):
            x, y = data[:2]
            with tf.GradientTape() as tape:
                loss = self.compute_loss(y=y, y_pred=self(x, training=True))
            grads = tape.gradient(loss, self.trainable_variables)
            self.optimizer.apply_gradients(zip(grads, self.trainable_variables))
            return {"loss": loss}

    inputs = keras.Input((6,))
    model = Model(inputs, keras.layers.Dense(1)(keras.layers.Dense(4)(inputs)))
    model.compile("sgd", "mse")
    d = workload.data()
    before = [w.numpy().copy() for w in model.trainable_weights]
    logs = model.train_on_batch(d["x"], d["target"], return_dict=True)
    assert set(logs) == {"loss"} and np.isfinite(logs["loss"])
    assert all(not np.array_equal(w.numpy(), b) for w, b in zip(model.trainable_weights, before))


@needs_tf_data
def test_save_and_load(keras, tmp_path, capsys):
    keras.utils.set_random_seed(1)
    model, x_key, y_key = workload.CASES["batchnorm_adamw_cce"](keras)
    d = workload.data()
    model.train_on_batch(d[x_key], d[y_key])
    model.save(tmp_path / "m.keras")
    loaded = keras.models.load_model(tmp_path / "m.keras")
    np.testing.assert_array_equal(loaded.predict_on_batch(d[x_key]),
                                  model.predict_on_batch(d[x_key]))
    assert int(loaded.optimizer.iterations.numpy()) == 1
    loaded.train_on_batch(d[x_key], d[y_key])  # training goes on from the saved state
    model.save_weights(tmp_path / "w.weights.h5")
    fresh, _, _ = workload.CASES["batchnorm_adamw_cce"](keras)
    fresh.load_weights(tmp_path / "w.weights.h5")
    np.testing.assert_array_equal(fresh.predict_on_batch(d[x_key]),
                                  model.predict_on_batch(d[x_key]))
    model.summary()
    text = capsys.readouterr().out
    assert "batch_normalization" in text and "Total params: " in text


def test_summary_and_symbolic_build_without_data(keras, capsys):
    """Building a model traces its layers into a scratch graph (compute_output_spec: a
    FuncGraph and tf.compat.v1.placeholder for a custom layer's deferred build)."""
    Scale = _custom_layer(keras)
    model = keras.Sequential([keras.Input((4,)), keras.layers.Dense(5), Scale(),
                              keras.layers.Flatten()])
    assert model.output_shape == (None, 5)
    model.summary()
    assert "Trainable params: 30" in capsys.readouterr().out


@needs_tf_data
def test_a_keras_file_saved_by_tensorflow_loads_and_predicts_the_same(keras):
    if _keras_version() < _version(str(REF["versions"][1])):
        pytest.skip("the file was saved by a newer Keras (older ones refuse its layer configs)")
    model = keras.models.load_model(pathlib.Path(__file__).parent / "fixtures" /
                                    "saved_by_tensorflow.keras")
    x = workload.data()["x"]
    np.testing.assert_allclose(model.predict_on_batch(x), REF["saved_by_tensorflow/predict"],
                               rtol=1e-5, atol=1e-6)
    assert int(model.optimizer.iterations.numpy()) == 1


@needs_tf_data
def test_predict_on_a_tf_data_dataset(keras):
    """Keras recognises a tracegraph dataset as a tf.data one (class DatasetV2 from a
    tensorflow.python module, as its `is_tf_dataset` checks)."""
    keras.utils.set_random_seed(1)
    model, x_key, _ = workload.CASES["mlp_adam_scce"](keras)
    x = workload.data()[x_key]
    dataset = tf.data.Dataset.from_tensor_slices(x).batch(5)
    np.testing.assert_allclose(model.predict(dataset, verbose=0), model.predict_on_batch(x),
                               rtol=1e-6)
