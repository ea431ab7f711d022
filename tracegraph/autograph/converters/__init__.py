"""The AutoGraph converters, in the one order they run (STYLE rule 7).

Each converter rewrites syntax only; the `ag__` runtime operators decide at trace time whether a
construct runs as Python or is staged as graph ops (STYLE rule 6).
"""

from .break_statements import BreakConverter
from .call_trees import CallTreeConverter
from .conditional_expressions import ConditionalExpressionConverter
from .continue_statements import ContinueConverter
from .control_statements import ControlStatementsConverter
from .logical_expressions import LogicalExpressionConverter
from .return_statements import convert_returns
from .try_statements import TryConverter


def _visit(converter_cls):
    def run(fn, ctx):
        return converter_cls(ctx).visit(fn)
    run.__name__ = converter_cls.__name__
    return run


def _blocks(converter_cls):
    def run(fn, ctx):
        return converter_cls(ctx).run(fn)
    run.__name__ = converter_cls.__name__
    return run


PIPELINE = [
    # Handlers first re-raise staging errors: user try/except never swallows them.
    ("try_statements", _visit(TryConverter)),
    # Jumps become flags, innermost loop first; each guards the rest of its block.
    ("break_statements", _visit(BreakConverter)),
    ("continue_statements", _visit(ContinueConverter)),
    # Returns become do_return/retval_ flags; must follow break (loops get both tests).
    ("return_statements", convert_returns),
    # if/while/for into runtime operator calls (one walk, innermost first, so a loop inside
    # an `if` is converted too); the jump flags are plain state by now.
    ("control_statements", _blocks(ControlStatementsConverter)),
    # Expressions, including the `and`/`not` the flags above introduced into loop tests.
    ("conditional_expressions", _visit(ConditionalExpressionConverter)),
    ("logical_expressions", _visit(LogicalExpressionConverter)),
    # Last: wraps user calls, leaving the ag__ calls the converters above generated alone.
    ("call_trees", _visit(CallTreeConverter)),
]
