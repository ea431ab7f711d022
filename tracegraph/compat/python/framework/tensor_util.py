"""`tensorflow.python.framework.tensor_util`."""

from ....framework.core_types import is_tensor  # noqa: F401
from ....framework.core_types import is_tensor as is_tf_type  # noqa: F401
