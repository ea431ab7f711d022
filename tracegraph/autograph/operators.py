"""The runtime operators converted code calls (`ag__.if_stmt`, `ag__.while_stmt`, ...).

They decide at trace time (STYLE rule 6): a symbolic tensor condition stages a graph op
(`cond`, `while_loop`) with the branches or body traced once as sub-graphs; a Python value (or
an eager tensor) runs plain Python, so `for _ in range(3)` unrolls and `if flag:` stays Python.
Staging follows TensorFlow's rules with errors at the user's line (R-3.3).
"""

from __future__ import annotations

import builtins

import numpy as np

from .. import dtypes as d
from ..framework.tensor import EagerTensor, Tensor
from ..graph.tensor import SymbolicTensor
from ..nest import flatten, is_nested, pack_sequence_as
from ..ops.registry import convert_to_tensor
from ..trace import control_flow as cf
from ..trace.control_flow import StagingError, StagingTypeError, StagingValueError

__all__ = ["if_stmt", "while_stmt", "for_stmt", "if_exp", "and_", "or_", "not_", "Undefined",
           "UndefinedReturnValue", "retval", "reraise_staging_error", "converted_call",
           "StagingError"]


# ---- undefined values ------------------------------------------------------------------------

class Undefined:
    """The value of a variable not assigned yet; using it raises UnboundLocalError."""

    __slots__ = ("symbol_name",)

    def __init__(self, symbol_name: str):
        object.__setattr__(self, "symbol_name", symbol_name)

    def _fail(self, *_, **__):
        raise UnboundLocalError(f"local variable '{self.symbol_name}' referenced before "
                                "assignment")

    def __getattr__(self, name):
        self._fail()

    __bool__ = __call__ = __iter__ = __len__ = __getitem__ = _fail
    __add__ = __radd__ = __sub__ = __mul__ = __lt__ = __gt__ = __eq__ = _fail
    __hash__ = object.__hash__

    def __repr__(self):
        return f"Undefined({self.symbol_name!r})"


class UndefinedReturnValue:
    """`retval_` before any return ran."""

    def __repr__(self):
        return "UndefinedReturnValue()"


def retval(value):
    return None if isinstance(value, UndefinedReturnValue) else value


def reraise_staging_error(error: BaseException) -> None:
    """First statement of every converted `except` handler (R-3.6)."""
    if isinstance(error, StagingError):
        raise error


def _is_symbolic(x) -> bool:
    return isinstance(x, SymbolicTensor) or (isinstance(x, Tensor) and
                                             not isinstance(x, EagerTensor))


def _undefined(x) -> bool:
    return isinstance(x, Undefined)


# ---- if ---------------------------------------------------------------------------------------

def if_stmt(cond, body, orelse, get_state, set_state, names, live):
    if not _is_symbolic(cond):
        if cond:
            body()
        else:
            orelse()
        return
    _staged_if(cond, body, orelse, get_state, set_state, list(names), list(live))


def _staged_if(pred, body, orelse, get_state, set_state, names, live):
    if pred.dtype is not d.bool:
        raise StagingTypeError(f"An `if` condition must be a bool tensor, got {pred!r}"
                               f"{cf._where()}")
    initial = get_state()
    index = [names.index(n) for n in live]

    def branch(fn, fill=None):
        def run():
            set_state(initial)
            fn()
            values = list(get_state())
            if fill:
                for i, filler in fill.items():
                    values[i] = filler()
            return tuple(values[i] for i in index)
        return run

    then_g, then_s = cf.trace_subgraph(branch(body), "cond_true", [])
    else_g, else_s = cf.trace_subgraph(branch(orelse), "cond_false", [])
    fills = _return_value_fills(then_s, else_s)
    if fills:  # a return in one branch only: the other gets a placeholder value of its type
        then_fill, else_fill = fills
        if then_fill:
            then_g, then_s = cf.trace_subgraph(branch(body, _remap(then_fill, index)),
                                               "cond_true", [])
        if else_fill:
            else_g, else_s = cf.trace_subgraph(branch(orelse, _remap(else_fill, index)),
                                               "cond_false", [])
    _check_defined(then_s, else_s, live)
    cf.check_branch_outputs(then_s, else_s, _leaf_names(live, then_s))
    results = cf.stage_if(pred, then_g, else_g, then_s)
    final = list(initial)
    for i, value in zip(index, results):
        final[i] = value
    set_state(tuple(final))


def _remap(fill, index):
    return {index[k]: v for k, v in fill.items()}


def _return_value_fills(then_s, else_s):
    """For return values set in one branch only: makers of zeros of the other's type."""
    then_fill, else_fill = {}, {}
    for k, (a, b) in enumerate(zip(then_s, else_s)):
        if isinstance(a, UndefinedReturnValue) and not isinstance(b, UndefinedReturnValue):
            then_fill[k] = _zeros_like_structure(b)
        elif isinstance(b, UndefinedReturnValue) and not isinstance(a, UndefinedReturnValue):
            else_fill[k] = _zeros_like_structure(a)
    return (then_fill, else_fill) if (then_fill or else_fill) else None


def _zeros_like_structure(value):
    """A function building zeros with `value`'s structure, dtypes and static shapes."""
    leaves = flatten(value)
    specs = [(t.dtype, t._shape) if isinstance(t, Tensor) else t for t in leaves]

    def make():
        from ..library.array import zeros
        out = []
        for spec in specs:
            if isinstance(spec, tuple) and isinstance(spec[0], d.DType):
                dtype, shape = spec
                shape = [0 if s is None else s for s in (shape or ())]
                out.append(zeros(shape, dtype))
            else:
                out.append(spec)
        return pack_sequence_as(value, out) if is_nested(value) else out[0]
    return make


def _check_defined(then_s, else_s, live) -> None:
    for name, a, b in zip(live, then_s, else_s):
        for value, other, where in ((a, b, "if"), (b, a, "else")):
            missing = "else" if where == "if" else "if"
            if _undefined(other) and not _undefined(value):
                raise StagingValueError(
                    f"'{name}' must also be initialized in the {missing} branch, since it is "
                    f"used after a tensor-dependent conditional.{cf._where()}")
        if _undefined(a) and _undefined(b):
            raise StagingValueError(f"'{name}' is used after a tensor-dependent conditional but "
                                    f"is not defined in it.{cf._where()}")


def _leaf_names(live, structure) -> list[str]:
    out = []
    for name, value in zip(live, structure):
        n = len(flatten(value)) if is_nested(value) else 1
        out.extend([name] * n)
    return out


# ---- while ------------------------------------------------------------------------------------

def while_stmt(test, body, get_state, set_state, names, live, opts=None):
    first = test()
    if not _is_symbolic(first):
        _python_while(first, test, body)
        return
    _staged_loop(test, body, get_state, set_state, list(names), list(live), None)


def _python_while(first, test, body) -> None:
    cond = first
    while _python_bool(cond):
        body()
        cond = test()
        if _is_symbolic(cond):
            raise StagingValueError(
                f"A Python `while` loop's condition became a tensor after its first iteration;"
                f" make the condition a tensor from the start to stage the loop.{cf._where()}")


def _python_bool(value) -> bool:
    if isinstance(value, EagerTensor):
        return bool(value.numpy())
    return bool(value)


def _staged_loop(test, body, get_state, set_state, names, live, iterate):
    """Stages a while_loop over the defined state variables. `iterate` (for loops over
    tensors) is (tensor, length) and adds a hidden counter."""
    initial = list(get_state())
    carried, dropped = [], []
    for i, (n, v) in enumerate(zip(names, initial)):
        if _undefined(v):
            if n in live:
                raise StagingValueError(
                    f"'{n}' must be defined before the loop: it is first assigned inside a "
                    f"tensor-dependent loop and used after it.{cf._where()}")
            dropped.append(i)
        else:
            carried.append(i)
    _fill_return_values(initial, carried, test, body, get_state, set_state, iterate)
    loop_vars = [_as_loop_var(names[i], initial[i]) for i in carried]
    if iterate is not None:
        loop_vars = [convert_to_tensor(0, dtype=d.int32)] + loop_vars

    def set_loop_vars(values):
        state = list(initial)
        for i, v in zip(carried, values):
            state[i] = v
        set_state(tuple(state))

    def current():
        state = get_state()
        return [state[i] for i in carried]

    def cond_fn(*values):
        values = list(values)
        if iterate is not None:
            from ..library.math import less, logical_and
            counter, values = values[0], values[1:]
            set_loop_vars(values)
            in_range = less(counter, iterate[1])
            if test is None:
                return in_range
            extra = test()
            return logical_and(in_range, convert_to_tensor(extra)) if extra is not None \
                else in_range
        set_loop_vars(values)
        return test()

    def body_fn(*values):
        values = list(values)
        if iterate is not None:
            from ..library.math import add
            counter, values = values[0], values[1:]
            set_loop_vars(values)
            body(iterate[0][counter])
            return [add(counter, 1)] + current()
        set_loop_vars(values)
        body()
        return current()

    var_names = [names[i] for i in carried]
    results = cf.stage_while(cond_fn, body_fn, loop_vars, var_names=var_names)
    if iterate is not None:
        results = results[1:]
    final = list(initial)
    for i, v in zip(carried, results):
        final[i] = v
    set_state(tuple(final))


def _as_loop_var(name, value):
    if isinstance(value, UndefinedReturnValue):
        return value
    if is_nested(value):
        return pack_sequence_as(value, [_as_loop_var(name, v) for v in flatten(value)])
    if isinstance(value, (Tensor, bool, int, float, np.ndarray, np.generic)) or \
            hasattr(value, "read_value"):
        return value
    raise StagingTypeError(f"'{name}' is a {type(value).__name__} and cannot be a loop variable "
                           f"of a tensor-dependent loop; only tensors and Python numbers can."
                           f"{cf._where()}")


def _fill_return_values(initial, carried, test, body, get_state, set_state, iterate) -> None:
    """A `return` inside a tensor loop: the return value is a loop variable. Its type is found
    by tracing the body once into a scratch graph; it starts as zeros of that type."""
    pending = [i for i in carried if isinstance(initial[i], UndefinedReturnValue)]
    if not pending:
        return
    from ..graph.building import GraphContext
    from ..graph.graph import FuncGraph
    from ..ops.registry import context_scope, current_context
    scratch = FuncGraph("return_probe", outer_graph=current_context().graph)
    with context_scope(GraphContext(scratch)):
        set_state(tuple(initial))
        if iterate is not None:
            body(iterate[0][0])
        else:
            body()
        probed = list(get_state())
    set_state(tuple(initial))
    for i in pending:
        if isinstance(probed[i], UndefinedReturnValue):
            continue
        initial[i] = _zeros_like_structure(probed[i])()


# ---- for --------------------------------------------------------------------------------------

def for_stmt(iterable, extra_test, body, get_state, set_state, names, live, opts=None):
    if _is_symbolic(iterable):
        shape = iterable.shape
        if shape.rank == 0:
            raise StagingTypeError(f"Cannot iterate over a scalar tensor.{cf._where()}")
        length = shape[0] if shape.rank is not None and shape[0] is not None else None
        if length is None:
            from ..library.array import shape as shape_op
            length = shape_op(iterable)[0]
        _staged_loop(extra_test, body, get_state, set_state, list(names), list(live),
                     (iterable, length))
        return
    if isinstance(iterable, EagerTensor):
        iterable = list(iterable)
    for item in iterable:
        if extra_test is not None:
            test = extra_test()
            if _is_symbolic(test):
                raise StagingValueError(
                    f"A `break` or `return` inside a Python `for` loop depends on a tensor; "
                    f"iterate over a tensor (tf.range) to stage the loop.{cf._where()}")
            if not _python_bool(test):
                break
        body(item)


# ---- expressions -------------------------------------------------------------------------------

def if_exp(cond, if_true, if_false, expr_repr=None):
    if _is_symbolic(cond):
        return cf.cond(cond, if_true, if_false)
    return if_true() if _python_bool(cond) else if_false()


def and_(*thunks):
    value = thunks[0]()
    for thunk in thunks[1:]:
        if _is_symbolic(value):
            value = _lazy_logic(value, thunk, is_and=True)
        elif not _python_bool(value):
            return value
        else:
            value = thunk()
    return value


def or_(*thunks):
    value = thunks[0]()
    for thunk in thunks[1:]:
        if _is_symbolic(value):
            value = _lazy_logic(value, thunk, is_and=False)
        elif _python_bool(value):
            return value
        else:
            value = thunk()
    return value


def _lazy_logic(value, thunk, is_and: bool):
    """`a and b` with a tensor `a`: b is evaluated only when needed (a staged cond)."""
    value = convert_to_tensor(value)
    if is_and:
        return cf.cond(value, lambda: convert_to_tensor(thunk(), dtype=d.bool), lambda: value)
    return cf.cond(value, lambda: value, lambda: convert_to_tensor(thunk(), dtype=d.bool))


def not_(value):
    if isinstance(value, Tensor):
        from ..library.math import logical_not
        return logical_not(value)
    return not value


# ---- calls -------------------------------------------------------------------------------------

def _len(x):
    if _is_symbolic(x):
        if x.shape.rank == 0:
            raise StagingTypeError(f"len requires a non-scalar tensor, got {x!r}.{cf._where()}")
        if x.shape.rank is not None and x.shape[0] is not None:
            return x.shape[0]
        from ..library.array import shape
        return shape(x)[0]
    return builtins.len(x)


def _range(*args):
    if any(_is_symbolic(a) for a in args):
        from ..library.math import range_
        return range_(*args)
    return builtins.range(*args)


_BUILTIN_OVERRIDES = {builtins.len: _len, builtins.range: _range}


def converted_call(f, args, kwargs):
    """Calls `f`, converting it first when it is user code (SPEC R-3.1)."""
    kwargs = kwargs or {}
    override = _BUILTIN_OVERRIDES.get(f) if _hashable(f) else None
    if override is not None:
        return override(*args, **kwargs)
    from .api import maybe_convert
    return maybe_convert(f)(*args, **kwargs)


def _hashable(f) -> bool:
    try:
        hash(f)
        return True
    except TypeError:
        return False

