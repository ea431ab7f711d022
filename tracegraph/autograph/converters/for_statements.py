"""`for target in iterable: body` -> `ag__.for_stmt(iterable, extra_test, loop_body,
get_state, set_state, names, live)`: iterating over a tensor (its first dimension, or
`tf.range(...)`) stages a `while_loop`; a Python iterable unrolls. Flags set by `break` and
`return` arrive as extra tests, checked before each iteration."""

from __future__ import annotations

import ast

from .base import constant, name
from .statement_state import BlockConverter, expr_call


class ForConverter(BlockConverter):
    kind = (ast.For,)

    def convert(self, node: ast.For, live: set) -> list:
        state = self.state([ast.Assign(targets=[node.target], value=constant(None))] +
                           node.body)
        item = self.ctx.fresh("itr")
        bind = ast.Assign(targets=[node.target], value=name(item))
        body_name, body_fn = self.helper("loop_body", [item], [bind] + node.body, state)
        get_name, get_fn, set_name, set_fn = self.state_functions(state)
        tests = getattr(node, "ag_extra_tests", [])
        prelude = [get_fn, set_fn, body_fn]
        if tests:
            test = tests[0] if len(tests) == 1 else ast.BoolOp(op=ast.And(), values=tests)
            test_name, test_fn = self.helper("extra_test", [], [ast.Return(value=test)], [])
            prelude.append(test_fn)
            extra = name(test_name)
        else:
            extra = constant(None)
        outputs = [n for n in state if n in live]
        stmt = expr_call("for_stmt", node.iter, extra, name(body_name), name(get_name),
                         name(set_name), self.names_tuple(state), self.names_tuple(outputs))
        return self.finish(prelude + [stmt], node) + node.orelse
