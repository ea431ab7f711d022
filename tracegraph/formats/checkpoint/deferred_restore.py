"""Deferred restoration, as TensorFlow's checkpoints do it: a saved object whose Python object
does not exist yet when `restore` runs is restored the moment it appears, assigned as an
attribute (or appended as a list item) where the checkpoint saw it: the checkpoint guide's
"delayed restoration" (`fake_layer.kernel = tf.Variable(...)` gets the saved kernel).

`defer(parent, name, restoration, node)` keeps (restoration, saved node) for the child `name`
of a Python object; `on_attribute_set(parent, name, value)` hands the new value to each
restoration waiting for it, which matches it against the saved node (and defers what is still
missing below it). Attributes of a `tf.Module` reach it through `wiring.attribute_set_hooks`, of a
`tf.train.Checkpoint` through its `__setattr__`; list items through `TrackedList`, the list a
Checkpoint stores for a list attribute (TensorFlow's ListWrapper, for Checkpoints). A plain
list or dict takes no hooks: nothing waits on it.
"""

from __future__ import annotations

import weakref

from ... import wiring

__all__ = ["defer", "on_attribute_set", "attribute_set", "TrackedList"]

_PENDING: dict[int, tuple] = {}   # id(parent) -> (weakref to parent, {name: [(restoration, node)]})


def _forget(key: int, pending=_PENDING):
    return lambda _ref: pending.pop(key, None)   # `pending` bound: safe at interpreter exit


def defer(parent, name: str, restoration, node: int) -> bool:
    """Waits for `parent`'s child `name` to appear; False when `parent` takes no hooks."""
    key = id(parent)
    entry = _PENDING.get(key)
    if entry is None or entry[0]() is not parent:
        if not isinstance(parent, TrackedList) and type(parent) in (list, dict, tuple):
            return False
        try:
            ref = weakref.ref(parent, _forget(key))
        except TypeError:   # an object without weak references takes no hooks
            return False
        entry = _PENDING[key] = (ref, {})
    entry[1].setdefault(name, []).append((restoration, node))
    return True


def on_attribute_set(parent, name: str, value) -> None:
    """Restores what waits for `parent`'s child `name`, now `value` (each restoration once)."""
    entry = _PENDING.get(id(parent))
    if entry is None or entry[0]() is not parent or name not in entry[1]:
        return
    waiting = entry[1].pop(name)
    if not entry[1]:
        _PENDING.pop(id(parent), None)
    for restoration, node in waiting:
        restoration.match(value, node)


def attribute_set(parent, name: str, value) -> None:
    """Tells every format's deferred restorations (`wiring.attribute_set_hooks`) that
    `parent`'s child `name` is now `value`."""
    for hook in wiring.attribute_set_hooks:
        hook(parent, name, value)


class TrackedList(list):
    """A list whose new items are offered to deferred restorations (by index, as "0", "1", ...),
    as TensorFlow's ListWrapper does for lists assigned to a Checkpoint. It is a `list`."""

    def append(self, value):
        list.append(self, value)
        attribute_set(self, str(len(self) - 1), value)

    def extend(self, values):
        start = len(self)
        list.extend(self, values)
        for i in range(start, len(self)):
            attribute_set(self, str(i), self[i])

    def insert(self, index, value):
        n = len(self)
        i = min(max(index + n if index < 0 else index, 0), n)   # where list.insert puts it
        list.insert(self, index, value)
        attribute_set(self, str(i), value)

    def __setitem__(self, index, value):
        list.__setitem__(self, index, value)
        if isinstance(index, int):
            attribute_set(self, str(index % len(self)), value)

    def __iadd__(self, values):
        self.extend(values)
        return self
