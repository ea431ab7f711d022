"""TF1's adaptive optimizers: `tf.compat.v1.train.AdagradOptimizer`, `RMSPropOptimizer` and
`AdadeltaOptimizer`, on the base of optimizers.py (slots named `w/Adagrad`, `w/RMSProp`,
`w/RMSProp_1`, ... as TensorFlow names them), each update as TensorFlow's kernel computes it:

| optimizer | slots (initial value)               | update (g the gradient, w the variable)  |
|-----------|-------------------------------------|------------------------------------------|
| Adagrad   | accumulator (initial_accumulator_value) | acc += g²; w -= lr·g/√acc            |
| RMSProp   | rms (1), mg (0, if centered), momentum (0) | ms = ρ·ms + (1-ρ)·g²;             |
|           |                                     | mom = μ·mom + lr·g/√(ms - mg² + ε); w -= mom |
| Adadelta  | accum (0), accum_update (0)         | acc = ρ·acc + (1-ρ)·g²;                  |
|           |                                     | u = √(acc_u + ε)/√(acc + ε)·g; w -= lr·u; |
|           |                                     | acc_u = ρ·acc_u + (1-ρ)·u²               |
"""

from __future__ import annotations

from ..library.math import sqrt
from .optimizers import Optimizer, _graph, _hyper

__all__ = ["AdagradOptimizer", "RMSPropOptimizer", "AdadeltaOptimizer"]


def _after(writes, var, update):
    """`var -= update`, after the slot `writes` in a graph."""
    graph = _graph()
    if graph is None:
        return var.assign_sub(update, read_value=False)
    with graph.control_dependencies(writes):
        return var.assign_sub(update, read_value=False)


class AdagradOptimizer(Optimizer):
    def __init__(self, learning_rate, initial_accumulator_value=0.1, use_locking=False,
                 name="Adagrad"):
        if initial_accumulator_value <= 0.0:
            raise ValueError(f"initial_accumulator_value must be positive: "
                             f"{initial_accumulator_value}")
        super().__init__(use_locking, name)
        self._lr, self._initial = learning_rate, initial_accumulator_value

    def _prepare(self, pairs) -> None:
        for _, v in pairs:
            self._slot(v, "accumulator", self._name, self._initial)

    def _apply(self, grad, var):
        accum = self._slot(var, "accumulator", self._name, self._initial)
        new_accum = accum + grad * grad
        write = accum.assign(new_accum, read_value=False)
        return _after([write], var, _hyper(self._lr, var.dtype) * grad / sqrt(new_accum))


class RMSPropOptimizer(Optimizer):
    def __init__(self, learning_rate, decay=0.9, momentum=0.0, epsilon=1e-10,
                 use_locking=False, centered=False, name="RMSProp"):
        super().__init__(use_locking, name)
        self._lr, self._decay, self._momentum, self._epsilon = learning_rate, decay, momentum, \
            epsilon
        self._centered = centered

    def _slots_of(self, var):
        rms = self._slot(var, "rms", self._name, 1.0)
        mg = self._slot(var, "mg", f"{self._name}_1") if self._centered else None
        mom = self._slot(var, "momentum", f"{self._name}_{2 if self._centered else 1}")
        return rms, mg, mom

    def _prepare(self, pairs) -> None:
        for _, v in pairs:
            self._slots_of(v)

    def _apply(self, grad, var):
        dtype = var.dtype
        rho, mu = _hyper(self._decay, dtype), _hyper(self._momentum, dtype)
        lr, eps = _hyper(self._lr, dtype), _hyper(self._epsilon, dtype)
        rms, mg, mom = self._slots_of(var)
        new_rms = rms * rho + grad * grad * (1 - rho)
        writes = [rms.assign(new_rms, read_value=False)]
        denominator = new_rms + eps
        if mg is not None:
            new_mg = mg * rho + grad * (1 - rho)
            writes.append(mg.assign(new_mg, read_value=False))
            denominator = new_rms - new_mg * new_mg + eps
        new_mom = mom * mu + lr * grad / sqrt(denominator)
        writes.append(mom.assign(new_mom, read_value=False))
        return _after(writes, var, new_mom)


class AdadeltaOptimizer(Optimizer):
    def __init__(self, learning_rate=0.001, rho=0.95, epsilon=1e-8, use_locking=False,
                 name="Adadelta"):
        super().__init__(use_locking, name)
        self._lr, self._rho, self._epsilon = learning_rate, rho, epsilon

    def _prepare(self, pairs) -> None:
        for _, v in pairs:
            self._slot(v, "accum", self._name)
            self._slot(v, "accum_update", f"{self._name}_1")

    def _apply(self, grad, var):
        dtype = var.dtype
        rho, eps, lr = _hyper(self._rho, dtype), _hyper(self._epsilon, dtype), \
            _hyper(self._lr, dtype)
        accum = self._slot(var, "accum", self._name)
        accum_update = self._slot(var, "accum_update", f"{self._name}_1")
        new_accum = accum * rho + grad * grad * (1 - rho)
        update = sqrt(accum_update + eps) / sqrt(new_accum + eps) * grad
        new_accum_update = accum_update * rho + update * update * (1 - rho)
        writes = [accum.assign(new_accum, read_value=False),
                  accum_update.assign(new_accum_update, read_value=False)]
        return _after(writes, var, lr * update)
