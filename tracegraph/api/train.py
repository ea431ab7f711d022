"""`tf.train`: checkpoints of an object tree's Variables."""

from ..formats.checkpoint.checkpoint import (  # noqa: F401
    Checkpoint,
    CheckpointLoadStatus,
    latest_checkpoint,
    list_variables,
    load_variable,
)
from ..formats.checkpoint.checkpoint_manager import CheckpointManager  # noqa: F401
from ..formats.checkpoint.checkpoint_reading import load_checkpoint  # noqa: F401
