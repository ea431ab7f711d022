"""`tensorflow.python.framework.type_spec_registry`."""

from ....framework.type_spec_registry import get_name, lookup, register  # noqa: F401
