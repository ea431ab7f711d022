"""`TensorList`: the runtime value behind `tf.TensorArray`, immutable to its users and cheap to
write.

A list is a value: writing an element gives a new list and the old one still reads as it was
(a loop's `ta = ta.write(i, x)` threads versions through `While` carries). Copying the items
at every write would make n writes cost O(n^2). Versions of one list share one mutable store
instead (Baker's trick): the newest version owns the store, a write mutates it in O(1) and
turns the version written from into a diff, "as the newer version but element j was v". An
old version still reads correctly, walking its diffs (a loop rarely reads them); writing an
old version copies it into a store of its own. A lock per store keeps versions consistent
when the parallel executor's threads share a list.
"""

from __future__ import annotations

import threading

import numpy as np

from .. import dtypes as d
from ..errors import InvalidArgumentError
from ..shapes import format_dims
from .variant_value import VariantValue

__all__ = ["TensorList"]


class _Store:
    __slots__ = ("items", "lock")

    def __init__(self, items: list):
        self.items = items
        self.lock = threading.Lock()


class TensorList(VariantValue):
    """An immutable list of arrays (None: not written yet) with its element dtype and the
    element shape it was created with (None dims unknown; None: unknown rank)."""

    __slots__ = ("_store", "_diff", "_length", "element_dtype", "element_shape")

    def __init__(self, items, element_dtype: d.DType, element_shape):
        self._store = _Store(list(items))
        # None: the newest version; else (newer version, index, old item), index -1 when the
        # newer version only grew (this version sees the first `_length` items)
        self._diff = None
        self._length = len(self._store.items)
        self.element_dtype = element_dtype
        self.element_shape = element_shape

    # --- reading ----------------------------------------------------------------------------
    def get(self, index: int):
        """Element `index` (None if not written yet); `index` must be in range."""
        with self._store.lock:
            node = self
            while node._diff is not None:
                newer, j, old = node._diff
                if j == index:
                    return old
                node = newer
            return node._store.items[index]

    @property
    def items(self) -> tuple:
        """All elements of this version, as a tuple."""
        with self._store.lock:
            path, node = [], self
            while node._diff is not None:
                path.append(node._diff)
                node = node._diff[0]
            items = node._store.items[:self._length]
        for _, j, old in reversed(path):
            if 0 <= j < self._length:
                items[j] = old
        return tuple(items)

    def __len__(self):
        return self._length

    # --- writing ----------------------------------------------------------------------------
    def with_item(self, index: int, item) -> TensorList:
        """A new version with element `index` set to `item`; an index at or past the end grows
        the list (unwritten elements in between are None)."""
        store = self._store
        with store.lock:
            if self._diff is None:   # the newest version: write in place, O(1) amortized
                new = TensorList.__new__(TensorList)
                new._store, new._diff = store, None
                new.element_dtype, new.element_shape = self.element_dtype, self.element_shape
                if index < self._length:
                    self._diff = (new, index, store.items[index])
                    store.items[index] = item
                    new._length = self._length
                else:
                    self._diff = (new, -1, None)
                    store.items.extend([None] * (index - self._length))
                    store.items.append(item)
                    new._length = index + 1
                return new
        items = list(self.items)   # an old version: a store of its own
        items.extend([None] * (index + 1 - len(items)))
        items[index] = item
        return self.replace(items)

    def replace(self, items) -> TensorList:
        return TensorList(items, self.element_dtype, self.element_shape)

    # --- gradients (TensorFlow's variant ZerosLike and AddN of lists) -----------------------
    def zeros_like(self) -> TensorList:
        """A list of zeros shaped like this one's elements (unwritten ones stay unwritten)."""
        return self.replace([None if x is None else np.zeros_like(x) for x in self.items])

    def __add__(self, other) -> TensorList:
        """Element by element (an unwritten element adds as zeros): how gradients of lists
        from several uses sum up."""
        if not isinstance(other, TensorList):
            return NotImplemented
        if other.element_dtype is not self.element_dtype:
            raise InvalidArgumentError("Trying to add two lists of tensors of different dtypes. "
                                       f"One is {self.element_dtype.name} and the other is "
                                       f"{other.element_dtype.name}")
        if len(other) != len(self):
            raise InvalidArgumentError("Trying to add two lists of tensors with different "
                                       f"lengths. One is {len(self)} and the other is "
                                       f"{len(other)}")
        items = [b if a is None else a if b is None else a + b
                 for a, b in zip(self.items, other.items)]
        return self.replace(items)

    def __repr__(self):
        return f"TensorList({len(self)} x {self.element_dtype.name}" \
               f"{format_dims(self.element_shape)})"
