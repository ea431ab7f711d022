"""Small static analyses over a function's AST, used by the converters.

- `assigned(nodes)`: names a block binds (excluding nested function and class bodies, and
  comprehension variables, which have their own scopes);
- `loaded(nodes)`: names a block reads;
- `contains(nodes, kinds)`: whether a statement kind occurs, not looking into nested loops or
  functions when asked (a `break` belongs to its innermost loop).
"""

from __future__ import annotations

import ast

__all__ = ["assigned", "loaded", "contains", "SCOPES"]

SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)
_COMPREHENSIONS = (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)
LOOPS = (ast.For, ast.While, ast.AsyncFor)


def _walk(node, stop):
    """Like ast.walk, not descending into nodes of the `stop` kinds (they are still yielded)."""
    todo = [node]
    while todo:
        n = todo.pop()
        yield n
        if n is not node and isinstance(n, stop):
            continue
        todo.extend(ast.iter_child_nodes(n))


def _nodes(nodes):
    return nodes if isinstance(nodes, list) else [nodes]


def assigned(nodes) -> list[str]:
    """Names bound by the statements, in first-seen order. Names a nested function declares
    `nonlocal` count too: AutoGraph's generated helpers assign their caller's variables."""
    out: list[str] = []

    def add(name):
        if name not in out:
            out.append(name)

    for root in _nodes(nodes):
        for n in _walk(root, SCOPES + _COMPREHENSIONS):
            if isinstance(n, ast.Name) and isinstance(n.ctx, (ast.Store, ast.Del)):
                add(n.id)
            elif isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)) and n is not root:
                add(n.name)
                for inner in ast.walk(n):
                    if isinstance(inner, ast.Nonlocal):
                        for name in inner.names:
                            add(name)
            elif isinstance(n, ast.ClassDef) and n is not root:
                add(n.name)
            elif isinstance(n, ast.alias):
                add((n.asname or n.name).split(".")[0])
            elif isinstance(n, ast.NamedExpr):
                add(n.target.id)
    return out


def loaded(nodes) -> set[str]:
    """Names the statements read; in a nested function or lambda, only the names it reads
    from outside (not its parameters or its own locals: `lambda i, s: i < 3` after a loop
    over `i` does not read the loop's `i`)."""
    out: set[str] = set()
    for root in _nodes(nodes):
        if isinstance(root, (ast.Lambda, ast.FunctionDef, ast.AsyncFunctionDef)):
            out |= _free_names(root)
            continue
        for n in _walk(root, SCOPES):
            if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load):
                out.add(n.id)
            elif isinstance(n, (ast.Lambda, ast.FunctionDef, ast.AsyncFunctionDef)):
                out |= _free_names(n)
            elif n is not root and isinstance(n, ast.ClassDef):
                out |= loaded(n.body + n.bases + n.decorator_list)
    return out


def _free_names(fn) -> set[str]:
    args = fn.args
    params = {a.arg for a in args.posonlyargs + args.args + args.kwonlyargs}
    params |= {a.arg for a in (args.vararg, args.kwarg) if a is not None}
    outside = loaded(args.defaults + [d for d in args.kw_defaults if d is not None])
    if isinstance(fn, ast.Lambda):
        return outside | (loaded(fn.body) - params)
    outside |= loaded(fn.decorator_list)
    declared = {name for n in ast.walk(fn) if isinstance(n, (ast.Nonlocal, ast.Global))
                for name in n.names}          # these name the enclosing scope's variables
    own = (params | set(assigned(fn.body))) - declared
    return outside | (loaded(fn.body) - own)


def contains(nodes, kinds, into_loops: bool = True) -> bool:
    """Whether any statement of `kinds` occurs (never looking into nested functions)."""
    stop = SCOPES if into_loops else SCOPES + LOOPS
    for root in _nodes(nodes):
        for n in _walk(root, stop):
            if n is not root and isinstance(n, SCOPES):
                continue
            if isinstance(n, kinds):
                return True
    return False


def declared_global(fn: ast.FunctionDef) -> set[str]:
    return set(declarations(fn))


def declarations(fn: ast.FunctionDef) -> dict[str, type]:
    """The names `fn` declares `global` or `nonlocal` -> that statement's class."""
    out: dict[str, type] = {}
    for n in _walk(fn, SCOPES):
        if isinstance(n, (ast.Global, ast.Nonlocal)) and n is not fn:
            out.update(dict.fromkeys(n.names, type(n)))
    return out


def _uses(node) -> set[str]:
    out = loaded(node)
    for n in ast.walk(node):
        if isinstance(n, ast.AugAssign) and isinstance(n.target, ast.Name):
            out.add(n.target.id)
    return out


def _head_uses(loop) -> set[str]:
    """What a loop reads before each iteration: a `while` test, and the extra tests the break
    and return converters attach to a `for` loop (`not break_`): those flags are live at the
    loop head, so an `if` setting them as the body's last statement must output them."""
    out = _uses(loop.test) if isinstance(loop, ast.While) else set()
    for test in getattr(loop, "ag_extra_tests", []):
        out |= _uses(test)
    return out


def _target_names(target) -> set[str]:
    return {n.id for n in ast.walk(target) if isinstance(n, ast.Name)}


def liveness(fn: ast.FunctionDef) -> dict[int, set[str]]:
    """For each statement (by id), the variables live right after it: read on some path
    before being reassigned. Loops iterate to a fixed point; nested functions count as reading
    everything they read (they may run later)."""
    live_out: dict[int, set[str]] = {}

    def block(stmts, out: set) -> set:
        live = set(out)
        for s in reversed(stmts):
            live_out[id(s)] = set(live)
            live = statement(s, live)
        return live

    def loop(s, out: set, target: set) -> set:
        head = set(out)
        while True:
            body_in = block(s.body, head) - target
            new = head | body_in | block(s.orelse, out) | _head_uses(s)
            if new == head:
                return head
            head = new

    def statement(s, out: set) -> set:
        if isinstance(s, ast.If):
            return _uses(s.test) | block(s.body, out) | block(s.orelse, out)
        if isinstance(s, ast.While):
            return loop(s, out, set())
        if isinstance(s, (ast.For, ast.AsyncFor)):
            return _uses(s.iter) | loop(s, out, _target_names(s.target))
        if isinstance(s, ast.Try):
            after = block(s.finalbody, out) if s.finalbody else out
            handlers = set().union(*(block(h.body, after) for h in s.handlers)) \
                if s.handlers else set()
            body_out = block(s.orelse, after) | handlers
            return block(s.body, body_out) | handlers
        if isinstance(s, (ast.With, ast.AsyncWith)):
            return set().union(*(_uses(i) for i in s.items)) | block(s.body, out)
        if isinstance(s, SCOPES):
            return (out - {getattr(s, "name", "")}) | loaded(s)
        if isinstance(s, ast.Return):
            return _uses(s) if s.value is not None else set()
        if isinstance(s, (ast.Break, ast.Continue)):
            return set(out)
        defs = set(assigned(s)) if isinstance(s, (ast.Assign, ast.AnnAssign,
                                                 ast.AugAssign)) else set()
        return (out - defs) | _uses(s)

    block(fn.body, set())
    return live_out
