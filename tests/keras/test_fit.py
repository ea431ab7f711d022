"""model.fit / evaluate / predict on tracegraph against TensorFlow 2.21 + the same Keras
(fixtures/reference.npz, made by fixtures/make_reference.py from workload.py): histories,
evaluation results and predictions agree; callbacks, validation and class weights work."""

import importlib.metadata
import pathlib

import numpy as np
import pytest

import tracegraph as tf

from . import workload

REF = np.load(pathlib.Path(__file__).parent / "fixtures" / "reference.npz")
SAME_KERAS = importlib.metadata.version("keras").split(".")[:2] == \
    str(REF["versions"][1]).split(".")[:2]


@pytest.fixture(scope="module")
def fit_results(keras):
    return workload.fit_runs(tf, keras)


def test_fit_runs_the_same_as_on_tensorflow(fit_results):
    if not SAME_KERAS:
        pytest.skip("the reference was made with another Keras version")
    assert {k[4:] for k in REF.files if k.startswith("fit/")} == set(fit_results)
    for key, value in fit_results.items():
        np.testing.assert_allclose(value, REF[f"fit/{key}"], rtol=1e-5, atol=2e-6,
                                   err_msg=key)


def test_fit_options_run_the_same_as_on_tensorflow(keras):
    if not SAME_KERAS:
        pytest.skip("the reference was made with another Keras version")
    got = workload.fit_option_runs(tf, keras)
    assert {k[12:] for k in REF.files if k.startswith("fit_options/")} == set(got)
    for key, value in got.items():
        np.testing.assert_allclose(value, REF[f"fit_options/{key}"], rtol=1e-5, atol=2e-6,
                                   err_msg=key)


def test_fit_history_keys(fit_results):
    assert set(k.split("/")[1] for k in fit_results if k.startswith("split/")) == \
        {"loss", "accuracy", "val_loss", "val_accuracy"}
    assert fit_results["split/loss"].shape == (3,)
    assert fit_results["predict"].shape == (96, 2)
    np.testing.assert_allclose(fit_results["predict"], fit_results["predict_dataset"],
                               rtol=1e-6)
    np.testing.assert_allclose(fit_results["evaluate"], fit_results["evaluate_dataset"],
                               rtol=1e-6)


def test_early_stopping_and_model_checkpoint(keras, tmp_path):
    x, y = workload.fit_data()
    model = workload._fit_model(keras)
    path = tmp_path / "best.keras"
    callbacks = [keras.callbacks.EarlyStopping(monitor="val_loss", patience=1, min_delta=10.0),
                 keras.callbacks.ModelCheckpoint(path, monitor="val_loss", save_best_only=True)]
    history = model.fit(x, y, epochs=10, batch_size=16, verbose=0, validation_split=0.25,
                        callbacks=callbacks)
    assert len(history.history["loss"]) == 2   # no epoch improves by 10: stops after patience
    loaded = keras.models.load_model(path)   # the first epoch's model (the best val_loss)
    assert loaded.predict(x[:4], verbose=0).shape == (4, 2)


def test_checkpoint_keeps_the_best_epoch(keras, tmp_path):
    x, y = workload.fit_data()
    model = workload._fit_model(keras)
    path = tmp_path / "w.weights.h5"
    model.fit(x, y, epochs=3, batch_size=16, verbose=0, shuffle=False, validation_split=0.25,
              callbacks=[keras.callbacks.ModelCheckpoint(path, monitor="val_loss",
                                                         save_weights_only=True)])
    fresh = workload._fit_model(keras)
    fresh.load_weights(path)
    np.testing.assert_array_equal(fresh.predict(x, verbose=0), model.predict(x, verbose=0))


@pytest.fixture
def without_crosscheck():
    """The suite's executor cross-check captures printed text with a process-wide
    redirect_stdout around each graph call: a call on a tf.data worker thread then swallows what
    the main thread prints meanwhile (Keras's progress bar). Off for tests of printed output."""
    from tracegraph.execute.crosscheck import crosscheck, set_crosscheck
    was = crosscheck()
    set_crosscheck(False)
    yield
    set_crosscheck(was)


def test_progress_bar_and_history_callback(keras, capsys, without_crosscheck):
    x, y = workload.fit_data()
    model = workload._fit_model(keras)
    history = model.fit(x, y, epochs=2, batch_size=32, verbose=1)
    out = capsys.readouterr().out
    assert "Epoch 2/2" in out and "3/3" in out and "accuracy:" in out
    assert isinstance(history, keras.callbacks.History)
    assert history.epoch == [0, 1]


def test_custom_callback_sees_every_batch(keras):
    seen = []

    class Count(keras.callbacks.Callback):
        def on_train_batch_end(self, batch, logs=None):
            seen.append((batch, sorted(logs)))

    x, y = workload.fit_data()
    workload._fit_model(keras).fit(x, y, epochs=1, batch_size=32, verbose=0,
                                   callbacks=[Count()])
    assert [b for b, _ in seen] == [0, 1, 2]
    assert seen[0][1] == ["accuracy", "loss"]


def test_fit_shuffles_and_still_learns(keras):
    """shuffle=True draws its order from tf.random.shuffle (an order of tracegraph's own, not
    TensorFlow's stream): the run is reproducible under the same seed and learns."""
    x, y = workload.fit_data()
    runs = []
    for _ in range(2):
        model = workload._fit_model(keras)
        runs.append(model.fit(x, y, epochs=4, batch_size=16, verbose=0).history["loss"])
    assert runs[0] == runs[1]
    assert runs[0][-1] < runs[0][0]


def test_fit_on_a_dataset_of_dicts_and_a_generator(keras):
    x, y = workload.fit_data()
    inputs = keras.Input((6,), name="features")
    model = keras.Model(inputs, keras.layers.Dense(2)(inputs))
    model.compile("sgd", keras.losses.SparseCategoricalCrossentropy(from_logits=True))
    dataset = tf.data.Dataset.from_tensor_slices(({"features": x}, y)).batch(32)
    assert len(model.fit(dataset, epochs=2, verbose=0).history["loss"]) == 2

    def batches():
        for i in range(0, 96, 32):
            yield x[i:i + 32], y[i:i + 32]

    history = model.fit(batches(), epochs=1, steps_per_epoch=3, verbose=0)
    assert np.isfinite(history.history["loss"][0])


def test_evaluate_and_predict_without_fit(keras):
    x, y = workload.fit_data()
    model = workload._fit_model(keras)
    logs = model.evaluate(x, y, verbose=0, return_dict=True)
    assert set(logs) == {"loss", "accuracy"}
    logits = model.predict(x, verbose=0)
    np.testing.assert_allclose(logits, model.predict_on_batch(x), rtol=1e-6)
    accuracy = np.mean(np.argmax(logits, 1) == y)
    assert logs["accuracy"] == pytest.approx(accuracy)


_READ_EVENTS = """
import json, sys
from tensorboard.backend.event_processing.event_accumulator import EventAccumulator
out = {}
for run in ("train", "validation"):
    acc = EventAccumulator(f"{sys.argv[1]}/{run}", size_guidance={"tensors": 0})
    acc.Reload()
    out[run] = {tag: [e.step for e in acc.Tensors(tag)] for tag in acc.Tags()["tensors"]}
print(json.dumps(out))
"""


@pytest.mark.slow
def test_tensorboard_callback_logs_open_in_tensorboard(keras, tmp_path):
    """Read by TensorBoard's own event reader in a process of its own (in this one TensorBoard
    would take tracegraph for TensorFlow)."""
    pytest.importorskip("tensorboard")
    import json
    import subprocess
    import sys
    x, y = workload.fit_data()
    model = workload._fit_model(keras)
    model.fit(x, y, epochs=2, batch_size=16, verbose=0, validation_split=0.25,
              callbacks=[keras.callbacks.TensorBoard(str(tmp_path), histogram_freq=1)])
    done = subprocess.run([sys.executable, "-c", _READ_EVENTS, str(tmp_path)],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    runs = json.loads(done.stdout.splitlines()[-1])
    assert runs["train"]["epoch_loss"] == [0, 1]
    assert runs["train"]["epoch_accuracy"] == [0, 1]
    assert runs["train"]["sequential/dense/kernel/histogram"] == [0, 1]
    assert runs["validation"]["epoch_loss"] == [0, 1]
    assert runs["validation"]["evaluation_loss_vs_iterations"] == [5, 10]
