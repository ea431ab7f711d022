"""What converters share: fresh names, small AST builders, and block rewriting helpers."""

from __future__ import annotations

import ast

from ..analysis import LOOPS, SCOPES

__all__ = ["Context", "name", "call", "assign", "not_", "copy_location_all", "guard_rest",
           "replace_statements"]


class Context:
    """Per-function conversion state: names already used, names of generated helpers."""

    def __init__(self, fn: ast.FunctionDef):
        self.fn = fn
        self.used = {n.id for n in ast.walk(fn) if isinstance(n, ast.Name)}
        self.used |= {a.arg for a in ast.walk(fn) if isinstance(a, ast.arg)}
        self.helpers: set[str] = set()
        self.globals: set[str] = set()

    def fresh(self, base: str, helper: bool = False) -> str:
        """A name not used in the function; `helper` marks generated functions (if_body...),
        which are never state of the control flow around them."""
        candidate, n = base, 1
        while candidate in self.used:
            candidate = f"{base}_{n}"
            n += 1
        self.used.add(candidate)
        if helper:
            self.helpers.add(candidate)
        return candidate


def function_def(name_: str, params: list[str], body: list) -> ast.FunctionDef:
    """`def name_(params): body` (built from a parsed template: portable across Pythons)."""
    fn = ast.parse(f"def {name_}({', '.join(params)}):\n    pass\n").body[0]
    fn.body = body or [ast.Pass()]
    return fn


def name(id_: str, store: bool = False) -> ast.Name:
    return ast.Name(id=id_, ctx=ast.Store() if store else ast.Load())


def ag(attr: str) -> ast.Attribute:
    return ast.Attribute(value=name("ag__"), attr=attr, ctx=ast.Load())


def call(func, *args, **kwargs) -> ast.Call:
    if isinstance(func, str):
        func = ag(func)
    return ast.Call(func=func, args=list(args),
                    keywords=[ast.keyword(arg=k, value=v) for k, v in kwargs.items()])


def assign(target: str, value) -> ast.Assign:
    return ast.Assign(targets=[name(target, store=True)], value=value)


def constant(value) -> ast.Constant:
    return ast.Constant(value=value)


def not_(expr) -> ast.UnaryOp:
    return ast.UnaryOp(op=ast.Not(), operand=expr)


def copy_location_all(nodes, like) -> None:
    """Gives generated nodes the user's line (errors and tracebacks point there); nodes that
    came from the user's code keep their own lines."""
    for node in nodes if isinstance(nodes, list) else [nodes]:
        for n in ast.walk(node):
            if isinstance(n, (ast.expr, ast.stmt, ast.excepthandler, ast.arg)) and \
                    getattr(n, "lineno", None) is None:
                n.lineno = getattr(like, "lineno", 1)
                n.col_offset = getattr(like, "col_offset", 0)
                n.end_lineno = n.lineno
                n.end_col_offset = n.col_offset


def _blocks(stmt):
    """The statement lists nested directly in a statement (if/with/try bodies, ...)."""
    for field in ("body", "orelse", "finalbody"):
        block = getattr(stmt, field, None)
        if isinstance(block, list) and block and isinstance(block[0], ast.stmt):
            yield field, block
    for handler in getattr(stmt, "handlers", []) or []:
        yield "handler", handler.body


def _rewrite_blocks(stmt, rewrite, into_loops: bool) -> None:
    """Applies `rewrite(block) -> block` to each statement list nested in `stmt` (never in
    nested functions; in nested loops only if `into_loops`)."""
    if isinstance(stmt, SCOPES) or (not into_loops and isinstance(stmt, LOOPS)):
        return
    for field, block in list(_blocks(stmt)):
        new = rewrite(block)
        if field == "handler":
            for h in stmt.handlers:
                if h.body is block:
                    h.body = new
        else:
            setattr(stmt, field, new)


def replace_statements(stmts: list, predicate, make, into_loops: bool) -> list:
    """Replaces each statement matching `predicate` by the statements `make(stmt)` returns,
    in nested blocks too (not in nested functions; in nested loops only if `into_loops`)."""
    out = []
    for s in stmts:
        if predicate(s):
            new = make(s)
            copy_location_all(new, s)
            out.extend(new)
            continue
        _rewrite_blocks(s, lambda b: replace_statements(b, predicate, make, into_loops),
                        into_loops)
        out.append(s)
    return out


def guard_rest(stmts: list, sets_flag, flag: str, into_loops: bool) -> list:
    """After a statement that may set `flag`, wraps the rest of the block in `if not flag:`.
    Applies to nested blocks too, so the guard reaches wherever the flag is set."""
    out = []
    for i, s in enumerate(stmts):
        _rewrite_blocks(s, lambda b: guard_rest(b, sets_flag, flag, into_loops), into_loops)
        out.append(s)
        rest = stmts[i + 1:]
        if rest and sets_flag(s):
            guard = ast.If(test=not_(name(flag)), body=guard_rest(rest, sets_flag, flag,
                                                                   into_loops), orelse=[])
            copy_location_all(guard.test, rest[0])
            ast.copy_location(guard, rest[0])
            out.append(guard)
            break
    return out


class LoopConverter(ast.NodeTransformer):
    """Visits loops innermost first, never entering nested functions; subclasses convert."""

    def __init__(self, ctx: Context):
        self.ctx = ctx

    def convert(self, node):  # pragma: no cover - subclasses define it
        raise NotImplementedError

    def _visit_loop(self, node):
        self.generic_visit(node)
        return self.convert(node)

    visit_While = _visit_loop
    visit_For = _visit_loop

    def visit_FunctionDef(self, node):
        return node if node is not self.ctx.fn else self.generic_visit(node)

    visit_AsyncFunctionDef = visit_FunctionDef
    visit_Lambda = visit_FunctionDef


def sets_name(flag: str, into_loops: bool):
    """A predicate: does the statement (possibly nested) assign `flag`?"""
    def check(stmt) -> bool:
        stop = SCOPES if into_loops else SCOPES + LOOPS
        todo = [stmt]
        while todo:
            n = todo.pop()
            if isinstance(n, ast.Assign) and any(isinstance(t, ast.Name) and t.id == flag
                                                 for t in n.targets):
                return True
            if n is not stmt and isinstance(n, stop):
                continue
            todo.extend(ast.iter_child_nodes(n))
        return False
    return check
