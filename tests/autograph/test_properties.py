"""Property tests for AutoGraph loops (issue 14, items 1-2): random programs with `for` and
`while` loops over tensors, `tf.range` and Python ranges, nested, with `break`, `continue`
and `return` at every position of a body (programs.py, strategies.py), give under
`tf.function` (both executors, the optimizer on) exactly what the same Python gives eagerly.
The one allowed difference is TensorFlow's own: a jump in a Python loop that depends on a
tensor raises NotImplementedError while tracing, never a wrong value.

Besides the random programs, every loop kind x jump x position (first, middle, last
statement, under a nested `if`) is run once. The `slow` test draws many more, deeper programs.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings

import tracegraph as tf

from .programs import LOOP_KINDS, loaded, may_raise_not_implemented, source
from .strategies import inputs, programs

FAST = settings(max_examples=60, deadline=None, derandomize=True,
                suppress_health_check=[HealthCheck.too_slow])
SLOW = settings(max_examples=600, deadline=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])

DEFAULT_INPUTS = [(np.int32(x), np.int32(y), np.int32(n), np.array(xs, np.int32))
                  for x, y, n, xs in ((0, 0, 4, [0, 1, 2, 3]), (5, -2, 3, [3, -1, 2, 0]),
                                      (-3, 4, 0, [1, 1, 1, 1]), (2, 2, 1, [-2, 3, 0, 2]))]


def _as_tensors(args):
    return tuple(tf.constant(a) for a in args)


def _values(result) -> list:
    return [(np.asarray(v).dtype, np.asarray(v).tolist()) for v in tf.nest.flatten(result)]


def check(program, arg_sets) -> None:
    with loaded(program) as f:
        eager = [_values(f(*_as_tensors(args))) for args in arg_sets]
        staged = tf.function(f)
        try:
            graph = [_values(staged(*_as_tensors(args))) for args in arg_sets]
        except NotImplementedError:
            if may_raise_not_implemented(program):
                return
            raise AssertionError(f"NotImplementedError for a program TensorFlow stages:\n"
                                 f"{source(program)}") from None
    for args, e, g in zip(arg_sets, eager, graph):
        assert e == g, f"eager {e} != graph {g} on {args} for\n{source(program)}"


# ---- every loop kind x jump x position ---------------------------------------------------------

def _jump(kind):
    return ("return", "x + 100") if kind == "return" else (kind,)


def _positions(jump, test):
    """Loop bodies with the jump (under a tensor `if`) first, in the middle, last, and nested
    two `if`s deep in the last statement."""
    guarded = ("if", test, (jump,), ())
    step, other = ("set", "x", "x + 1"), ("push",)
    yield "first", (guarded, step, other)
    yield "middle", (step, guarded, other)
    yield "last", (step, other, guarded)
    yield "nested", (step, ("if", "y < x", (other, ("if", test, (jump,), (step,))),
                            (("set", "y", "y + x % 3"),)))


CASES = [(kind, jump, position, body)
         for kind in sorted(LOOP_KINDS)
         for jump in ("break", "continue", "return")
         for position, body in _positions(_jump(jump), "x > 2")]


@pytest.mark.parametrize("kind,jump,position,body", CASES,
                         ids=[f"{k}-{j}-{p}" for k, j, p, _ in CASES])
def test_jump_at_every_position(kind, jump, position, body):
    program = (("loop", kind, "i0", 4, body, ()),)
    check(program, DEFAULT_INPUTS)
    python_loop_break = kind.startswith("py") and jump != "continue"
    assert may_raise_not_implemented(program) == python_loop_break


@pytest.mark.parametrize("kind", sorted(LOOP_KINDS))
def test_jump_in_an_inner_loop_of_every_kind(kind):
    inner = ("loop", kind, "i1", 3, (("set", "x", "x + i1"), ("if", "x > 3", (("break",),),
                                                               ())), (("set", "y", "y + 1"),))
    outer = ("loop", "range", "i0", 0, (("set", "y", "y + i0"), inner), ())
    check((outer,), DEFAULT_INPUTS)


# ---- random programs ---------------------------------------------------------------------------

@FAST
@given(programs(), inputs())
def test_loops_with_jumps_match_eager(program, arg_sets):
    check(program, arg_sets)


@pytest.mark.slow
@SLOW
@given(programs(max_depth=3, max_body=4), inputs(count=4))
def test_loops_with_jumps_match_eager_slow(program, arg_sets):
    check(program, arg_sets)
