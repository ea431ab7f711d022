"""TensorFlow's dispatch decorators: user types (extension types) override `tf.*` functions.

- `dispatch_for_api(api, *signatures)`: the decorated function runs instead of `api` when the
  call's arguments match its type annotations (or the given signatures).
- `dispatch_for_unary_elementwise_apis(x_type)` / `dispatch_for_binary_elementwise_apis(x_type,
  y_type)`: one handler `(api_func, x[, y])` for every elementwise API of the table below.
- `unregister_dispatch_for(handler)`.

An API gets dispatch the first time a handler is registered for it: its public names (`tf.stack`,
`tf.math.add`, ...) are rebound to a dispatcher that tries the handlers (the latest first) and
otherwise calls the original. A handler runs only when at least one argument it matched is not a
plain tensor or Python value (a `tf.stack` of tensors stays TensorFlow's own).
"""

from __future__ import annotations

import collections.abc
import functools
import inspect
import sys
import types
import typing

import tracegraph

from ..framework.tensor import Tensor
from ..framework.variables import Variable

__all__ = ["dispatch_for_api", "dispatch_for_unary_elementwise_apis",
           "dispatch_for_binary_elementwise_apis", "unregister_dispatch_for",
           "UNARY_ELEMENTWISE_APIS", "BINARY_ELEMENTWISE_APIS"]

# The elementwise APIs, by public name (what exists in tracegraph's namespace is used).
UNARY_ELEMENTWISE_APIS = (
    "math.abs", "math.acos", "math.acosh", "math.asin", "math.asinh", "math.atan", "math.atanh",
    "math.ceil", "math.conj", "math.cos", "math.cosh", "math.erf", "math.erfc", "math.exp",
    "math.expm1", "math.floor", "math.imag", "math.is_finite", "math.is_inf", "math.is_nan",
    "math.log", "math.log1p", "math.logical_not", "math.negative", "math.real",
    "math.reciprocal", "math.rint", "math.round", "math.rsqrt", "math.sigmoid", "math.sign",
    "math.sin", "math.sinh", "math.softplus", "math.softsign", "math.sqrt", "math.square",
    "math.tan", "math.tanh", "math.invert", "cast", "saturate_cast", "ones_like", "zeros_like",
    "identity", "stop_gradient", "nn.relu", "nn.relu6", "nn.elu", "nn.selu", "nn.gelu",
    "nn.leaky_relu", "nn.silu", "strings.length", "strings.lower", "strings.upper",
)
BINARY_ELEMENTWISE_APIS = (
    "math.add", "math.subtract", "math.multiply", "math.divide", "math.truediv",
    "math.floordiv", "math.floormod", "math.truncatediv", "math.truncatemod", "math.maximum",
    "math.minimum", "math.pow", "math.squared_difference", "math.atan2", "math.divide_no_nan",
    "math.equal", "math.not_equal", "math.less", "math.less_equal", "math.greater",
    "math.greater_equal", "math.logical_and", "math.logical_or", "math.logical_xor",
    "bitwise.bitwise_and", "bitwise.bitwise_or", "bitwise.bitwise_xor",
)

_TARGETS: dict = {}      # original api -> [(handler, matches)], in registration order
_REGISTERED: dict = {}   # handler -> [original api, ...]


# ---- matching arguments against annotations ------------------------------------------------

def _plain(value) -> bool:
    return value is None or isinstance(value, (Tensor, Variable, bool, int, float, complex, str,
                                               bytes)) or type(value).__module__ == "numpy"


def _matches(value, annotation, seen: list) -> bool:
    """Whether `value` has the annotated type; values that are neither tensors nor Python
    values are recorded in `seen`."""
    if annotation is typing.Any:
        return True
    origin, args = typing.get_origin(annotation), typing.get_args(annotation)
    if origin is typing.Union or isinstance(annotation, types.UnionType):
        return any(_matches(value, a, seen) for a in args)
    if origin in (list, tuple, collections.abc.Sequence, collections.abc.Iterable):
        if not isinstance(value, (list, tuple)):
            return False
        item = args[0] if args else typing.Any
        return all(_matches(v, item, seen) for v in value)
    if annotation is None or annotation is type(None):
        return value is None
    if isinstance(annotation, type):
        if not isinstance(value, annotation):
            return False
        if not _plain(value):
            seen.append(value)
        return True
    return False


def _checker(handler, signatures):
    """`matches(args, kwargs)` for a handler with the API's parameters."""
    signature = inspect.signature(handler)
    if signatures:
        wanted = [dict(s) for s in signatures]
    else:
        hints = typing.get_type_hints(handler)
        wanted = [{n: hints[n] for n in signature.parameters if n in hints and n != "return"}]
    if not any(wanted):
        raise ValueError(f"{handler.__name__}: the dispatch target needs at least one "
                         "parameter with a type annotation (or an explicit signature).")

    def matches(args, kwargs) -> bool:
        try:
            bound = signature.bind(*args, **kwargs)
        except TypeError:
            return False
        for types_by_name in wanted:
            seen: list = []
            if all(name in bound.arguments and _matches(bound.arguments[name], t, seen)
                   for name, t in types_by_name.items()) and seen:
                return True
        return False
    return matches


# ---- installing dispatchers ------------------------------------------------------------

def _public_modules():
    yield tracegraph
    for name, module in list(sys.modules.items()):
        if name.startswith("tracegraph.api.") and isinstance(module, types.ModuleType):
            yield module


def _original(api):
    return getattr(api, "_tf_dispatch_original", api)


def _install(api):
    """Rebinds `api`'s public names to a dispatcher (once); returns the original."""
    original = _original(api)
    if original in _TARGETS:
        return original
    _TARGETS[original] = []

    @functools.wraps(original)
    def dispatcher(*args, **kwargs):
        for handler, matches in reversed(_TARGETS[original]):
            if matches(args, kwargs):
                return handler(*args, **kwargs)
        return original(*args, **kwargs)

    dispatcher._tf_dispatch_original = original
    for module in _public_modules():
        for name, value in list(vars(module).items()):
            if value is original:
                setattr(module, name, dispatcher)
    return original


def _register(api, handler, call, matches) -> None:
    original = _install(api)
    _TARGETS[original].append((call, matches))
    _REGISTERED.setdefault(handler, []).append((original, call))


def dispatch_for_api(api, *signatures):
    """Decorator: the function overrides `api` when a call matches its type annotations (or
    one of `signatures`, dicts from parameter name to type)."""
    if not callable(api):
        raise TypeError(f"dispatch_for_api expects a TensorFlow API, got {api!r}.")

    def decorator(handler):
        api_params = list(inspect.signature(_original(api)).parameters)
        own_params = list(inspect.signature(handler).parameters)
        if own_params != api_params[:len(own_params)]:
            raise ValueError(f"Dispatch function's signature {own_params} does not match API's "
                             f"signature {api_params}.")
        _register(api, handler, handler, _checker(handler, signatures))
        return handler
    return decorator


def _resolve(name: str):
    obj = tracegraph
    for part in name.split("."):
        obj = getattr(obj, part, None)
        if obj is None:
            return None
    return obj


def _elementwise(names, handler, types_by_position):
    n = len(types_by_position)
    seen_apis = set()
    for name in names:
        api = _resolve(name)
        if api is None or _original(api) in seen_apis:
            continue
        seen_apis.add(_original(api))
        original = _original(api)

        def matches(args, kwargs):
            if len(args) < n:
                return False
            seen: list = []
            return all(_matches(a, t, seen) for a, t in zip(args, types_by_position)) and seen

        def call(*args, _original=original, **kwargs):
            rest = args[n:]

            def api_func(*operands):
                return _original(*operands, *rest, **kwargs)
            return handler(api_func, *args[:n])

        _register(api, handler, call, matches)


def dispatch_for_unary_elementwise_apis(x_type):
    """Decorator: `handler(api_func, x)` runs every unary elementwise API whose `x` has
    `x_type` (`api_func(x)` is the API with the call's other arguments)."""
    def decorator(handler):
        _elementwise(UNARY_ELEMENTWISE_APIS, handler, (x_type,))
        return handler
    return decorator


def dispatch_for_binary_elementwise_apis(x_type, y_type):
    """Decorator: `handler(api_func, x, y)` runs every binary elementwise API whose `x` and `y`
    have `x_type` and `y_type`."""
    def decorator(handler):
        _elementwise(BINARY_ELEMENTWISE_APIS, handler, (x_type, y_type))
        return handler
    return decorator


def unregister_dispatch_for(dispatch_target) -> None:
    """Removes a dispatch target registered by any of the decorators above."""
    entries = _REGISTERED.pop(dispatch_target, None)
    if not entries:
        raise ValueError(f"Function {dispatch_target} was not registered using a "
                         "`@dispatch_for_*` decorator.")
    for original, call in entries:
        _TARGETS[original] = [(h, m) for h, m in _TARGETS[original] if h is not call]
