"""`tf.keras` without the `keras` extra: only `tf.keras.optimizers` (with `.schedules`, the same
as `tf.optimizers`), so that training loops written for TensorFlow run. With the extra,
`tf.keras` is real Keras 3 (tracegraph/keras)."""

from . import optimizers

__all__ = ["optimizers"]


def __getattr__(name):
    raise AttributeError(
        f"module 'tracegraph.keras' has no attribute '{name}': without Keras installed, "
        "tf.keras has only tf.keras.optimizers (and its schedules). tf.keras is real Keras 3 "
        "with the keras extra: pip install 'tracegraph[keras]'.")
