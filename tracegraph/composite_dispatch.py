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

_TYPES: frozenset = frozenset()    # composite classes that have handlers
_OP_HANDLERS: list = []            # [(predicate(op) -> bool, handler(op, inputs, attrs, name))]


def register_types(*classes) -> None:
    """Marks `classes` as composite values that dispatch (each once; checked by exact type,
    so the normal path costs a set lookup per argument)."""
    global _TYPES
    _TYPES = frozenset(_TYPES | set(classes))


def has_composite(args, kwargs=None) -> bool:
    """Whether a registered composite value is among `args`/`kwargs` or one level inside a
    list or tuple argument."""
    types = _TYPES
    for v in args:
        t = type(v)
        if t in types or ((t is list or t is tuple) and _holds(v, types)):
            return True
    if kwargs:
        for v in kwargs.values():
            t = type(v)
            if t in types or ((t is list or t is tuple) and _holds(v, types)):
                return True
    return False


def _holds(values, types) -> bool:
    for x in values:
        if type(x) in types:
            return True
    return False


def dispatchable(fn):
    """Decorator: `fn` runs its registered composite handler when given a composite value
    (the normal path checks each argument's type against a set)."""
    slot = [None]   # the handler, set by register_function

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        handler = slot[0]
        if handler is not None:
            types = _TYPES
            for v in args:
                t = type(v)
                if t in types or ((t is list or t is tuple) and _holds(v, types)):
                    return handler(*args, **kwargs)
            if kwargs and has_composite((), kwargs):
                return handler(*args, **kwargs)
        return fn(*args, **kwargs)
    wrapper.composite_slot = slot
    wrapper.dense_function = fn
    return wrapper


def register_function(fn, handler) -> None:
    """Registers `handler(*args, **kwargs)` for the `@dispatchable` function `fn`."""
    slot = getattr(fn, "composite_slot", None)
    if slot is None:
        raise TypeError(f"{getattr(fn, '__name__', fn)!r} is not @dispatchable")
    slot[0] = handler


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
