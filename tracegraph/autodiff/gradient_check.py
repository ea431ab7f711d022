"""`tf.test.compute_gradient`: theoretical (from the tape) and numerical (central differences)
Jacobians of a function, for tests and users checking a gradient rule.

Each Jacobian is a 2-D NumPy array with one row per element of `f(*x)` and one column per
element of the argument (`y_size` x `x_size`), in the arguments' order.
"""

from __future__ import annotations

import numpy as np

from ..framework.eager import wrap
from .backprop import dense
from .tape import GradientTape

__all__ = ["compute_gradient", "max_error"]


def _as_arrays(x) -> list[np.ndarray]:
    if not isinstance(x, (list, tuple)):
        raise ValueError(f"`x` must be a list or tuple of arguments, got {type(x).__name__}")
    out = []
    for v in x:
        arr = np.asarray(getattr(v, "numpy", lambda v=v: v)())
        if arr.dtype.kind not in "fc":
            arr = arr.astype(np.float32)
        out.append(arr)
    return out


def _theoretical(f, xs: list[np.ndarray]) -> list[np.ndarray]:
    args = [wrap(x.copy()) for x in xs]
    with GradientTape(persistent=True) as tape:
        for a in args:
            tape.watch(a)
        y = f(*args)
    y_value = np.asarray(y.numpy())
    y_size = y_value.size
    jacobians = [np.zeros((y_size, x.size), dtype=x.dtype) for x in xs]
    for j in range(y_size):
        seed = np.zeros(y_size, dtype=y_value.dtype)
        seed[j] = 1
        grads = tape.gradient(y, args, output_gradients=wrap(seed.reshape(y_value.shape)))
        for jac, g in zip(jacobians, grads):
            if g is not None:
                jac[j, :] = np.asarray(dense(g).numpy()).reshape(-1)
    return jacobians


def _numerical(f, xs: list[np.ndarray], delta: float) -> list[np.ndarray]:
    def value(args):
        return np.asarray(f(*[wrap(a) for a in args]).numpy(), dtype=np.float64).reshape(-1)

    y_size = value(xs).size
    jacobians = []
    for i, x in enumerate(xs):
        jac = np.zeros((y_size, x.size), dtype=x.dtype)
        for k in range(x.size):
            plus = [a.copy() for a in xs]
            minus = [a.copy() for a in xs]
            plus[i].reshape(-1)[k] += delta
            minus[i].reshape(-1)[k] -= delta
            jac[:, k] = (value(plus) - value(minus)) / (2 * delta)
        jacobians.append(jac)
    return jacobians


def compute_gradient(f, x, delta=None):
    """Returns (theoretical, numerical): tuples of Jacobians, one per argument in `x`."""
    xs = _as_arrays(x)
    if delta is None:
        delta = 1e-6 if all(a.dtype == np.float64 for a in xs) else 1e-3
    return tuple(_theoretical(f, xs)), tuple(_numerical(f, xs, delta))


def max_error(grad1, grad2) -> float:
    """The largest absolute difference between two lists of Jacobians."""
    error = 0.0
    for a, b in zip(grad1, grad2):
        if a.size:
            error = max(error, float(np.max(np.abs(a - b))))
    return error
