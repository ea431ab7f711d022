"""`tf.train`: checkpoints of an object tree's Variables."""

from ..export.checkpoint import (  # noqa: F401
    Checkpoint,
    CheckpointLoadStatus,
    CheckpointManager,
    latest_checkpoint,
    list_variables,
    load_variable,
)
from ..export.checkpoint_reading import load_checkpoint  # noqa: F401
