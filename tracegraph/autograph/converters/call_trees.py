"""Calls -> `ag__.converted_call(f, args, kwargs)`, so the user functions a converted function
calls are converted too, at call time (not tracegraph's own code, the standard library, NumPy,
or functions marked `do_not_convert`). Calls into `ag__` and a few scope-sensitive builtins
(`super()`, `locals()`, ...) stay as they are."""

from __future__ import annotations

import ast

from .base import call, constant, copy_location_all

_KEEP = {"super", "globals", "locals", "vars", "eval", "exec", "dir"}


class CallTreeConverter(ast.NodeTransformer):
    def __init__(self, ctx):
        self.ctx = ctx

    def visit_Call(self, node):
        self.generic_visit(node)
        func = node.func
        if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and \
                func.value.id == "ag__":
            return node
        if isinstance(func, ast.Name) and (func.id in _KEEP or func.id in self.ctx.helpers):
            return node
        args = ast.Tuple(elts=list(node.args), ctx=ast.Load())
        if node.keywords:
            kwargs = ast.Dict(keys=[constant(k.arg) if k.arg else None for k in node.keywords],
                              values=[k.value for k in node.keywords])
        else:
            kwargs = constant(None)
        new = call("converted_call", func, args, kwargs)
        copy_location_all(new, node)
        return new
