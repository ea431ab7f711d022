"""`tf.test`: the numerical gradient checker."""

from ..framework.gradient_check import compute_gradient

__all__ = ["compute_gradient"]
