"""Re-exports for `tensorflow.python.util` (see tracegraph/compat)."""
