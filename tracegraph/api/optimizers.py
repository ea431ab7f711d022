"""`tf.optimizers` (also `tf.keras.optimizers`): the optimizers of custom training loops."""

from ..training import SGD, Adagrad, Adam, AdamW, Optimizer, RMSprop, schedules

__all__ = ["Optimizer", "SGD", "Adam", "AdamW", "RMSprop", "Adagrad", "schedules"]
