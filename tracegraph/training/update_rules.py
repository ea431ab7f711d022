"""The update rules of `tf.optimizers`, with TensorFlow 2.21's (Keras 3's) defaults, names and
formulas. Each rule is written with ops on the Variable, its slots and the gradient (already cast
to the Variable's dtype, clipped and weight-decayed by `Optimizer.apply`)."""

from __future__ import annotations

from ..library.math import cast, maximum, sqrt, square
from ..library.math import pow as power
from .optimizer import Optimizer

__all__ = ["SGD", "Adam", "AdamW", "RMSprop", "Adagrad"]


def _number(name, value, low=None, high=None):
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TypeError(f"Argument `{name}` must be a float. Received: {name}={value!r}")
    if (low is not None and value < low) or (high is not None and value > high):
        bounds = f"in [{low}, {high}]" if high is not None else f">= {low}"
        raise ValueError(f"`{name}` must be a float {bounds}. Received: {name}={value}")
    return float(value)


class SGD(Optimizer):
    """Gradient descent, with momentum and Nesterov momentum:
    `m = momentum * m - lr * g; var += m` (Nesterov: `var += momentum * m - lr * g`)."""

    def __init__(self, learning_rate=0.01, momentum=0.0, nesterov=False, weight_decay=None,
                 clipnorm=None, clipvalue=None, global_clipnorm=None, name=None, **kwargs):
        super().__init__(learning_rate, weight_decay=weight_decay, clipnorm=clipnorm,
                         clipvalue=clipvalue, global_clipnorm=global_clipnorm, name=name,
                         **kwargs)
        self.momentum = _number("momentum", momentum, 0.0, 1.0)
        self.nesterov = bool(nesterov)

    def build(self, var_list):
        if self.built:
            return
        super().build(var_list)
        self.momentums = self.add_slots(var_list, ["momentum"])[0] if self.momentum else []

    def update_step(self, gradient, variable, learning_rate):
        lr = cast(learning_rate, variable.dtype)
        if self.momentum == 0:
            variable.assign_sub(gradient * lr)
            return
        m = self.momentums[self._slot_index(variable)]
        momentum = cast(self.momentum, variable.dtype)
        m.assign(m * momentum - gradient * lr)
        if self.nesterov:
            variable.assign_add(m * momentum - gradient * lr)
        else:
            variable.assign_add(m)

    def get_config(self):
        return {**super().get_config(), "momentum": self.momentum, "nesterov": self.nesterov}


class Adam(Optimizer):
    """Adam: `m += (g - m)(1 - beta_1)`, `v += (g^2 - v)(1 - beta_2)`,
    `var -= m * alpha / (sqrt(v) + epsilon)` with `alpha = lr sqrt(1 - beta_2^t) / (1 - beta_1^t)`;
    `amsgrad` uses the running maximum of `v`."""

    def __init__(self, learning_rate=0.001, beta_1=0.9, beta_2=0.999, epsilon=1e-7,
                 amsgrad=False, weight_decay=None, clipnorm=None, clipvalue=None,
                 global_clipnorm=None, name=None, **kwargs):
        super().__init__(learning_rate, weight_decay=weight_decay, clipnorm=clipnorm,
                         clipvalue=clipvalue, global_clipnorm=global_clipnorm, name=name,
                         **kwargs)
        self.beta_1 = _number("beta_1", beta_1)
        self.beta_2 = _number("beta_2", beta_2)
        self.epsilon = _number("epsilon", epsilon)
        self.amsgrad = bool(amsgrad)

    def build(self, var_list):
        if self.built:
            return
        super().build(var_list)
        names = ["momentum", "velocity"] + (["velocity_hat"] if self.amsgrad else [])
        slots = self.add_slots(var_list, names)
        self._momentums, self._velocities = slots[0], slots[1]
        self._velocity_hats = slots[2] if self.amsgrad else []

    def update_step(self, gradient, variable, learning_rate):
        dtype = variable.dtype
        lr = cast(learning_rate, dtype)
        step = cast(self.iterations + 1, dtype)
        beta_1_power = power(cast(self.beta_1, dtype), step)
        beta_2_power = power(cast(self.beta_2, dtype), step)
        i = self._slot_index(variable)
        m, v = self._momentums[i], self._velocities[i]
        alpha = lr * sqrt(1 - beta_2_power) / (1 - beta_1_power)
        m.assign_add((gradient - m) * (1 - self.beta_1))
        v.assign_add((square(gradient) - v) * (1 - self.beta_2))
        if self.amsgrad:
            v_hat = self._velocity_hats[i]
            v_hat.assign(maximum(v_hat, v))
            v = v_hat
        variable.assign_sub((m * alpha) / (sqrt(v) + self.epsilon))

    def get_config(self):
        return {**super().get_config(), "beta_1": self.beta_1, "beta_2": self.beta_2,
                "epsilon": self.epsilon, "amsgrad": self.amsgrad}


class AdamW(Adam):
    """Adam with decoupled weight decay (`var -= var * weight_decay * lr` before each step)."""

    def __init__(self, learning_rate=0.001, weight_decay=0.004, beta_1=0.9, beta_2=0.999,
                 epsilon=1e-7, amsgrad=False, clipnorm=None, clipvalue=None,
                 global_clipnorm=None, name=None, **kwargs):
        if weight_decay is None:
            raise ValueError("Argument `weight_decay` must be a float. Received: "
                             "weight_decay=None")
        super().__init__(learning_rate=learning_rate, beta_1=beta_1, beta_2=beta_2,
                         epsilon=epsilon, amsgrad=amsgrad, weight_decay=weight_decay,
                         clipnorm=clipnorm, clipvalue=clipvalue,
                         global_clipnorm=global_clipnorm, name=name, **kwargs)


class RMSprop(Optimizer):
    """RMSprop: `v = rho v + (1 - rho) g^2`; `var -= lr g / sqrt(v + epsilon)` (centered: the
    running mean of `g` squared is subtracted from `v`; with momentum the step is accumulated)."""

    def __init__(self, learning_rate=0.001, rho=0.9, momentum=0.0, epsilon=1e-7,
                 centered=False, weight_decay=None, clipnorm=None, clipvalue=None,
                 global_clipnorm=None, name=None, **kwargs):
        super().__init__(learning_rate, weight_decay=weight_decay, clipnorm=clipnorm,
                         clipvalue=clipvalue, global_clipnorm=global_clipnorm, name=name,
                         **kwargs)
        self.rho = _number("rho", rho)
        self.momentum = _number("momentum", momentum)
        self.epsilon = _number("epsilon", epsilon)
        self.centered = bool(centered)

    def build(self, var_list):
        if self.built:
            return
        super().build(var_list)
        names = (["velocity"] + (["momentum"] if self.momentum > 0 else [])
                 + (["average_gradient"] if self.centered else []))
        slots = dict(zip(names, self.add_slots(var_list, names)))
        self._velocities = slots["velocity"]
        self._momentums = slots.get("momentum", [])
        self._average_gradients = slots.get("average_gradient", [])

    def update_step(self, gradient, variable, learning_rate):
        lr = cast(learning_rate, variable.dtype)
        i = self._slot_index(variable)
        velocity = self._velocities[i]
        rho = self.rho
        velocity.assign(rho * velocity + (1 - rho) * square(gradient))
        if self.centered:
            average = self._average_gradients[i]
            average.assign(rho * average + (1 - rho) * gradient)
            denominator = velocity - square(average) + self.epsilon
        else:
            denominator = velocity + self.epsilon
        increment = lr * gradient / sqrt(denominator)
        if self.momentum > 0:
            momentum = self._momentums[i]
            momentum.assign(self.momentum * momentum + increment)
            variable.assign_sub(momentum)
        else:
            variable.assign_sub(increment)

    def get_config(self):
        return {**super().get_config(), "rho": self.rho, "momentum": self.momentum,
                "epsilon": self.epsilon, "centered": self.centered}


class Adagrad(Optimizer):
    """Adagrad: `acc += g^2; var -= lr g / sqrt(acc + epsilon)`."""

    def __init__(self, learning_rate=0.001, initial_accumulator_value=0.1, epsilon=1e-7,
                 weight_decay=None, clipnorm=None, clipvalue=None, global_clipnorm=None,
                 name=None, **kwargs):
        super().__init__(learning_rate, weight_decay=weight_decay, clipnorm=clipnorm,
                         clipvalue=clipvalue, global_clipnorm=global_clipnorm, name=name,
                         **kwargs)
        self.initial_accumulator_value = _number("initial_accumulator_value",
                                                 initial_accumulator_value, 0.0)
        self.epsilon = _number("epsilon", epsilon)

    def build(self, var_list):
        if self.built:
            return
        super().build(var_list)
        self._accumulators = self.add_slots(var_list, ["accumulator"],
                                            self.initial_accumulator_value)[0]

    def update_step(self, gradient, variable, learning_rate):
        lr = cast(learning_rate, variable.dtype)
        accumulator = self._accumulators[self._slot_index(variable)]
        accumulator.assign_add(square(gradient))
        variable.assign_sub(lr * gradient / sqrt(accumulator + self.epsilon))

    def get_config(self):
        return {**super().get_config(),
                "initial_accumulator_value": self.initial_accumulator_value,
                "epsilon": self.epsilon}
