"""`tf.train`: checkpoints of an object tree's Variables."""

from ..formats.checkpoint.checkpoint import (  # noqa: F401
    Checkpoint,
    CheckpointLoadStatus,
    CheckpointManager,
    latest_checkpoint,
    list_variables,
    load_variable,
)
