"""`a and b`, `a or b` -> `ag__.and_(lambda: a, lambda: b)` / `ag__.or_(...)` (operands stay
lazy, as in Python); `not a` -> `ag__.not_(a)`. Tensor operands become logical ops."""

from __future__ import annotations

import ast

from .base import call, copy_location_all
from .conditional_expressions import thunk


class LogicalExpressionConverter(ast.NodeTransformer):
    def __init__(self, ctx):
        self.ctx = ctx

    def visit_BoolOp(self, node):
        self.generic_visit(node)
        func = "and_" if isinstance(node.op, ast.And) else "or_"
        new = call(func, *[thunk(v) for v in node.values])
        copy_location_all(new, node)
        return new

    def visit_UnaryOp(self, node):
        self.generic_visit(node)
        if not isinstance(node.op, ast.Not):
            return node
        new = call("not_", node.operand)
        copy_location_all(new, node)
        return new
