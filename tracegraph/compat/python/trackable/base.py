"""`tensorflow.python.trackable.base`."""

from ....framework.tracking.base import (  # noqa: F401
    NoDependency,
    Trackable,
    TrackableReference,
    no_automatic_dependency_tracking,
)
