"""Re-exports for `tensorflow.python.ops.linalg.sparse` (see tracegraph/compat)."""
