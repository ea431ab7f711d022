"""`return` -> `retval_ = value; do_return = True`, the rest guarded by `if not do_return:`,
loops that contain a return stop when it is set (a tensor loop may `return`: TensorFlow raises
NotImplementedError there, tracegraph stages it), and one `return ag__.retval(retval_)` at the
end. A function whose only return is its last statement is left as it is."""

from __future__ import annotations

import ast

from ..analysis import LOOPS, SCOPES
from .base import (
    Context,
    assign,
    call,
    constant,
    copy_location_all,
    guard_rest,
    name,
    not_,
    replace_statements,
    sets_name,
)


def _returns(stmts) -> list:
    found = []
    todo = list(stmts)
    while todo:
        n = todo.pop()
        if isinstance(n, ast.Return):
            found.append(n)
        if isinstance(n, SCOPES):
            continue
        todo.extend(ast.iter_child_nodes(n))
    return found


def _mark_loops(stmts, flag: str) -> None:
    """Every loop that (at any depth) holds a return also stops when `flag` is set."""
    for s in stmts:
        if isinstance(s, SCOPES):
            continue
        if isinstance(s, LOOPS) and _returns(s.body):
            if isinstance(s, ast.While):
                s.test = ast.BoolOp(op=ast.And(), values=[s.test, not_(name(flag))])
                copy_location_all(s.test, s)
            else:
                s.ag_extra_tests = getattr(s, "ag_extra_tests", []) + [not_(name(flag))]
        for field in ("body", "orelse", "finalbody"):
            block = getattr(s, field, None)
            if isinstance(block, list):
                _mark_loops(block, flag)
        for h in getattr(s, "handlers", []) or []:
            _mark_loops(h.body, flag)


def convert_returns(fn: ast.FunctionDef, ctx: Context) -> ast.FunctionDef:
    returns = _returns(fn.body)
    if not returns or (len(returns) == 1 and fn.body[-1] is returns[0]):
        return fn
    do_return = ctx.fresh("do_return")
    retval = ctx.fresh("retval_")
    _mark_loops(fn.body, do_return)

    def replace(ret):
        value = ret.value if ret.value is not None else constant(None)
        return [assign(retval, value), assign(do_return, constant(True))]

    body = replace_statements(fn.body, lambda s: isinstance(s, ast.Return), replace,
                              into_loops=True)
    body = guard_rest(body, sets_name(do_return, True), do_return, into_loops=True)
    head = [assign(do_return, constant(False)), assign(retval, call("UndefinedReturnValue"))]
    tail = [ast.Return(value=call("retval", name(retval)))]
    copy_location_all(head, fn.body[0])
    copy_location_all(tail, fn.body[-1])
    fn.body = head + body + tail
    return fn
