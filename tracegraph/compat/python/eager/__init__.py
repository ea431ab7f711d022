"""Re-exports for `tensorflow.python.eager` (see tracegraph/compat)."""
