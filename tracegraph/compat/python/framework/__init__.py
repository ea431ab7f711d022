"""Re-exports for `tensorflow.python.framework` (see tracegraph/compat)."""
