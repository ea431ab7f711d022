"""Re-exports for `tensorflow.compiler.tf2xla` (see tracegraph/compat)."""
