"""tracegraph's own saved-model format: JSON + `.npz`, safe to load (`tf.saved_model`)."""
