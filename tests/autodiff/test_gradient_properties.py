"""Property tests: for random differentiable programs (the optimizer's generators, smooth
float32 programs: continuous ops, cond, while_loop, nested functions), the gradient of the
sum of the outputs w.r.t. every input agrees between eager execution, the traced function
with the optimizer off and the traced-and-optimized function. (Each rule is checked against
numerical gradients op by op in test_gradient_contract.py.)"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings

import tracegraph as tf
from tests.optimize.programs import Env, emit
from tests.optimize.strategies import programs

FAST = settings(max_examples=25, deadline=None, derandomize=True,
                suppress_health_check=[HealthCheck.too_slow])
SLOW = settings(max_examples=300, deadline=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


def _loss_fn(program):
    captured = [tf.constant(c) for c in program.captures]

    def loss(*xs):
        env = Env(xs, captured, [])
        for step in program.steps:
            emit(step, env)
        total = tf.constant(0.0)
        for i in program.outputs:
            v = env.values[i]
            if isinstance(v, tf.Tensor) and v.dtype == tf.float32:
                total = total + tf.reduce_sum(tf.math.sin(v))
        return total
    return loss


def _grads_fn(loss):
    def grads(*xs):
        with tf.GradientTape() as tape:
            tape.watch(list(xs))
            y = loss(*xs)
        return tape.gradient(y, list(xs), unconnected_gradients=tf.UnconnectedGradients.ZERO)
    return grads


def check(program):
    xs = [tf.constant(f) for f in program.feeds]
    loss = _loss_fn(program)
    grads = _grads_fn(loss)
    eager = [g.numpy() for g in grads(*xs)]
    traced = [g.numpy() for g in tf.function(grads, autograph=False)(*xs)]
    tf.config.optimizer.set_experimental_options({"disable_meta_optimizer": True})
    try:
        plain = [g.numpy() for g in tf.function(grads, autograph=False)(*xs)]
    finally:
        tf.config.optimizer.reset()
    scale = max([1.0] + [float(np.max(np.abs(g))) for g in eager if g.size])
    for e, t, p in zip(eager, traced, plain):
        np.testing.assert_allclose(t, e, rtol=1e-4, atol=1e-5 * scale)
        np.testing.assert_allclose(p, e, rtol=1e-4, atol=1e-5 * scale)
    return eager


@pytest.mark.filterwarnings("ignore")
@FAST
@given(programs(max_steps=6, smooth=True))
def test_eager_traced_and_optimized_gradients_agree(program):
    if not any(dt == "float32" for dt, _ in program.inputs):
        return
    check(program)


@pytest.mark.slow
@pytest.mark.filterwarnings("ignore")
@SLOW
@given(programs(max_steps=10, smooth=True))
def test_eager_traced_and_optimized_gradients_agree_many(program):
    if not any(dt == "float32" for dt, _ in program.inputs):
        return
    check(program)
