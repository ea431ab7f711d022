"""Checkpoints: `tf.train.Checkpoint`, `CheckpointManager`, the state file, deferred restoration."""
