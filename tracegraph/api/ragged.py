"""`tf.ragged`."""

from ..framework.composite_specs import RaggedTensorSpec  # noqa: F401
from ..framework.ragged import RaggedTensor, constant  # noqa: F401
from ..framework.ragged_constant import ragged_range as range  # noqa: F401, A004
from ..framework.ragged_functions import (  # noqa: F401
    boolean_mask,
    row_splits_to_segment_ids,
    segment_ids_to_row_splits,
    stack,
)
from ..framework.ragged_math import map_flat_values  # noqa: F401


def is_ragged(x) -> bool:
    return isinstance(x, RaggedTensor)
