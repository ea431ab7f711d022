"""Gradients of random float64 programs (random_programs.py: nested tf.functions, tf.cond and
tf.while_loop reading a Variable, tf.where-masked branches that are NaN or infinite, terms
scaled by 0 whose derivative is infinite) against central finite differences, with respect to
the input and the Variable, eagerly and inside tf.function, first and second order (the
Hessian along a random direction against finite differences of the first-order gradient)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, Phase, assume, given, settings
from hypothesis import strategies as st

import tracegraph as tf

from .random_programs import build, inputs, programs

FAST = settings(max_examples=6, deadline=None, derandomize=True, database=None,
                phases=(Phase.explicit, Phase.generate),
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
SLOW = settings(max_examples=150, deadline=None, database=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
H = 1e-5            # central differences in float64: error ~ H^2 f''' + eps/H
RTOL, ATOL = 1e-5, 1e-6


def _first_order(loss, v):
    def grads(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = loss(x)
        gx, gv = tape.gradient(y, [x, v])
        return y, gx, gv
    return grads


def _second_order(loss, v):
    def hessian_along(x, ux, uv):
        with tf.GradientTape() as outer:
            outer.watch(x)
            with tf.GradientTape() as inner:
                inner.watch(x)
                y = loss(x)
            gx, gv = inner.gradient(y, [x, v], unconnected_gradients="zero")
            along = tf.reduce_sum(gx * ux) + tf.reduce_sum(gv * uv)
        hx, hv = outer.gradient(along, [x, v])
        return hx, hv
    return hessian_along


def _numbers(t):
    return np.zeros(3) if t is None else np.asarray(t, np.float64)


def _finite_differences(fn, x0, v, v0):
    """d fn / d (x, v) by central differences; fn(x) -> array, evaluated eagerly."""
    columns = []
    for which in ("x", "v"):
        for i in range(3):
            step = np.zeros(3)
            step[i] = H
            outs = []
            for sign in (1.0, -1.0):
                if which == "x":
                    outs.append(fn(x0 + sign * step))
                else:
                    v.assign(v0 + sign * step)
                    outs.append(fn(x0))
                    v.assign(v0)
            columns.append((outs[0] - outs[1]) / (2 * H))
    return columns


def check(program, x_start, v_start, ux, uv, traced):
    x0, v0 = np.array(x_start), np.array(v_start)
    v = tf.Variable(v0)
    margins = []
    loss = build(tf, program, v, margins)
    y0 = float(loss(tf.constant(x0)))
    assume(np.isfinite(y0))
    # a cond's predicate must not flip within the finite-difference step
    assume(all(abs(float(m)) > 1e-3 for m in margins if hasattr(m, "numpy")))

    first = _first_order(loss, v)
    run_first = tf.function(first) if traced else first
    y, gx, gv = run_first(tf.constant(x0))
    np.testing.assert_allclose(float(y), y0, rtol=1e-12)

    def value(x):
        return np.array([float(loss(tf.constant(x)))])
    fd = _finite_differences(value, x0, v, v0)
    want = np.concatenate([c for c in fd])
    got = np.concatenate([_numbers(gx), _numbers(gv)])
    np.testing.assert_allclose(got, want, rtol=RTOL, atol=ATOL, err_msg="first order")

    # second order: the same program with its masked and zero-scaled terms away from their
    # singular points (there TensorFlow's second derivatives are NaN, as tracegraph's)
    loss = build(tf, program, v, [], singular=False)
    first = _first_order(loss, v)
    second = _second_order(loss, v)
    run_second = tf.function(second) if traced else second
    hx, hv = run_second(tf.constant(x0), tf.constant(np.array(ux)), tf.constant(np.array(uv)))
    got2 = np.concatenate([_numbers(hx), _numbers(hv)])

    def gradient_along(x):          # eager first-order gradient, dotted with u afterwards
        _, gx, gv = first(tf.constant(x))
        return np.concatenate([_numbers(gx), _numbers(gv)])
    columns = _finite_differences(gradient_along, x0, v, v0)
    u = np.concatenate([ux, uv])
    want2 = sum(u[k] * columns[k] for k in range(6))   # H u, by symmetry of the Hessian
    np.testing.assert_allclose(got2, want2, rtol=1e-4, atol=1e-5, err_msg="second order")


_direction = st.lists(st.floats(-1.0, 1.0, allow_nan=False), min_size=3, max_size=3)


@pytest.mark.filterwarnings("ignore")
@pytest.mark.parametrize("traced", [False, True])
@FAST
@given(program=programs(max_steps=4), start=inputs(), ux=_direction, uv=_direction)
def test_gradients_equal_finite_differences(traced, program, start, ux, uv):
    check(program, start[0], start[1], ux, uv, traced)


@pytest.mark.slow
@pytest.mark.filterwarnings("ignore")
@pytest.mark.parametrize("traced", [False, True])
@SLOW
@given(program=programs(max_steps=6), start=inputs(), ux=_direction, uv=_direction)
def test_gradients_equal_finite_differences_many(traced, program, start, ux, uv):
    check(program, start[0], start[1], ux, uv, traced)
