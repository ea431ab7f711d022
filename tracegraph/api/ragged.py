"""`tf.ragged`."""

from ..framework.ragged import RaggedTensor, constant  # noqa: F401


def is_ragged(x) -> bool:
    return isinstance(x, RaggedTensor)
