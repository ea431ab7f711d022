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
