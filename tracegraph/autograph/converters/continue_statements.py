"""`continue` -> a flag reset at the top of each iteration: `continue_ = True`, and the rest of
the iteration guarded by `if not continue_:`."""

from __future__ import annotations

import ast

from ..analysis import contains
from .base import (
    LoopConverter,
    assign,
    constant,
    copy_location_all,
    guard_rest,
    replace_statements,
    sets_name,
)


class ContinueConverter(LoopConverter):
    def convert(self, node):
        if not contains(node.body, ast.Continue, into_loops=False):
            return node
        flag = self.ctx.fresh("continue_")
        body = replace_statements(node.body, lambda s: isinstance(s, ast.Continue),
                                  lambda s: [assign(flag, constant(True))], into_loops=False)
        reset = assign(flag, constant(False))
        copy_location_all(reset, node.body[0])
        node.body = [reset] + guard_rest(body, sets_name(flag, False), flag, into_loops=False)
        return node
