"""TensorFlow's object tracking (`tf.__internal__.tracking`, `tensorflow.python.trackable`):
`Trackable` and `AutoTrackable`, the base classes of `tf.Module`, `tf.Variable` and Keras's
layers and variables, and the trackable data structures attribute assignment wraps lists and
dicts into."""

from .autotrackable import AutoTrackable
from .base import NoDependency, Trackable, TrackableReference, no_automatic_dependency_tracking
from .data_structures import ListWrapper, _DictWrapper, sticky_attribute_assignment, wrap_or_unwrap

__all__ = ["Trackable", "AutoTrackable", "TrackableReference", "NoDependency",
           "no_automatic_dependency_tracking", "ListWrapper", "_DictWrapper",
           "sticky_attribute_assignment", "wrap_or_unwrap"]
