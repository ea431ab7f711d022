"""`break` -> a flag: `break_ = True`, the rest of the block guarded by `if not break_:`, and
the loop's test extended with `not break_` (for a `for` loop, an extra test the runtime checks
before each iteration). A loop's `else:` runs only if the flag is still false."""

from __future__ import annotations

import ast

from ..analysis import contains
from .base import (
    LoopConverter,
    assign,
    constant,
    copy_location_all,
    guard_rest,
    name,
    not_,
    replace_statements,
    sets_name,
)


class BreakConverter(LoopConverter):
    def convert(self, node):  # inner loops come first: their breaks are theirs
        if not contains(node.body, ast.Break, into_loops=False):
            return node
        flag = self.ctx.fresh("break_")
        body = replace_statements(node.body, lambda s: isinstance(s, ast.Break),
                                  lambda s: [assign(flag, constant(True))], into_loops=False)
        node.body = guard_rest(body, sets_name(flag, False), flag, into_loops=False)
        if isinstance(node, ast.While):
            node.test = ast.BoolOp(op=ast.And(), values=[node.test, not_(name(flag))])
            copy_location_all(node.test, node)
        else:
            node.ag_extra_tests = getattr(node, "ag_extra_tests", []) + [not_(name(flag))]
        init = assign(flag, constant(False))
        copy_location_all(init, node)
        out = [init, node]
        if node.orelse:
            orelse = ast.If(test=not_(name(flag)), body=node.orelse, orelse=[])
            copy_location_all(orelse.test, node)
            ast.copy_location(orelse, node)
            node.orelse = []
            out.append(orelse)
        return out
