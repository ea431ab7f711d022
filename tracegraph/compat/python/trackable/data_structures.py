"""`tensorflow.python.trackable.data_structures`."""

from ....framework.tracking.base import NoDependency  # noqa: F401
from ....framework.tracking.data_structures import (  # noqa: F401
    ListWrapper,
    _DictWrapper,
    _TupleWrapper,
    sticky_attribute_assignment,
    wrap_or_unwrap,
)
