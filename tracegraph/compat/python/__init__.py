"""Re-exports for `tensorflow.python` (see tracegraph/compat)."""
