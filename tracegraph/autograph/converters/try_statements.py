"""`except` handlers re-raise AutoGraph's staging errors first, so a user's `try/except` never
swallows a conversion error (SPEC R-3.6)."""

from __future__ import annotations

import ast

from .base import Context, call, copy_location_all, name


class TryConverter(ast.NodeTransformer):
    def __init__(self, ctx: Context):
        self.ctx = ctx

    def visit_ExceptHandler(self, node):
        self.generic_visit(node)
        if node.name is None:
            node.name = self.ctx.fresh("ag_error")
            if node.type is None:
                node.type = name("BaseException")
        check = ast.Expr(value=call("reraise_staging_error", name(node.name)))
        copy_location_all(check, node)
        node.body = [check] + node.body
        return node
