"""`if`, `while` and `for` converted in one walk, innermost statement first, with the liveness
of the function as written (after the jump converters).

One walk, not one pass per kind: a pass for `if` turns each branch into a helper function,
which a later pass for loops would not enter, so a loop inside an `if` (or inside the guard a
`return` before it introduced) stayed a Python loop over a symbolic tensor.
"""

from __future__ import annotations

import ast

from .base import Context
from .for_statements import ForConverter
from .if_statements import IfConverter
from .statement_state import BlockConverter
from .while_statements import WhileConverter


class ControlStatementsConverter(BlockConverter):
    kind = (ast.If, ast.While, ast.For)

    def __init__(self, ctx: Context):
        super().__init__(ctx)
        self.by_kind = {ast.If: IfConverter(ctx), ast.While: WhileConverter(ctx),
                        ast.For: ForConverter(ctx)}

    def convert(self, node, live: set) -> list:
        return self.by_kind[type(node)].convert(node, live)
