"""`tf.optimizers`: SGD, Adam, AdamW, RMSprop and Adagrad with TensorFlow 2.21's defaults and
update formulas, slot Variables, gradient clipping and learning-rate schedules. Steps are ops on
Variables, so inside a `tf.function` they are part of the traced graph."""

from . import schedules
from .optimizer import Optimizer, clip_by_global_norm
from .update_rules import SGD, Adagrad, Adam, AdamW, RMSprop

__all__ = ["Optimizer", "SGD", "Adam", "AdamW", "RMSprop", "Adagrad", "schedules",
           "clip_by_global_norm"]
