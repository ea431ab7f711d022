"""Trackable data structures: what a list or dict assigned to an `AutoTrackable`'s attribute
becomes (`tensorflow.python.trackable.data_structures`).

`self.layers = [a, b]` stores a `ListWrapper` (a `list` subclass: `isinstance(x, list)` holds,
it compares equal to the plain list) whose Trackable elements are its children "0", "1", ...;
a dict becomes a `_DictWrapper` (a `dict` subclass, children named by key), a plain tuple
holding Trackables, lists or dicts a `_TupleWrapper` (a `tuple` subclass; namedtuples stay as
they are). Lists and dicts nested inside are wrapped the same way, so a checkpoint reaches a
Variable held anywhere in them. `NoDependency(value)` stores the value as it is; subclasses of
list and dict (Keras's own tracked collections) are left alone, as TensorFlow leaves them.
"""

from __future__ import annotations

import copy

from .base import NoDependency, Trackable, TrackableReference

__all__ = ["ListWrapper", "_DictWrapper", "_TupleWrapper", "wrap_or_unwrap",
           "sticky_attribute_assignment"]


def wrap_or_unwrap(value):
    """`value` as an attribute stores it: NoDependency unwrapped, exact lists and dicts wrapped."""
    if isinstance(value, NoDependency):
        return value.value
    if isinstance(value, Trackable):
        return value
    if type(value) is list:
        return ListWrapper(value)
    if type(value) is dict:
        return _DictWrapper(value)
    if type(value) is tuple and any(isinstance(v, (Trackable, list, dict)) for v in value):
        return _TupleWrapper(value)
    return value


def sticky_attribute_assignment(trackable: Trackable, name: str, value):
    """Wraps `value` as `wrap_or_unwrap` does and declares it a dependency of `trackable` under
    `name` when it is Trackable (replacing an earlier one of that name); returns what to store."""
    add_dependency = not isinstance(value, NoDependency)
    value = wrap_or_unwrap(value)
    if add_dependency and isinstance(value, Trackable):
        trackable._track_trackable(value, name=name, overwrite=True)
    return value


class _TrackableContainer(Trackable):
    """What ListWrapper and _DictWrapper share: their Trackable items are their children."""

    def _items(self):  # pragma: no cover - subclasses define it
        raise NotImplementedError

    def _trackable_children(self, save_type="checkpoint", cache=None, **kwargs) -> dict:
        return {str(key): value for key, value in self._items() if isinstance(value, Trackable)}

    def _lookup_dependency(self, name, cached_dependencies=None):
        return self._trackable_children().get(name)

    @property
    def _checkpoint_dependencies(self) -> list:
        return [TrackableReference(k, v) for k, v in self._trackable_children().items()]


class ListWrapper(_TrackableContainer, list):
    """A list whose Trackable elements are tracked (see the module docstring)."""

    def __init__(self, wrapped_list=()):
        list.__init__(self, (wrap_or_unwrap(v) for v in wrapped_list))

    def _items(self):
        return enumerate(self)

    def append(self, value):
        list.append(self, wrap_or_unwrap(value))

    def extend(self, values):
        list.extend(self, (wrap_or_unwrap(v) for v in values))

    def insert(self, index, value):
        list.insert(self, index, wrap_or_unwrap(value))

    def __setitem__(self, key, value):
        if isinstance(key, slice):
            value = [wrap_or_unwrap(v) for v in value]
        else:
            value = wrap_or_unwrap(value)
        list.__setitem__(self, key, value)

    def __iadd__(self, values):
        self.extend(values)
        return self

    def __radd__(self, other):
        return list(other) + list(self)

    def __copy__(self):
        return ListWrapper(self)

    def __deepcopy__(self, memo):
        return ListWrapper(copy.deepcopy(list(self), memo))

    __hash__ = None

    def __repr__(self):
        return f"ListWrapper({list.__repr__(self)})"


class _DictWrapper(_TrackableContainer, dict):
    """A dict whose Trackable values are tracked, named by their keys (see the module
    docstring)."""

    def __init__(self, wrapped_dict=None, **kwargs):
        dict.__init__(self)
        self.update(wrapped_dict or {}, **kwargs)

    def _items(self):
        return self.items()

    def __setitem__(self, key, value):
        dict.__setitem__(self, key, wrap_or_unwrap(value))

    def update(self, *args, **kwargs):
        for key, value in dict(*args, **kwargs).items():
            self[key] = value

    def setdefault(self, key, default=None):
        if key not in self:
            self[key] = default
        return self[key]

    def copy(self):
        return _DictWrapper(self)

    def __copy__(self):
        return _DictWrapper(self)

    def __deepcopy__(self, memo):
        return _DictWrapper(copy.deepcopy(dict(self), memo))

    __hash__ = None

    def __repr__(self):
        return f"DictWrapper({dict.__repr__(self)})"


class _TupleWrapper(_TrackableContainer, tuple):
    """A tuple whose Trackable elements are tracked, named by position."""

    def __new__(cls, original_tuple=()):
        return tuple.__new__(cls, (wrap_or_unwrap(v) for v in original_tuple))

    def _items(self):
        return enumerate(self)

    def __repr__(self):
        return f"_TupleWrapper({tuple.__repr__(self)})"
