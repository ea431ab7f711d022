"""`tf.test`: the numerical gradient checker."""

from ..autodiff.gradient_check import compute_gradient

__all__ = ["compute_gradient"]
