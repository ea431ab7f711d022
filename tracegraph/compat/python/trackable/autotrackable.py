"""`tensorflow.python.trackable.autotrackable`."""

from ....framework.tracking.autotrackable import AutoTrackable  # noqa: F401
