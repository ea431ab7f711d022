"""Shared by the if/while/for converters: walking blocks with what is live after each
statement, and building the state functions the runtime operators use.

A control-flow statement's state is the set of variables it assigns (its `nonlocal`s). The
runtime gets `get_state()`/`set_state(values)` over them and the names live after the statement
(`analysis.liveness`): only those become the outputs of a staged `cond`, or must be defined
before a staged loop, so temporaries may differ between branches.
"""

from __future__ import annotations

import ast

from ..analysis import SCOPES, assigned, declarations, liveness
from .base import Context, call, constant, copy_location_all, function_def, name


class BlockConverter:
    """Walks every block of the function; subclasses convert one statement kind."""

    kind: tuple = ()

    def __init__(self, ctx: Context):
        self.ctx = ctx

    def run(self, fn: ast.FunctionDef) -> ast.FunctionDef:
        self.live_out = liveness(fn)
        fn.body = self.block(fn.body)
        return fn

    def block(self, stmts: list) -> list:
        out = []
        for s in stmts:
            out.extend(self.statement(s))
        return out

    def statement(self, s) -> list:
        if isinstance(s, SCOPES):
            return [s]
        live = self.live_out.get(id(s), set())
        for field in ("body", "orelse", "finalbody"):
            block = getattr(s, field, None)
            if isinstance(block, list) and block and isinstance(block[0], ast.stmt):
                setattr(s, field, self.block(block))
        for h in getattr(s, "handlers", []) or []:
            h.body = self.block(h.body)
        if isinstance(s, self.kind):
            return self.convert(s, live)
        return [s]

    def convert(self, node, live: set) -> list:  # pragma: no cover - subclasses define it
        raise NotImplementedError

    # --- helpers for subclasses -----------------------------------------------------------
    def state(self, stmts) -> list[str]:
        ctx = self.ctx
        return [n for n in assigned(stmts) if n not in ctx.helpers and n not in ctx.globals]

    def helper(self, base: str, params: list[str], body: list, state: list[str]) -> tuple:
        """A generated function running `body`: it declares the statement's state `nonlocal`,
        and repeats the function's own `global`/`nonlocal` declarations of names it assigns
        (`global g; if g is None: g = ...` assigns the module's `g`, not a local)."""
        fn_name = self.ctx.fresh(base, helper=True)
        declared = declarations(self.ctx.fn)     # the function's `global`/`nonlocal` names
        outer = [n for n in assigned(body) if n in declared]
        globals_ = [n for n in outer if declared[n] is ast.Global]
        nonlocals = list(state) + [n for n in outer if declared[n] is ast.Nonlocal]
        prologue = [ast.Global(names=globals_)] if globals_ else []
        prologue += [ast.Nonlocal(names=nonlocals)] if nonlocals else []
        return fn_name, function_def(fn_name, params, prologue + list(body))

    def state_functions(self, state: list[str]) -> tuple:
        get_name = self.ctx.fresh("get_state", helper=True)
        set_name = self.ctx.fresh("set_state", helper=True)
        values = ast.Tuple(elts=[name(n) for n in state], ctx=ast.Load())
        get_fn = function_def(get_name, [], [ast.Return(value=values)])
        if state:
            target = ast.Tuple(elts=[name(n, store=True) for n in state], ctx=ast.Store())
            set_body = [ast.Nonlocal(names=list(state)),
                        ast.Assign(targets=[target], value=name("vars_"))]
        else:
            set_body = [ast.Pass()]
        set_fn = function_def(set_name, ["vars_"], set_body)
        return get_name, get_fn, set_name, set_fn

    @staticmethod
    def names_tuple(names) -> ast.Tuple:
        return ast.Tuple(elts=[constant(n) for n in names], ctx=ast.Load())

    @staticmethod
    def finish(nodes: list, like) -> list:
        copy_location_all(nodes, like)
        return nodes


def expr_call(func: str, *args) -> ast.Expr:
    return ast.Expr(value=call(func, *args))
