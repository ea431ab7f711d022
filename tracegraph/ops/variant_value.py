"""`VariantValue`: the base of runtime objects that are the value of a `variant` scalar tensor.

A variant tensor's value is a Python object, not an array: a `TensorList` (tf.TensorArray), a
tf.data dataset or iterator, an optional. Eagerly such an object is its own handle (the eager
context passes it through unwrapped); in a graph it flows along `variant` edges, is captured
like any eager value, and is never computed at trace time or folded into a constant (the
records that make one carry the `opaque_output` flag).
"""

from __future__ import annotations

__all__ = ["VariantValue"]


class VariantValue:
    """A runtime object carried by a `variant` scalar tensor (subclasses say what it is)."""

    __slots__ = ()
