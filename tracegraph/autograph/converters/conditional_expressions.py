"""`a if test else b` -> `ag__.if_exp(test, lambda: a, lambda: b)`."""

from __future__ import annotations

import ast

from .base import call, copy_location_all


def _thunk(expr) -> ast.Lambda:
    return ast.Lambda(args=ast.arguments(posonlyargs=[], args=[], vararg=None, kwonlyargs=[],
                                         kw_defaults=[], kwarg=None, defaults=[]), body=expr)


class ConditionalExpressionConverter(ast.NodeTransformer):
    def __init__(self, ctx):
        self.ctx = ctx

    def visit_IfExp(self, node):
        self.generic_visit(node)
        new = call("if_exp", node.test, _thunk(node.body), _thunk(node.orelse))
        copy_location_all(new, node)
        return new


thunk = _thunk
