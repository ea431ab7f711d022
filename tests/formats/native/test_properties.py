"""Save/load over random graphs: the optimizer property tests' programs (ops drawn from the
registry, shape ops, matmuls, fused patterns, convolutions, cond, while_loop, nested function
calls, prints, asserts, seeded random ops, Variable updates), saved and loaded, give the
original's results bit for bit, print the same text, and leave Variables alike, over two calls.
"""

from __future__ import annotations

import contextlib
import io

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings

import tracegraph as tf

from ...optimize.programs import Env, emit
from ...optimize.strategies import programs

FAST = settings(max_examples=15, deadline=None, derandomize=True,
                suppress_health_check=[HealthCheck.too_slow])
SLOW = settings(max_examples=400, deadline=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


class _Holder:
    pass


def _build(program):
    holder = _Holder()
    holder.captured = [tf.constant(c) for c in program.captures]
    holder.variables = [tf.Variable(v) for v in program.variables]

    def f(*xs):
        env = Env(xs, holder.captured, holder.variables)
        for step in program.steps:
            emit(step, env)
        return tuple(env.values[i] for i in program.outputs)
    holder.f = tf.function(f, autograph=False)
    specs = [tf.TensorSpec(shape, getattr(tf, dt)) for dt, shape in program.inputs]
    holder.f.get_concrete_function(*specs)
    return holder


def _observe(fn, feeds, variables):
    """(outputs or the error type, printed text, Variable values) of two calls."""
    seen = []
    for _ in range(2):
        out = io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
            try:
                result = [np.asarray(t.numpy()) for t in fn(*[tf.constant(x) for x in feeds])]
            except (tf.errors.OpError, ValueError, TypeError) as e:
                result = type(e).__name__
        seen.append((result, out.getvalue(), [np.asarray(v.numpy()) for v in variables]))
    return seen


def _same(a, b) -> bool:
    if isinstance(a, str) or isinstance(b, str):
        return a == b
    if isinstance(a, list):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    return a.dtype == b.dtype and a.shape == b.shape and a.tobytes() == b.tobytes()


def check_round_trip(program, directory) -> None:
    holder = _build(program)
    tf.saved_model.save(holder, str(directory))
    loaded = tf.saved_model.load(str(directory))
    want = _observe(holder.f, program.feeds, holder.variables)
    got = _observe(loaded.f, program.feeds, loaded.variables)
    for (w_out, w_text, w_vars), (g_out, g_text, g_vars) in zip(want, got):
        assert _same(w_out, g_out), (w_out, g_out)
        assert w_text == g_text
        assert _same(w_vars, g_vars)


@FAST
@given(programs())
def test_random_graphs_round_trip_bit_for_bit(tmp_path_factory, program):
    check_round_trip(program, tmp_path_factory.mktemp("prop"))


@pytest.mark.slow
@SLOW
@given(programs(max_steps=16))
def test_random_graphs_round_trip_bit_for_bit_slow(tmp_path_factory, program):
    check_round_trip(program, tmp_path_factory.mktemp("prop"))
