"""Re-exports for `tensorflow.core` (see tracegraph/compat)."""
