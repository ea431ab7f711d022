"""`if`/`elif`/`else` -> `ag__.if_stmt(test, if_body, else_body, get_state, set_state, names,
live)`: a tensor test stages a `cond` op, a Python test runs one branch as plain Python."""

from __future__ import annotations

import ast

from .base import name
from .statement_state import BlockConverter, expr_call


class IfConverter(BlockConverter):
    kind = (ast.If,)

    def convert(self, node: ast.If, live: set) -> list:
        state = self.state(node.body + node.orelse)
        body_name, body_fn = self.helper("if_body", [], node.body, state)
        else_name, else_fn = self.helper("else_body", [], node.orelse, state)
        get_name, get_fn, set_name, set_fn = self.state_functions(state)
        outputs = [n for n in state if n in live]
        stmt = expr_call("if_stmt", node.test, name(body_name), name(else_name), name(get_name),
                         name(set_name), self.names_tuple(state), self.names_tuple(outputs))
        return self.finish([get_fn, set_fn, body_fn, else_fn, stmt], node)
