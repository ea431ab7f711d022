"""`tensorflow.python.framework.config`."""

from ....config import (  # noqa: F401
    disable_op_determinism,
    enable_op_determinism,
    is_op_determinism_enabled,
    list_logical_devices,
    list_physical_devices,
)
