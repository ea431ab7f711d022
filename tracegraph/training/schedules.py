"""Learning-rate schedules: `tf.keras.optimizers.schedules` (TensorFlow 2.21, Keras 3).

A schedule is called with the optimizer's `iterations` (the number of steps already applied) and
returns the learning rate as a float32 tensor. Written with ops, so inside a `tf.function` the
rate is computed in the graph from the iteration Variable, never frozen at trace time.
"""

from __future__ import annotations

import math

from .. import dtypes as d
from ..library.indexing import where
from ..library.math import cast, cos, floor, minimum
from ..library.math import pow as power
from ..ops.registry import convert_to_tensor

__all__ = ["LearningRateSchedule", "ExponentialDecay", "PiecewiseConstantDecay", "CosineDecay"]


class LearningRateSchedule:
    """The base of the schedules: `schedule(step)` returns the learning rate at `step`."""

    def __call__(self, step):
        raise NotImplementedError(
            f"Learning rate schedule '{type(self).__name__}' must override `__call__(self, step)`.")

    def get_config(self) -> dict:
        raise NotImplementedError(
            f"Learning rate schedule '{type(self).__name__}' must override `get_config()`.")

    @classmethod
    def from_config(cls, config: dict):
        return cls(**config)


def _float_step(step):
    return cast(convert_to_tensor(step), d.float32)


class ExponentialDecay(LearningRateSchedule):
    """`initial_learning_rate * decay_rate ** (step / decay_steps)`; with `staircase=True` the
    exponent is floored, so the rate drops in steps."""

    def __init__(self, initial_learning_rate, decay_steps, decay_rate, staircase=False,
                 name="ExponentialDecay"):
        if decay_steps <= 0:
            raise ValueError("Argument `decay_steps` must be > 0. "
                             f"Received: decay_steps={decay_steps}")
        self.initial_learning_rate = initial_learning_rate
        self.decay_steps = decay_steps
        self.decay_rate = decay_rate
        self.staircase = staircase
        self.name = name

    def __call__(self, step):
        p = _float_step(step) / float(self.decay_steps)
        if self.staircase:
            p = floor(p)
        rate = convert_to_tensor(self.decay_rate, d.float32)
        return convert_to_tensor(self.initial_learning_rate, d.float32) * power(rate, p)

    def get_config(self) -> dict:
        return {"initial_learning_rate": self.initial_learning_rate,
                "decay_steps": self.decay_steps, "decay_rate": self.decay_rate,
                "staircase": self.staircase, "name": self.name}


class PiecewiseConstantDecay(LearningRateSchedule):
    """`values[0]` while `step <= boundaries[0]`, `values[i]` while
    `boundaries[i-1] < step <= boundaries[i]`, `values[-1]` after the last boundary."""

    def __init__(self, boundaries, values, name="PiecewiseConstant"):
        if len(boundaries) != len(values) - 1:
            raise ValueError(
                "The length of boundaries should be 1 less than the length of values. "
                f"Received: boundaries={boundaries} of length {len(boundaries)}, and "
                f"values={values} of length {len(values)}.")
        self.boundaries = list(boundaries)
        self.values = list(values)
        self.name = name

    def __call__(self, step):

        step = convert_to_tensor(step)
        rate = convert_to_tensor(self.values[-1], d.float32)
        # From the last interval back to the first: each boundary overrides what lies after it.
        for boundary, value in zip(reversed(self.boundaries), reversed(self.values[:-1])):
            inside = step <= cast(convert_to_tensor(boundary), step.dtype)
            rate = where(inside, convert_to_tensor(value, d.float32), rate)
        return rate

    def get_config(self) -> dict:
        return {"boundaries": self.boundaries, "values": self.values, "name": self.name}


class CosineDecay(LearningRateSchedule):
    """Cosine decay from `initial_learning_rate` to `alpha * initial_learning_rate` over
    `decay_steps`, after an optional linear warmup to `warmup_target` over `warmup_steps`."""

    def __init__(self, initial_learning_rate, decay_steps, alpha=0.0, name="CosineDecay",
                 warmup_target=None, warmup_steps=0):
        if decay_steps <= 0:
            raise ValueError("Argument `decay_steps` must be > 0. "
                             f"Received: decay_steps={decay_steps}")
        self.initial_learning_rate = initial_learning_rate
        self.decay_steps = decay_steps
        self.alpha = alpha
        self.name = name
        self.warmup_target = warmup_target
        self.warmup_steps = warmup_steps

    def _decay(self, step, start):
        done = minimum(step, float(self.decay_steps)) / float(self.decay_steps)
        cosine = 0.5 * (1.0 + cos(math.pi * done))
        return start * ((1.0 - self.alpha) * cosine + self.alpha)

    def __call__(self, step):

        step = _float_step(step)
        initial = convert_to_tensor(self.initial_learning_rate, d.float32)
        if self.warmup_target is None:
            return self._decay(step, initial)
        target = convert_to_tensor(self.warmup_target, d.float32)
        warmup = float(self.warmup_steps)
        warming = initial + (target - initial) * (step / max(warmup, 1.0))
        return where(step < warmup, warming, self._decay(step - warmup, target))

    def get_config(self) -> dict:
        return {"initial_learning_rate": self.initial_learning_rate,
                "decay_steps": self.decay_steps, "alpha": self.alpha, "name": self.name,
                "warmup_target": self.warmup_target, "warmup_steps": self.warmup_steps}
