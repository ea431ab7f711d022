"""Source-to-source conversion of one Python function (SPEC R-3.1).

The function's source is parsed with `ast`, its decorators dropped, the converters of
`converters.PIPELINE` applied in order, and the result compiled under the user's own file name
with the user's line numbers, so tracebacks and error locations point at the user's code. The
converted function keeps the original's globals, defaults and closure cells (live, not copies);
the runtime operators reach it through one extra closure cell, `ag__`.
"""

from __future__ import annotations

import ast
import inspect
import textwrap
import types

from . import operators
from .analysis import declared_global
from .converters import PIPELINE
from .converters.base import Context, assign, call, constant, copy_location_all

__all__ = ["convert_function", "ConversionError", "converted_source"]


class ConversionError(Exception):
    """The function cannot be converted (no source, a lambda sharing its line, ...)."""


def _function_node(fn) -> ast.FunctionDef:
    try:
        source = textwrap.dedent(inspect.getsource(fn))
        lines, first = inspect.getsourcelines(fn)
    except (OSError, TypeError) as e:
        raise ConversionError(f"no source for {fn!r}: {e}") from None
    try:
        tree = ast.parse(source)
    except SyntaxError:
        raise ConversionError(f"cannot parse the source of {fn!r}") from None
    ast.increment_lineno(tree, first - 1)
    candidates = [n for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef,
                                                               ast.AsyncFunctionDef))
                  and n.name == fn.__code__.co_name]
    if len(candidates) != 1:
        raise ConversionError(f"{fn.__name__} is a lambda or is not a plain def")
    node = candidates[0]
    if isinstance(node, ast.AsyncFunctionDef):
        raise ConversionError("async functions are not converted")
    node.decorator_list = []
    return node


def _initialize_nonlocals(fn: ast.FunctionDef, ctx: Context) -> None:
    """Gives every variable a generated helper declares `nonlocal` a binding (an `Undefined`
    marker) unless a top-level assignment before its first such use already does, as Python
    requires a binding and the runtime reads the state before running a branch."""
    bound = {a.arg for a in ast.walk(fn.args) if isinstance(a, ast.arg)}
    bound |= ctx.globals    # the function's own `global`/`nonlocal` names are bound outside
    needed: list[str] = []
    for stmt in fn.body:
        for n in ast.walk(stmt):
            if isinstance(n, ast.Nonlocal):
                needed.extend(x for x in n.names if x not in bound and x not in needed)
        if isinstance(stmt, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
            targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
            bound.update(t.id for t in targets if isinstance(t, ast.Name))
    inits = [assign(x, call("Undefined", constant(x))) for x in needed]
    copy_location_all(inits, fn.body[0])
    fn.body = inits + fn.body


def _explicit_super(fn, node: ast.FunctionDef) -> None:
    """`super()` with no arguments becomes `super(__class__, <first argument>)`: the converted
    body runs parts of the method in generated helpers (a branch, a loop body) whose frames
    have neither, so the zero-argument form would fail there (TensorFlow's AutoGraph resolves
    it in the method's frame the same way). Nested functions and classes keep their own."""
    first = (node.args.posonlyargs + node.args.args)[:1]
    if "__class__" not in fn.__code__.co_freevars or not first:
        return

    def visit(n):
        for child in ast.iter_child_nodes(n):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda,
                                  ast.ClassDef)):
                continue
            if isinstance(child, ast.Call) and isinstance(child.func, ast.Name) and \
                    child.func.id == "super" and not child.args and not child.keywords:
                child.args = [ast.copy_location(ast.Name(id="__class__", ctx=ast.Load()),
                                                child),
                              ast.copy_location(ast.Name(id=first[0].arg, ctx=ast.Load()),
                                                child)]
            visit(child)
    for stmt in node.body:
        visit(stmt)


def convert_ast(fn) -> tuple[ast.FunctionDef, Context]:
    node = _function_node(fn)
    _explicit_super(fn, node)
    ctx = Context(node)
    ctx.globals = declared_global(node)
    for _, converter in PIPELINE:
        node = converter(node, ctx)
    _initialize_nonlocals(node, ctx)
    node.name = f"tf__{fn.__code__.co_name}"
    ast.fix_missing_locations(node)
    return node, ctx


def converted_source(fn) -> str:
    node, _ = convert_ast(fn)
    return ast.unparse(node)


def convert_function(fn):
    """The converted function, with fn's globals, defaults and live closure cells."""
    node, _ = convert_ast(fn)
    # (a function defined inside converted code already has `ag__` among its free variables)
    freevars = [v for v in fn.__code__.co_freevars if v != "ag__"]
    factory = ast.FunctionDef(
        name="__ag_factory",
        args=ast.arguments(posonlyargs=[], args=[ast.arg(arg=a) for a in ["ag__"] + freevars],
                           vararg=None, kwonlyargs=[], kw_defaults=[], kwarg=None, defaults=[]),
        body=[node, ast.Return(value=ast.Name(id=node.name, ctx=ast.Load()))],
        decorator_list=[], returns=None, type_comment=None)
    if hasattr(ast, "TypeVar"):  # Python 3.12+
        factory.type_params = []
    copy_location_all(factory.args, node)
    ast.copy_location(factory, node)
    module = ast.Module(body=[factory], type_ignores=[])
    ast.fix_missing_locations(module)
    code = compile(module, fn.__code__.co_filename, "exec")
    factory_code = next(c for c in code.co_consts if isinstance(c, types.CodeType))
    inner_code = next(c for c in factory_code.co_consts if isinstance(c, types.CodeType)
                      and c.co_name == node.name)
    cells = dict(zip(fn.__code__.co_freevars, fn.__closure__ or ()))
    cells["ag__"] = types.CellType(operators)
    closure = tuple(cells[name] for name in inner_code.co_freevars)
    converted = types.FunctionType(inner_code, fn.__globals__, fn.__name__,
                                   fn.__defaults__, closure)
    converted.__kwdefaults__ = fn.__kwdefaults__
    converted.__dict__.update(fn.__dict__)
    converted.__ag_converted__ = True
    converted.__wrapped_original__ = fn
    return converted
