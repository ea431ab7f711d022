"""Re-exports for `tensorflow.compiler` (see tracegraph/compat)."""
