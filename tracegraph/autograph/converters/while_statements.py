"""`while test: body` -> `ag__.while_stmt(loop_test, loop_body, get_state, set_state, names,
live)`: a tensor test stages a `while_loop` op, a Python test loops in Python."""

from __future__ import annotations

import ast

from .base import name
from .statement_state import BlockConverter, expr_call


class WhileConverter(BlockConverter):
    kind = (ast.While,)

    def convert(self, node: ast.While, live: set) -> list:
        state = self.state(node.body)
        test_name, test_fn = self.helper("loop_test", [], [ast.Return(value=node.test)], [])
        body_name, body_fn = self.helper("loop_body", [], node.body, state)
        get_name, get_fn, set_name, set_fn = self.state_functions(state)
        outputs = [n for n in state if n in live]
        stmt = expr_call("while_stmt", name(test_name), name(body_name), name(get_name),
                         name(set_name), self.names_tuple(state), self.names_tuple(outputs))
        return self.finish([get_fn, set_fn, test_fn, body_fn, stmt], node) + node.orelse
