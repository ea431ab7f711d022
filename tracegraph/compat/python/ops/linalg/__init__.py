"""Re-exports for `tensorflow.python.ops.linalg` (see tracegraph/compat)."""
