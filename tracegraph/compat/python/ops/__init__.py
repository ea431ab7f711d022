"""Re-exports for `tensorflow.python.ops` (see tracegraph/compat)."""
