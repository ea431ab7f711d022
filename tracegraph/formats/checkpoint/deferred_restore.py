"""Deferred restoration, as TensorFlow's checkpoints do it: a value in a checkpoint whose object
does not exist yet when `restore` runs is kept, and restored the moment the object appears,
assigned as an attribute along the saved path (the checkpoint guide's "delayed restoration":
`fake_layer.kernel = tf.Variable(...)` gets the saved kernel).

Pending values hang off the deepest object of the path that existed at restore time, as a
tree of the attribute names still missing. Assigning an attribute of a `tf.train.Checkpoint`
or a `tf.Module` consults it (`on_attribute_set`, one of `wiring.attribute_set_hooks`).
"""

from __future__ import annotations

import weakref

from ...framework.variables import Variable
from ..native.object_graph import children_of

__all__ = ["defer", "on_attribute_set", "Pending"]

_PENDING: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()   # object -> tree


class Pending:
    """One saved value waiting for its Variable; `assign(variable)` checks and restores it."""

    __slots__ = ("assign",)

    def __init__(self, assign):
        self.assign = assign


def _child(obj, name: str):
    return next((v for k, v in children_of(obj) if k == name), None)


def defer(root, path: list[str], pending: Pending) -> bool:
    """Keeps `pending` for the attribute path `path` under `root`: restored when the missing
    part of the path is assigned. False when the path cannot be waited on (it ends at an
    object that is not a Variable, or at a container that takes no attribute hooks)."""
    obj, i = root, 0
    while i < len(path):
        child = _child(obj, path[i])
        if child is None:
            break
        obj, i = child, i + 1
    if i == len(path):
        return False   # the object exists and is no Variable: nothing to wait for
    try:
        tree = _PENDING.setdefault(obj, {})
    except TypeError:   # a list or dict: no attribute hooks
        return False
    for name in path[i:-1]:
        tree = tree.setdefault(name, {})
        if isinstance(tree, Pending):
            return False
    tree[path[-1]] = pending
    return True


def on_attribute_set(obj, name: str, value) -> None:
    tree = _PENDING.get(obj)
    if not tree or name not in tree:
        return
    _apply(value, tree.pop(name))


def _apply(value, pending) -> None:
    if isinstance(pending, Pending):
        if isinstance(value, Variable):
            pending.assign(value)
        return
    for name, sub in pending.items():   # an object: restore what is there, wait for the rest
        child = _child(value, name)
        if child is not None:
            _apply(child, sub)
            continue
        try:
            _PENDING.setdefault(value, {})[name] = sub
        except TypeError:
            pass

