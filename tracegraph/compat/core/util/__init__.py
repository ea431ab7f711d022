"""Re-exports for `tensorflow.core.util` (see tracegraph/compat)."""
