"""Re-exports for `tensorflow.compiler.tf2xla.python` (see tracegraph/compat)."""
