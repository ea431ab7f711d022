"""TF1's optimizers (`tf.compat.v1.train.GradientDescentOptimizer`, `MomentumOptimizer`,
`AdamOptimizer`; Adagrad, RMSProp and Adadelta in adaptive_optimizers.py): `minimize` =
`compute_gradients` + `apply_gradients`.

In a TF1 graph they build ops: the gradients by `tf.gradients`, the slots (Adam's `m` and `v`,
Momentum's accumulator) as Variables named after the variable (`w/Adam`, `w/Adam_1`) in the
global collection (so `global_variables_initializer` initializes them), and an update op that
a Session runs each step (`sess.run(train_op)`). Executing eagerly, `minimize` takes a loss
function, differentiates it with a tape and updates the variables at once, as TensorFlow 2 does.
The updates follow TensorFlow's kernels (Adam's `lr * sqrt(1 - beta2^t) / (1 - beta1^t)` and
epsilon outside the square root).
"""

from __future__ import annotations

import contextlib

import numpy as np

from ..autodiff.gradients import gradients
from ..autodiff.tape import GradientTape
from ..framework.graph_variables import GLOBAL_VARIABLES, GraphVariable
from ..framework.variables import Variable
from ..library.array import zeros_like
from ..library.math import sqrt
from ..ops.registry import convert_to_tensor, current_context
from .graph_api import group, trainable_variables

__all__ = ["Optimizer", "GradientDescentOptimizer", "MomentumOptimizer", "AdamOptimizer",
           "get_global_step", "create_global_step", "get_or_create_global_step"]


def _graph():
    return getattr(current_context(), "graph", None)


class Optimizer:
    """The base of TF1's optimizers: gradients, slots, and the update of each variable."""

    def __init__(self, use_locking: bool, name: str):
        if not name:
            raise ValueError("Must specify the optimizer name")
        self._name = name
        self._use_locking = use_locking
        self._slots: dict = {}          # slot name -> {id(variable): slot Variable}
        self._non_slots: dict = {}      # name -> Variable (Adam's beta powers)

    def get_name(self) -> str:
        return self._name

    # --- gradients -----------------------------------------------------------------------------
    def compute_gradients(self, loss, var_list=None, gate_gradients=1, aggregation_method=None,
                          colocate_gradients_with_ops=False, grad_loss=None):
        """[(gradient, variable)] of `loss` (a tensor in a graph, a function eagerly)."""
        if callable(loss):
            with GradientTape() as tape:
                if var_list is not None:
                    tape.watch(var_list)
                loss_value = loss()
            if var_list is None:
                var_list = tape.watched_variables()
            grads = tape.gradient(loss_value, var_list, output_gradients=grad_loss)
            return list(zip(grads, var_list))
        if _graph() is None:
            raise RuntimeError("`loss` passed to Optimizer.compute_gradients should be a "
                               "function when eager execution is enabled.")
        if var_list is None:
            var_list = trainable_variables()
        if not var_list:
            raise ValueError("No variables to optimize.")
        grads = gradients(loss, list(var_list), grad_ys=grad_loss)
        return list(zip(grads, var_list))

    def minimize(self, loss, global_step=None, var_list=None, gate_gradients=1,
                 aggregation_method=None, colocate_gradients_with_ops=False, name=None,
                 grad_loss=None):
        grads_and_vars = self.compute_gradients(loss, var_list, grad_loss=grad_loss)
        if not any(g is not None for g, _ in grads_and_vars):
            raise ValueError(f"No gradients provided for any variable, check your graph for ops "
                             f"that do not support gradients, between variables "
                             f"{[v.name for _, v in grads_and_vars]} and loss {loss}.")
        return self.apply_gradients(grads_and_vars, global_step, name)

    # --- slots -------------------------------------------------------------------------------
    def _slot(self, var, slot_name: str, suffix: str, fill: float = 0.0):
        """The slot `slot_name` of `var` (made on first use, filled with `fill`), a Variable
        named `<var>/<suffix>`."""
        found = self._slots.setdefault(slot_name, {})
        slot = found.get(id(var))
        if slot is None:
            base = var.name[:-2] if var.name.endswith(":0") else var.name
            if hasattr(var, "initial_value"):
                initial = zeros_like(var.initial_value) + fill if fill else \
                    zeros_like(var.initial_value)
            else:
                initial = np.full(var.shape, fill, var.dtype.as_numpy_dtype)
            slot = found[id(var)] = _variable(initial, f"{base}/{suffix}")
        return slot

    def get_slot(self, var, name):
        return self._slots.get(name, {}).get(id(var))

    def get_slot_names(self) -> list:
        return sorted(self._slots)

    def variables(self) -> list:
        slots = [v for by_var in self._slots.values() for v in by_var.values()]
        return sorted(list(self._non_slots.values()) + slots, key=lambda v: v.name)

    # --- updates -----------------------------------------------------------------------------
    def apply_gradients(self, grads_and_vars, global_step=None, name=None):
        """Updates each variable with its gradient; in a graph, the op that does it (run it
        each step), eagerly None (done)."""
        pairs = [(g, v) for g, v in grads_and_vars if g is not None]
        if not pairs:
            raise ValueError(f"No gradients provided for any variable: "
                             f"{[v.name for _, v in grads_and_vars]}.")
        graph = _graph()
        with graph.name_scope("") if graph is not None else contextlib.nullcontext():
            self._prepare(pairs)
        if graph is None:
            for g, v in pairs:
                self._apply(convert_to_tensor(g), v)
            self._finish()
            if global_step is not None:
                global_step.assign_add(1)
            return None
        with graph.name_scope(name or self._name) as scope:
            updates = [self._apply(convert_to_tensor(g), v) for g, v in pairs]
            finish = self._finish(updates, scope if global_step is None else "update")
            if global_step is None:   # the scope's own op (`GradientDescent`), as in TF
                return finish if finish is not None else group(*updates, name=scope)
            with graph.control_dependencies([finish] if finish is not None else updates):
                return global_step.assign_add(1, name=scope, read_value=False)

    def _prepare(self, pairs) -> None:
        """Makes slots and hyperparameter tensors before the updates."""

    def _apply(self, grad, var):
        raise NotImplementedError

    def _finish(self, updates=None, name=None):
        """The op that ends a step (Adam's advance of its powers), or None."""
        return None


def _variable(initial, name: str):
    """A slot or step Variable (in the graph being built, or eagerly)."""
    return Variable(initial, trainable=False, name=name)


def _hyper(value, dtype):
    return convert_to_tensor(value() if callable(value) else value, dtype=dtype)


class GradientDescentOptimizer(Optimizer):
    """`var -= learning_rate * grad`."""

    def __init__(self, learning_rate, use_locking=False, name="GradientDescent"):
        super().__init__(use_locking, name)
        self._learning_rate = learning_rate

    def _apply(self, grad, var):
        return var.assign_sub(_hyper(self._learning_rate, var.dtype) * grad, read_value=False)


class MomentumOptimizer(Optimizer):
    """`accum = momentum * accum + grad; var -= learning_rate * accum` (Nesterov: `var -=
    learning_rate * (grad + momentum * accum)`)."""

    def __init__(self, learning_rate, momentum, use_locking=False, name="Momentum",
                 use_nesterov=False):
        super().__init__(use_locking, name)
        self._learning_rate, self._momentum, self._nesterov = learning_rate, momentum, \
            use_nesterov

    def _prepare(self, pairs) -> None:
        for _, v in pairs:
            self._slot(v, "momentum", self._name)

    def _apply(self, grad, var):
        lr, mu = _hyper(self._learning_rate, var.dtype), _hyper(self._momentum, var.dtype)
        accum = self._slot(var, "momentum", self._name)
        new_accum = accum * mu + grad
        write = accum.assign(new_accum, read_value=False)
        step = (grad + mu * new_accum) if self._nesterov else new_accum
        graph = _graph()
        if graph is None:
            return var.assign_sub(lr * step, read_value=False)
        with graph.control_dependencies([write]):
            return var.assign_sub(lr * step, read_value=False)


class AdamOptimizer(Optimizer):
    """TF1's Adam (Kingma and Ba): slots `m` (`Adam`) and `v` (`Adam_1`), and the powers
    `beta1_power`, `beta2_power` advanced after each step."""

    def __init__(self, learning_rate=0.001, beta1=0.9, beta2=0.999, epsilon=1e-8,
                 use_locking=False, name="Adam"):
        super().__init__(use_locking, name)
        self._lr, self._beta1, self._beta2, self._epsilon = learning_rate, beta1, beta2, epsilon

    def _prepare(self, pairs) -> None:
        first = pairs[0][1]
        if "beta1_power" not in self._non_slots:
            dtype = first.dtype.as_numpy_dtype
            graph = _graph()
            scope = graph.name_scope("") if graph is not None else contextlib.nullcontext()
            with scope:
                self._non_slots["beta1_power"] = _variable(np.asarray(self._beta1, dtype),
                                                           "beta1_power")
                self._non_slots["beta2_power"] = _variable(np.asarray(self._beta2, dtype),
                                                           "beta2_power")
        for _, v in pairs:
            self._slot(v, "m", self._name)
            self._slot(v, "v", f"{self._name}_1")

    def _apply(self, grad, var):
        dtype = var.dtype
        b1, b2 = _hyper(self._beta1, dtype), _hyper(self._beta2, dtype)
        b1_power = convert_to_tensor(self._non_slots["beta1_power"])
        b2_power = convert_to_tensor(self._non_slots["beta2_power"])
        lr = _hyper(self._lr, dtype) * sqrt(1 - b2_power) / (1 - b1_power)
        m, v = self._slot(var, "m", self._name), self._slot(var, "v", f"{self._name}_1")
        new_m = m * b1 + grad * (1 - b1)
        new_v = v * b2 + grad * grad * (1 - b2)
        writes = [m.assign(new_m, read_value=False), v.assign(new_v, read_value=False)]
        update = lr * new_m / (sqrt(new_v) + _hyper(self._epsilon, dtype))
        graph = _graph()
        if graph is None:
            return var.assign_sub(update, read_value=False)
        with graph.control_dependencies(writes):
            return var.assign_sub(update, read_value=False)

    def _finish(self, updates=None, name=None):
        b1p, b2p = self._non_slots["beta1_power"], self._non_slots["beta2_power"]
        graph = _graph()
        if graph is None:
            b1p.assign(b1p * _hyper(self._beta1, b1p.dtype))
            b2p.assign(b2p * _hyper(self._beta2, b2p.dtype))
            return None
        with graph.control_dependencies(updates):
            # read both powers before writing either
            new1 = b1p * _hyper(self._beta1, b1p.dtype)
            new2 = b2p * _hyper(self._beta2, b2p.dtype)
            return group(b1p.assign(new1, read_value=False),
                         b2p.assign(new2, read_value=False), name=name)



# ---- the global step ------------------------------------------------------------------------

GLOBAL_STEP = "global_step"


def get_global_step(graph=None):
    """The graph's global step Variable (its `global_step` collection), or None."""
    graph = graph if graph is not None else _graph()
    if graph is None:
        return None
    found = graph.get_collection(GLOBAL_STEP)
    if len(found) > 1:
        raise TypeError("Multiple tensors in global_step collection.")
    return found[0] if found else None


def create_global_step(graph=None):
    """An int64 Variable counting training steps (`global_step`), in the graph's collection."""
    graph = graph if graph is not None else _graph()
    if graph is None:
        return Variable(np.int64(0), trainable=False, name="global_step")
    if get_global_step(graph) is not None:
        raise ValueError("'global_step' already exists.")
    with graph.as_default(), graph.name_scope(""):
        return GraphVariable(np.int64(0), trainable=False, name="global_step",
                             collections=[GLOBAL_VARIABLES, GLOBAL_STEP])


def get_or_create_global_step(graph=None):
    found = get_global_step(graph)
    return found if found is not None else create_global_step(graph)
