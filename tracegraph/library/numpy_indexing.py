"""NumPy's indexing on tensors (`x[:, (True, False, True)]`, `x[1, (0, 0, 1), [0, 1, 1]]`), which
tensors take under `experimental_enable_numpy_behavior` and `tf.experimental.numpy` uses.

Basic indices (ints, slices, `None`, `...`, scalar tensors) go to TensorFlow's strided slice.
Advanced ones (integer or boolean arrays, lists, tuples inside the key) are resolved by NumPy on
the positions of the elements: `arange(size).reshape(shape)[key]` says which element each output
takes, and one `gather` takes them, so gradients flow as through any gather. That needs the
tensor's static shape and concrete index values; a single boolean or integer tensor index also
works on symbolic values (`boolean_mask`, `gather`).
"""

from __future__ import annotations

import numpy as np

from ..ops.registry import convert_to_tensor
from .array import reshape
from .indexing import boolean_mask, gather
from .slicing import getitem as basic_getitem

__all__ = ["getitem"]


def _is_basic(item) -> bool:
    if item is None or item is Ellipsis or isinstance(item, (int, np.integer, slice)):
        return not isinstance(item, bool)
    shape = getattr(item, "shape", None)
    dtype = getattr(item, "dtype", None)
    return (shape is not None and shape.rank == 0 and dtype is not None
            and getattr(dtype, "is_integer", False))


def _concrete(item):
    """An index component as NumPy (a tensor's value), or None when symbolic."""
    if isinstance(item, (list, tuple)):
        parts = [_concrete(v) for v in item]
        return None if any(p is None for p in parts) else np.asarray(parts)
    if isinstance(item, (np.ndarray, np.generic, bool, int, slice)) or item is None \
            or item is Ellipsis:
        return item
    numpy = getattr(item, "numpy", None)
    if numpy is None:
        return None
    try:
        return np.asarray(numpy())
    except (AttributeError, NotImplementedError):
        return None


def getitem(x, key):
    """`x[key]` with NumPy's rules."""
    x = convert_to_tensor(x)
    items = key if isinstance(key, tuple) else (key,)
    if all(_is_basic(item) for item in items):
        return basic_getitem(x, key)
    concrete = [_concrete(item) for item in items]
    shape = x.shape
    symbolic = any(c is None and item is not None for c, item in zip(concrete, items))
    if symbolic or not shape.is_fully_defined():
        return _symbolic(x, items)
    positions = np.arange(int(np.prod(shape.as_list(), dtype=np.int64)), dtype=np.int64)
    taken = positions.reshape(shape.as_list())[tuple(concrete)]
    flat = reshape(x, [-1])
    return reshape(gather(flat, taken.reshape(-1)), list(taken.shape))


def _symbolic(x, items):
    if len(items) == 1:
        index = convert_to_tensor(items[0])
        if index.dtype.is_bool:
            return boolean_mask(x, index)
        return gather(x, index, axis=0)
    raise TypeError(
        "NumPy-style advanced indexing with several symbolic index arrays is not supported by "
        "tracegraph inside tf.function: index with one array at a time, or use tf.gather / "
        "tf.gather_nd.")
