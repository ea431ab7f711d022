"""Keras models and training runs written against modules `tf` and `keras`, so the very same
code runs on TensorFlow 2.21 + Keras (fixtures/make_reference.py writes reference.npz) and on
tracegraph through tf.keras (test_models.py compares). Each case builds a model with a fixed
seed, records its initial weights, trains a few steps on fixed data and records the losses, the
weights after training and the predictions."""

import numpy as np

STEPS = 3


def data(seed=0):
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(16, 6)).astype(np.float32)
    labels = rng.integers(0, 3, size=16)
    return {"x": x, "labels": labels, "onehot": np.eye(3, dtype=np.float32)[labels],
            "target": rng.normal(size=(16, 1)).astype(np.float32),
            "tokens": rng.integers(0, 10, size=(16, 5)).astype(np.int32)}


def mlp_adam_scce(keras):
    model = keras.Sequential([keras.Input((6,)), keras.layers.Dense(16, activation="relu"),
                              keras.layers.Dense(3)])
    model.compile(keras.optimizers.Adam(0.01),
                  keras.losses.SparseCategoricalCrossentropy(from_logits=True),
                  metrics=["accuracy"])
    return model, "x", "labels"


def functional_sgd_mse(keras):
    inputs = keras.Input((6,))
    h = keras.layers.LayerNormalization()(keras.layers.Dense(8, activation="tanh")(inputs))
    model = keras.Model(inputs, keras.layers.Dense(1)(h))
    model.compile(keras.optimizers.SGD(0.05, momentum=0.9), "mse")
    return model, "x", "target"


def batchnorm_adamw_cce(keras):
    model = keras.Sequential([keras.Input((6,)), keras.layers.Dense(8),
                              keras.layers.BatchNormalization(), keras.layers.Dense(3,
                              activation="softmax")])
    model.compile(keras.optimizers.AdamW(0.01, weight_decay=0.05), "categorical_crossentropy",
                  metrics=["accuracy"])
    return model, "x", "onehot"


def embedding_sgd_scce(keras):
    model = keras.Sequential([keras.Input((5,), dtype="int32"), keras.layers.Embedding(10, 4),
                              keras.layers.Flatten(), keras.layers.Dense(3)])
    model.compile(keras.optimizers.SGD(0.1),
                  keras.losses.SparseCategoricalCrossentropy(from_logits=True))
    return model, "tokens", "labels"


def dropout_adam_mse(keras):
    model = keras.Sequential([keras.Input((6,)), keras.layers.Dense(8, activation="relu"),
                              keras.layers.Dropout(0.5, seed=3), keras.layers.Dense(1)])
    model.compile(keras.optimizers.Adam(0.01), "mse")
    return model, "x", "target"


def subclassed_sgd_cce(keras):
    class TwoLayers(keras.Model):
        def __init__(self):
            super().__init__()
            self.hidden = keras.layers.Dense(8, activation="relu")
            self.out = keras.layers.Dense(3)

        def call(self, x, training=False):
            return self.out(self.hidden(x))

    model = TwoLayers()
    model.compile(keras.optimizers.SGD(0.1),
                  keras.losses.CategoricalCrossentropy(from_logits=True), metrics=["accuracy"])
    model.build((None, 6))
    return model, "x", "onehot"


CASES = {f.__name__: f for f in (mlp_adam_scce, functional_sgd_mse, batchnorm_adamw_cce,
                                 embedding_sgd_scce, dropout_adam_mse, subclassed_sgd_cce)}


def run_case(keras, name, initial_weights=None):
    """Trains case `name` for STEPS steps with train_on_batch; returns arrays by key."""
    keras.backend.clear_session()  # fresh names and global state: runs independent of order
    keras.utils.set_random_seed(1)
    model, x_key, y_key = CASES[name](keras)
    d = data()
    out = {f"init_{i}": w for i, w in enumerate(model.get_weights())}
    if initial_weights is not None:
        model.set_weights(initial_weights)
    losses = []
    for _ in range(STEPS):
        result = model.train_on_batch(d[x_key], d[y_key])
        losses.append(result[0] if isinstance(result, list) else result)
    out["losses"] = np.array(losses, np.float64)
    out["test"] = np.array(model.test_on_batch(d[x_key], d[y_key]), np.float64)
    out["predict"] = model.predict_on_batch(d[x_key])
    out.update({f"final_{i}": w for i, w in enumerate(model.get_weights())})
    return out


def custom_loop(tf, keras, initial_weights=None):
    """A training step in tf.function with a GradientTape and a Keras optimizer."""
    keras.backend.clear_session()  # fresh names and global state: runs independent of order
    keras.utils.set_random_seed(1)
    model = keras.Sequential([keras.Input((6,)), keras.layers.Dense(8, activation="relu"),
                              keras.layers.Dense(3)])
    if initial_weights is not None:
        model.set_weights(initial_weights)
    optimizer = keras.optimizers.Adam(0.01)
    loss_fn = keras.losses.SparseCategoricalCrossentropy(from_logits=True)
    d = data()

    @tf.function
    def step(x, y):
        with tf.GradientTape() as tape:
            loss = loss_fn(y, model(x, training=True))
        grads = tape.gradient(loss, model.trainable_weights)
        optimizer.apply_gradients(zip(grads, model.trainable_weights))
        return loss

    losses = [float(step(d["x"], d["labels"])) for _ in range(STEPS)]
    out = {"losses": np.array(losses)}
    out.update({f"final_{i}": w for i, w in enumerate(model.get_weights())})
    return out


# ---- model.fit / evaluate / predict ---------------------------------------------------------

def fit_data(seed=0):
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(96, 6)).astype(np.float32)
    return x, (x.sum(1) > 0).astype(np.int32)


def _fit_model(keras, **compile_options):
    keras.backend.clear_session()
    keras.utils.set_random_seed(1)
    model = keras.Sequential([keras.Input((6,)), keras.layers.Dense(8, activation="relu"),
                              keras.layers.Dense(2)])
    model.compile(keras.optimizers.SGD(0.1),
                  keras.losses.SparseCategoricalCrossentropy(from_logits=True),
                  metrics=["accuracy"], **compile_options)
    return model


def _history(prefix, history):
    return {f"{prefix}/{key}": np.array(values, np.float64)
            for key, values in history.history.items()}


def fit_runs(tf, keras):
    """fit with validation_split, with validation_data and class weights, on a tf.data
    dataset, with steps_per_execution; evaluate and predict on arrays and datasets.
    (shuffle=False: Keras shuffles with tf.random.shuffle, whose stream is TF's own.)"""
    x, y = fit_data()
    out = {}
    model = _fit_model(keras)
    out.update(_history("split", model.fit(x, y, epochs=3, batch_size=16, verbose=0,
                                           validation_split=0.25, shuffle=False)))
    model = _fit_model(keras)
    out.update(_history("weighted", model.fit(
        x, y, epochs=3, batch_size=16, verbose=0, validation_data=(x[:32], y[:32]),
        shuffle=False, class_weight={0: 1.0, 1: 3.0})))
    model = _fit_model(keras, steps_per_execution=4)
    out.update(_history("steps_per_execution", model.fit(x, y, epochs=2, batch_size=16,
                                                         verbose=0, shuffle=False)))
    model = _fit_model(keras)
    dataset = tf.data.Dataset.from_tensor_slices((x, y)).batch(16)
    out.update(_history("dataset", model.fit(dataset, epochs=3, verbose=0,
                                             validation_data=dataset.take(2))))
    out["evaluate"] = np.array(model.evaluate(x, y, batch_size=32, verbose=0), np.float64)
    out["evaluate_dataset"] = np.array(model.evaluate(dataset, verbose=0), np.float64)
    out["predict"] = model.predict(x, batch_size=20, verbose=0)
    out["predict_dataset"] = model.predict(dataset, verbose=0)
    return out


def _multi_io(keras):
    keras.backend.clear_session()
    keras.utils.set_random_seed(1)
    a, b = keras.Input((6,), name="a"), keras.Input((3,), name="b")
    h = keras.layers.Concatenate()([keras.layers.Dense(4)(a), b])
    model = keras.Model({"a": a, "b": b}, {"cls": keras.layers.Dense(2, name="cls")(h),
                                           "reg": keras.layers.Dense(1, name="reg")(h)})
    model.compile("sgd", loss={"cls": keras.losses.SparseCategoricalCrossentropy(
        from_logits=True), "reg": "mse"}, loss_weights={"cls": 1.0, "reg": 0.5},
        metrics={"cls": ["accuracy"]})
    return model


def _regularized(keras):
    keras.backend.clear_session()
    keras.utils.set_random_seed(1)
    model = keras.Sequential([keras.Input((6,)), keras.layers.Dense(8, activation="relu",
                                                                    kernel_regularizer="l2"),
                              keras.layers.ActivityRegularization(l1=0.01), keras.layers.Dense(2)])
    model.compile("sgd", keras.losses.SparseCategoricalCrossentropy(from_logits=True))
    return model


def fit_option_runs(tf, keras):
    """More of fit: sample weights, validation_freq, initial_epoch, learning-rate callbacks,
    a multi-input multi-output model with loss weights, regularizers, a Python generator and a
    keras.utils.PyDataset."""
    x, y = fit_data()
    out = {}
    options = dict(batch_size=16, shuffle=False, verbose=0)
    out.update(_history("sample_weight", _fit_model(keras).fit(
        x, y, sample_weight=np.linspace(0.5, 2, 96), epochs=2, **options)))
    out.update(_history("validation_freq", _fit_model(keras).fit(
        x, y, epochs=4, validation_split=0.25, validation_freq=2, **options)))
    out.update(_history("initial_epoch", _fit_model(keras).fit(x, y, epochs=3, initial_epoch=1,
                                                               **options)))
    out.update(_history("learning_rate", _fit_model(keras).fit(
        x, y, epochs=3, validation_split=0.25, **options, callbacks=[
            keras.callbacks.LearningRateScheduler(lambda epoch, lr: lr * 0.5),
            keras.callbacks.ReduceLROnPlateau(patience=1)])))
    out.update(_history("multi_io", _multi_io(keras).fit(
        {"a": x, "b": x[:, :3]}, {"cls": y, "reg": x[:, :1]}, epochs=2, **options)))
    out.update(_history("regularized", _regularized(keras).fit(x, y, epochs=2, **options)))

    def batches():
        while True:
            for i in range(0, 96, 32):
                yield x[i:i + 32], y[i:i + 32]

    out.update(_history("generator", _fit_model(keras).fit(batches(), steps_per_epoch=3,
                                                           epochs=2, verbose=0)))

    class Batches(keras.utils.PyDataset):
        def __len__(self):
            return 3

        def __getitem__(self, i):
            return x[i * 32:(i + 1) * 32], y[i * 32:(i + 1) * 32]

    out.update(_history("py_dataset", _fit_model(keras).fit(Batches(), epochs=2, verbose=0)))
    return out


# ---- the layers of the guides, trained with fit ------------------------------------------------

def layer_data(seed=0):
    rng = np.random.default_rng(seed)
    return {"seq": rng.normal(size=(32, 7, 4)).astype(np.float32),
            "img": rng.normal(size=(32, 8, 8, 2)).astype(np.float32),
            "tok": rng.integers(0, 20, size=(32, 7)).astype(np.int32),
            "y": rng.integers(0, 3, size=32)}


def _attention(keras):
    inputs = keras.Input((7, 4))
    attended = keras.layers.MultiHeadAttention(2, 3)(inputs, inputs)
    return keras.Model(inputs, keras.layers.Dense(3)(keras.layers.Flatten()(attended)))


def _sequential(keras, shape, *layers, dtype="float32"):
    return keras.Sequential([keras.Input(shape, dtype=dtype), *layers])


# name -> (model builder, input key, what it needs beyond main: "conv" = tf.nn.convolution,
# "loop_gradients" = gradients of Variables read in a while loop of a tf.function,
# "indexed_slices" = a gather's gradient as TF's IndexedSlices, which Keras's Adam squares
# row by row)
LAYER_CASES = {
    "conv1d": (lambda k: _sequential(k, (7, 4), k.layers.Conv1D(5, 3, activation="relu"),
                                     k.layers.GlobalAveragePooling1D(), k.layers.Dense(3)),
               "seq", "conv"),
    "conv1d_causal_dilated": (lambda k: _sequential(
        k, (7, 4), k.layers.Conv1D(5, 2, padding="causal", dilation_rate=2), k.layers.Flatten(),
        k.layers.Dense(3)), "seq", "conv"),
    "conv2d_maxpool": (lambda k: _sequential(
        k, (8, 8, 2), k.layers.Conv2D(4, 3, activation="relu"), k.layers.MaxPooling2D(),
        k.layers.Conv2D(4, 2, strides=2, padding="same"), k.layers.GlobalAveragePooling2D(),
        k.layers.Dense(3)), "img", "conv"),
    "conv2d_batchnorm_dropout": (lambda k: _sequential(
        k, (8, 8, 2), k.layers.Conv2D(4, 3, use_bias=False), k.layers.BatchNormalization(),
        k.layers.Dropout(0.3, seed=2), k.layers.Flatten(), k.layers.Dense(3)), "img", "conv"),
    "lstm": (lambda k: _sequential(k, (7, 4), k.layers.LSTM(5), k.layers.Dense(3)), "seq",
             "loop_gradients"),
    "lstm_sequences": (lambda k: _sequential(
        k, (7, 4), k.layers.LSTM(5, return_sequences=True), k.layers.GlobalAveragePooling1D(),
        k.layers.Dense(3)), "seq", "loop_gradients"),
    "gru": (lambda k: _sequential(k, (7, 4), k.layers.GRU(5), k.layers.Dense(3)), "seq",
            "loop_gradients"),
    "simple_rnn": (lambda k: _sequential(k, (7, 4), k.layers.SimpleRNN(5), k.layers.Dense(3)),
                   "seq", "loop_gradients"),
    "bidirectional_lstm": (lambda k: _sequential(
        k, (7, 4), k.layers.Bidirectional(k.layers.LSTM(3)), k.layers.Dense(3)), "seq",
        "loop_gradients"),
    "multi_head_attention": (_attention, "seq", None),
    "embedding_sgd": (lambda k: _sequential(
        k, (7,), k.layers.Embedding(20, 4), k.layers.GlobalAveragePooling1D(),
        k.layers.Dense(3), dtype="int32"), "tok", None),
    "embedding_adam": (lambda k: _sequential(
        k, (7,), k.layers.Embedding(20, 4), k.layers.GlobalAveragePooling1D(),
        k.layers.Dense(3), dtype="int32"), "tok", "indexed_slices"),
}


def layer_run(keras, name):
    """Trains LAYER_CASES[name] for two epochs with fit; returns losses, weights, predictions
    and the initial weights."""
    build, x_key, _ = LAYER_CASES[name]
    keras.backend.clear_session()
    keras.utils.set_random_seed(1)
    model = build(keras)
    optimizer = keras.optimizers.SGD(0.1) if name == "embedding_sgd" else \
        keras.optimizers.Adam(0.01)
    model.compile(optimizer, keras.losses.SparseCategoricalCrossentropy(from_logits=True))
    d = layer_data()
    out = {f"init_{i}": w for i, w in enumerate(model.get_weights())}
    history = model.fit(d[x_key], d["y"], epochs=2, batch_size=8, shuffle=False, verbose=0)
    out["losses"] = np.array(history.history["loss"], np.float64)
    out["predict"] = model.predict(d[x_key][:8], verbose=0)
    out.update({f"final_{i}": w for i, w in enumerate(model.get_weights())})
    return out


# ---- a real model on real data: scikit-learn's handwritten digits -------------------------------

def digits(csv_path=None):
    """scikit-learn's 1,797 8x8 digits, pixels in [0, 1], split 1,437 / 360 by a fixed
    permutation. `csv_path`: the digits.csv.gz its wheel ships, where scikit-learn is not
    installed (TensorFlow's venv for the fixture)."""
    if csv_path is None:
        from sklearn.datasets import load_digits
        bunch = load_digits()
        x, y = bunch.data, bunch.target
    else:
        table = np.loadtxt(csv_path, delimiter=",")
        x, y = table[:, :-1], table[:, -1]
    order = np.random.default_rng(0).permutation(len(x))
    x = (x[order] / 16.0).astype(np.float32)
    y = y[order].astype(np.int32)
    return (x[:1437], y[:1437]), (x[1437:], y[1437:])


def digits_model(keras, kind):
    """An MLP on the 64 pixels, or a small CNN on the 8x8 image."""
    keras.backend.clear_session()
    keras.utils.set_random_seed(1)
    if kind == "mlp":
        layers = [keras.Input((64,)), keras.layers.Dense(64, activation="relu"),
                  keras.layers.Dropout(0.1, seed=1), keras.layers.Dense(10)]
    else:
        layers = [keras.Input((64,)), keras.layers.Reshape((8, 8, 1)),
                  keras.layers.Conv2D(16, 3, padding="same", activation="relu"),
                  keras.layers.MaxPooling2D(), keras.layers.Conv2D(32, 3, activation="relu"),
                  keras.layers.Flatten(), keras.layers.Dense(10)]
    model = keras.Sequential(layers)
    model.compile(keras.optimizers.Adam(0.005),
                  keras.losses.SparseCategoricalCrossentropy(from_logits=True),
                  metrics=["accuracy"])
    return model


def digits_run(keras, kind, csv_path=None, epochs=12):
    """Trains on the digits with fit (validation_split, shuffled batches), then evaluate and
    predict on the held-out 360; returns the test accuracy both ways and the history."""
    (x, y), (x_test, y_test) = digits(csv_path)
    model = digits_model(keras, kind)
    history = model.fit(x, y, epochs=epochs, batch_size=32, validation_split=0.1, verbose=0)
    _, accuracy = model.evaluate(x_test, y_test, verbose=0)
    predicted = np.argmax(model.predict(x_test, verbose=0), axis=1)
    return {"evaluate_accuracy": np.float64(accuracy),
            "predict_accuracy": np.float64(np.mean(predicted == y_test)),
            "val_accuracy": np.array(history.history["val_accuracy"], np.float64)}


# ---- .keras files between TensorFlow and tracegraph ---------------------------------------------

def _interchange_functional(keras):
    tokens = keras.Input((7,), dtype="int32", name="tokens")
    h = keras.layers.Embedding(20, 6)(tokens)
    h = keras.layers.MultiHeadAttention(2, 3)(h, h)
    h = keras.layers.LayerNormalization()(keras.layers.LSTM(5, return_sequences=True)(h))
    h = keras.layers.GRU(4)(h)
    return keras.Model(tokens, keras.layers.Dense(3)(h))


INTERCHANGE = {
    # name -> (builder, input key in interchange_data, needs)
    "mlp_batchnorm": (lambda k: _sequential(
        k, (6,), k.layers.Dense(8, activation="relu"), k.layers.BatchNormalization(),
        k.layers.Dropout(0.2), k.layers.Dense(3, activation="softmax")), "x", None),
    "embedding_attention_rnn": (_interchange_functional, "tok", None),
    "cnn": (lambda k: _sequential(
        k, (8, 8, 2), k.layers.Conv2D(4, 3, activation="relu"), k.layers.MaxPooling2D(),
        k.layers.Flatten(), k.layers.Dense(3)), "img", "conv"),
}


def interchange_data():
    d = layer_data()
    return {"x": d["seq"][:, 0, :].repeat(2, axis=1)[:, :6], "tok": d["tok"], "img": d["img"],
            "y": d["y"]}


def interchange_save(keras, name, path):
    """Builds INTERCHANGE[name], trains it one epoch (optimizer state, BatchNormalization
    statistics), saves it to `path`; returns its predictions."""
    build, x_key, _ = INTERCHANGE[name]
    keras.backend.clear_session()
    keras.utils.set_random_seed(3)
    model = build(keras)
    model.compile(keras.optimizers.Adam(0.01), "sparse_categorical_crossentropy")
    d = interchange_data()
    model.fit(d[x_key], d["y"], epochs=1, batch_size=8, shuffle=False, verbose=0)
    model.save(path)
    return model.predict(d[x_key], verbose=0)


def interchange_load(keras, name, path):
    """Loads a .keras file of INTERCHANGE[name]; returns its predictions and its optimizer's
    step count."""
    keras.backend.clear_session()
    model = keras.models.load_model(path)
    d = interchange_data()
    return model.predict(d[INTERCHANGE[name][1]], verbose=0), \
        int(np.asarray(model.optimizer.iterations))
