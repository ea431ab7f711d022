"""`tf.train`: checkpoints of an object tree's Variables."""

from ..export.checkpoint import (  # noqa: F401
    Checkpoint,
    CheckpointLoadStatus,
    CheckpointManager,
    latest_checkpoint,
    list_variables,
    load_checkpoint,
    load_variable,
)
