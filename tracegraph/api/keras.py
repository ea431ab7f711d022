"""`tf.keras`, limited to `tf.keras.optimizers` (with `.schedules`) so that training loops written
for TensorFlow run; no other part of Keras is provided."""

from . import optimizers

__all__ = ["optimizers"]


def __getattr__(name):
    raise AttributeError(
        f"module 'tracegraph.keras' has no attribute '{name}': tracegraph provides only "
        "tf.keras.optimizers (and its schedules) from Keras. Write models as tf.Module and "
        "train them with tf.GradientTape.")
