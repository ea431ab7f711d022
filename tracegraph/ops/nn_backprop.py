"""Backprop records of the activations: `ReluGrad`. Convolutions' backprop records are in
`convolution_backprop.py`, pooling's in `pooling.py`; the gradient rules that use them are in
`autodiff/rules/`.
"""

from __future__ import annotations

import numpy as np

from . import infer as I
from .registry import REAL, TypeAttr, defop


def kernel_relu_grad(gradients, features):
    g = np.asarray(gradients)
    return g * (np.asarray(features) > 0).astype(g.dtype)


relu_grad_op = defop("relu_grad", "ReluGrad", inputs=("gradients: T", "features: T"),
                     attrs={"T": TypeAttr(REAL)}, infer=I.binary, kernel=kernel_relu_grad,
                     flags={"pure"})
