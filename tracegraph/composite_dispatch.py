"""Dispatch of TensorFlow's functions and ops on composite values (ragged and sparse tensors),
as TensorFlow's `dispatch` module does for `tf.RaggedTensor`.

Two registries, filled by the framework layer where the composite classes live:

- **function handlers**: a library function decorated `@dispatchable` runs the handler
  registered for it (`register_function`) when one of its arguments (or an element of a list
  argument) is an instance of a registered composite class; otherwise it runs as written. This
  is for functions whose meaning on a ragged value is not their op's (`tf.concat` joins rows,
  `tf.reduce_mean` averages each row over its own length).
- **op handlers**: when an op cannot convert one of its inputs and that input is a registered
  composite value, `bind` asks `dispatch_op` for a handler by the op record (`register_op`).
  This is for elementwise ops, which apply to a ragged value's flat values: every op flagged
  `elementwise` works on ragged values without a line per op, and costs nothing on the normal
  path (the check runs only after conversion failed).
"""

from __future__ import annotations

import functools

__all__ = ["dispatchable", "register_function", "register_types", "register_op",
           "dispatch_op", "has_composite"]

_TYPES: tuple = ()                 # composite classes that have handlers
_OP_HANDLERS: list = []            # [(predicate(op) -> bool, handler(op, inputs, attrs, name))]


def register_types(*classes) -> None:
    """Marks `classes` as composite values that dispatch (each once)."""
    global _TYPES
    _TYPES = tuple(dict.fromkeys(_TYPES + classes))


def has_composite(args, kwargs=None) -> bool:
    """Whether a registered composite value is among `args`/`kwargs` or one level inside a
    list or tuple argument."""
    types = _TYPES
    if not types:
        return False
    values = list(args) + (list(kwargs.values()) if kwargs else [])
    for v in values:
        if isinstance(v, types):
            return True
        if type(v) in (list, tuple) and any(isinstance(x, types) for x in v):
            return True
    return False


def dispatchable(fn):
    """Decorator: `fn` runs its registered composite handler when given a composite value."""
    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        handler = wrapper.composite_handler
        if handler is not None and has_composite(args, kwargs):
            return handler(*args, **kwargs)
        return fn(*args, **kwargs)
    wrapper.composite_handler = None
    wrapper.dense_function = fn
    return wrapper


def register_function(fn, handler) -> None:
    """Registers `handler(*args, **kwargs)` for the `@dispatchable` function `fn`."""
    if not hasattr(fn, "composite_handler"):
        raise TypeError(f"{getattr(fn, '__name__', fn)!r} is not @dispatchable")
    fn.composite_handler = handler


def register_op(predicate, handler) -> None:
    """Registers `handler(op, inputs, attrs, name)` for the op records `predicate(op)` accepts."""
    _OP_HANDLERS.append((predicate, handler))


def dispatch_op(op, inputs, attrs, name):
    """The result of the first op handler that accepts `op` when a composite value is among
    `inputs`; NotImplemented when none does."""
    if not has_composite(inputs):
        return NotImplemented
    for predicate, handler in _OP_HANDLERS:
        if predicate(op):
            out = handler(op, inputs, attrs, name)
            if out is not NotImplemented:
                return out
    return NotImplemented
