"""Hypothesis strategies for the AutoGraph loop programs of programs.py: nested loops of every
kind, with `break`, `continue` and `return` drawn at any position of a body, alone or under
tensor and Python `if`s, and the inputs to run them on."""

from __future__ import annotations

import numpy as np
from hypothesis import strategies as st

from .programs import LOOP_KINDS, PYTHON_TESTS, SETS, TENSOR_TESTS


class _Drawer:
    def __init__(self, draw, max_depth: int, max_body: int):
        self.draw = draw
        self.max_depth = max_depth
        self.max_body = max_body
        self.loops = 0

    def expr(self, loops) -> str:
        template = self.draw(st.sampled_from(SETS))
        if "{v}" in template:
            if not loops:
                return "x + 1"
            template = template.format(v=self.draw(st.sampled_from([v for v, _ in loops])))
        return template

    def test(self, loops) -> str:
        tensor_vars = [v for v, k in loops if LOOP_KINDS[k][2]]
        python_vars = [v for v, k in loops if not LOOP_KINDS[k][2]]
        choices = [t for t in TENSOR_TESTS if "{t}" not in t or tensor_vars]
        choices += PYTHON_TESTS if python_vars else []
        template = self.draw(st.sampled_from(choices))
        if "{t}" in template:
            return template.format(t=self.draw(st.sampled_from(tensor_vars)))
        if "{p}" in template:
            return template.format(p=self.draw(st.sampled_from(python_vars)))
        return template

    def jump(self, loops):
        kinds = ["return"] + (["break", "continue"] if loops else [])
        kind = self.draw(st.sampled_from(kinds))
        return ("return", self.expr(loops) + " + 100") if kind == "return" else (kind,)

    def block(self, loops, depth: int, size=None) -> tuple:
        n = size if size is not None else self.draw(st.integers(1, self.max_body))
        return tuple(self.statement(loops, depth) for _ in range(n))

    def statement(self, loops, depth: int):
        kinds = ["set", "set", "push", "if", "jump", "if_jump"]
        if depth < self.max_depth:
            kinds.append("loop")
        kind = self.draw(st.sampled_from(kinds))
        if kind == "set":
            return ("set", self.draw(st.sampled_from(["x", "y"])), self.expr(loops))
        if kind == "jump":
            return self.jump(loops)
        if kind == "push":
            return ("push",)
        if kind == "if_jump":  # a jump under a test, with or without other statements
            body = list(self.block(loops, depth, self.draw(st.integers(0, 1))))
            body.insert(self.draw(st.integers(0, len(body))), self.jump(loops))
            orelse = self.block(loops, depth, self.draw(st.integers(0, 1)))
            return ("if", self.test(loops), tuple(body), orelse)
        if kind == "if":
            return ("if", self.test(loops), self.block(loops, depth + 1),
                    self.block(loops, depth + 1, self.draw(st.integers(0, 1))))
        return self.loop(loops, depth)

    def loop(self, loops, depth: int):
        kind = self.draw(st.sampled_from(sorted(LOOP_KINDS)))
        var = f"i{self.loops}"
        self.loops += 1
        inner = loops + [(var, kind)]
        body = self.block(inner, depth + 1)
        orelse = (("set", "y", "y + 1000"),) if self.draw(st.booleans()) else ()
        return ("loop", kind, var, self.draw(st.integers(0, 3)), body, orelse)


@st.composite
def programs(draw, max_depth: int = 2, max_body: int = 3):
    """A program with at least one loop at its top level."""
    d = _Drawer(draw, max_depth, max_body)
    before = d.block([], 1, draw(st.integers(0, 1)))
    loop = d.loop([], 0)
    after = d.block([], 1, draw(st.integers(0, 1)))
    return before + (loop,) + after


@st.composite
def inputs(draw, count: int = 3):
    """`count` argument tuples (x, y, n, xs) with one length of `xs`."""
    length = draw(st.integers(0, 4))
    small = st.integers(-5, 5)
    return [(np.int32(draw(small)), np.int32(draw(small)), np.int32(draw(st.integers(0, 4))),
             np.array(draw(st.lists(st.integers(-3, 3), min_size=length, max_size=length)),
                      np.int32))
            for _ in range(count)]
