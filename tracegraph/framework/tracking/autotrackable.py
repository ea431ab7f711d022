"""`AutoTrackable`: a Trackable whose attribute assignments declare its dependencies, as
TensorFlow's `tf.__internal__.tracking.AutoTrackable` (the base of `tf.Module`).

Setting an attribute runs `sticky_attribute_assignment`: lists and dicts are wrapped into
trackable data structures and Trackable values become dependencies named by the attribute;
deleting the attribute drops the dependency. `_self_setattr_tracking = False` (or the
`no_automatic_dependency_tracking` decorator) turns this off for a while.
"""

from __future__ import annotations

from .base import Trackable
from .data_structures import sticky_attribute_assignment

__all__ = ["AutoTrackable"]


class AutoTrackable(Trackable):
    """Tracks what its attributes hold (see the module docstring)."""

    def __setattr__(self, name, value):
        if getattr(self, "_self_setattr_tracking", True) and not name.startswith("_self_"):
            value = sticky_attribute_assignment(trackable=self, name=name, value=value)
        object.__setattr__(self, name, value)

    def __delattr__(self, name):
        self._delete_tracking(name)
        object.__delattr__(self, name)

    def _delete_tracking(self, name: str) -> None:
        self._maybe_initialize_trackable()
        if name in self._self_unconditional_dependency_names:
            del self._self_unconditional_dependency_names[name]
            deps = self._self_unconditional_checkpoint_dependencies
            deps[:] = [ref for ref in deps if ref.name != name]
