"""`Trackable`: an object that names the objects it depends on (its children), for checkpoints.

As TensorFlow's `tensorflow.python.trackable.base.Trackable`, it has no `__init__`: its state
lives in `_self_`-prefixed attributes created on first use (`_maybe_initialize_trackable`), so
subclasses (Keras's layers and variables) never need to call it, and the names stay clear of
user attributes. A child is declared with `_track_trackable(child, name)`; `_trackable_children()`
returns them by name, in declaration order; `_serialize_to_tensors()` gives the values an object
saves itself (a Variable: `{"VARIABLE_VALUE": value}`).
"""

from __future__ import annotations

import collections
import functools

__all__ = ["Trackable", "TrackableReference", "NoDependency", "no_automatic_dependency_tracking"]

# (name, object): one declared dependency, as TensorFlow's `TrackableReference`.
TrackableReference = collections.namedtuple("TrackableReference", ["name", "ref"])


class NoDependency:
    """Wraps a value assigned to an attribute so it is stored unwrapped and not tracked:
    `self.x = NoDependency([])` keeps a plain list."""

    __slots__ = ("value",)

    def __init__(self, value):
        self.value = value


class Trackable:
    """The base of every object a checkpoint can hold (see the module docstring)."""

    @property
    def _setattr_tracking(self) -> bool:
        return getattr(self, "_self_setattr_tracking", True)

    @_setattr_tracking.setter
    def _setattr_tracking(self, value: bool) -> None:
        self._self_setattr_tracking = value

    def _maybe_initialize_trackable(self) -> None:
        if "_self_unconditional_checkpoint_dependencies" in getattr(self, "__dict__", ()):
            return
        self._self_setattr_tracking = True
        self._self_unconditional_checkpoint_dependencies = []
        self._self_unconditional_dependency_names = {}
        self._self_unconditional_deferred_dependencies = {}
        self._self_update_uid = -1
        self._self_name_based_restores = set()
        self._self_saveable_object_factories = {}

    @property
    def _checkpoint_dependencies(self) -> list:
        """The declared dependencies, as `TrackableReference(name, object)`s in order."""
        self._maybe_initialize_trackable()
        return self._self_unconditional_checkpoint_dependencies

    @property
    def _unconditional_checkpoint_dependencies(self) -> list:
        return self._checkpoint_dependencies

    @property
    def _deferred_dependencies(self) -> dict:
        self._maybe_initialize_trackable()
        return self._self_unconditional_deferred_dependencies

    def _track_trackable(self, trackable, name: str, overwrite: bool = False):
        """Declares `trackable` as the dependency `name`; returns it. A name already declared
        is an error unless `overwrite` (then the new object replaces the old one)."""
        self._maybe_initialize_trackable()
        if not isinstance(trackable, Trackable):
            raise TypeError(f"Trackable._track_trackable() can only be used to track objects of "
                            f"type Trackable. Got type {type(trackable)}.")
        reference = TrackableReference(name, trackable)
        current = self._lookup_dependency(name)
        if current is not None and current is not trackable:
            if not overwrite:
                raise ValueError(
                    f"Called Trackable._track_trackable() with name='{name}', but a Trackable "
                    "with this name is already declared as a dependency. Names must be unique "
                    "(or overwrite=True).")
            deps = self._self_unconditional_checkpoint_dependencies
            for index, (old_name, _) in enumerate(deps):
                if old_name == name:
                    deps[index] = reference
        elif current is None:
            self._self_unconditional_checkpoint_dependencies.append(reference)
        self._self_unconditional_dependency_names[name] = trackable
        self._handle_deferred_dependencies(name, trackable)
        return trackable

    def _lookup_dependency(self, name: str, cached_dependencies=None):
        """The dependency declared as `name`, or None."""
        if cached_dependencies:
            return cached_dependencies.get(name)
        self._maybe_initialize_trackable()
        return self._self_unconditional_dependency_names.get(name)

    def _handle_deferred_dependencies(self, name: str, trackable) -> None:
        """Hands `trackable` the restorations that waited for a dependency named `name`."""
        self._maybe_initialize_trackable()
        for restore in self._self_unconditional_deferred_dependencies.pop(name, ()):
            restore(trackable)

    def _trackable_children(self, save_type: str = "checkpoint", cache=None, **kwargs) -> dict:
        """The dependencies by name, in the order they were declared."""
        return {name: ref for name, ref in self._checkpoint_dependencies}

    def _no_dependency(self, value):
        """`value` without a `NoDependency` wrapper (TF's helper for untracked attributes)."""
        return value.value if isinstance(value, NoDependency) else value

    def _serialize_to_tensors(self) -> dict:
        """The tensors this object saves itself, by name (none by default)."""
        return {}

    def _restore_from_tensors(self, restored_tensors: dict):
        """Restores what `_serialize_to_tensors` saved (nothing by default)."""
        return None

    def _gather_saveables_for_checkpoint(self) -> dict:
        return dict(getattr(self, "_self_saveable_object_factories", {}))


def no_automatic_dependency_tracking(method):
    """Decorator: attribute assignments inside `method` are not tracked (lists and dicts stay
    plain), as TensorFlow's `tf.__internal__.tracking.no_automatic_dependency_tracking`."""

    @functools.wraps(method)
    def _method_wrapper(self, *args, **kwargs):
        previous = getattr(self, "_self_setattr_tracking", True)
        self._self_setattr_tracking = False
        try:
            return method(self, *args, **kwargs)
        finally:
            self._self_setattr_tracking = previous

    return _method_wrapper
