"""Re-exports for `tensorflow.python.trackable` (see tracegraph/compat)."""
