"""TensorBoard: event files and `tf.summary` (the `tensorboard` extra, imported when used)."""
