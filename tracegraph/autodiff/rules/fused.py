"""Gradient rules of the remapper's fused ops (`_FusedMatMul`, `_FusedConv2D`): the fused
activation's gradient from the fused op's output, then the matmul's or convolution's."""

from __future__ import annotations

from ...library.array import zeros_like
from ...library.indexing import where
from ...library.linalg import matmul
from ...library.math import greater, less, logical_and, multiply, square, subtract
from ...library.reduce import reduce_sum
from ...ops.fused import ACTIVATIONS
from ...ops.math import sigmoid_op, tanh_op
from ...ops.nn import relu6_op, relu_op
from ...ops.nn_backprop import relu_grad_op
from ..registry import defgrad
from .convolution import conv_input_grads

# The fused activation's gradient from its output y (the fused op's `fused_ops` attr names
# the activation by its op type).
EPILOGUES = {
    relu_op.tf_type: lambda g, y: relu_grad_op(g, y),                     # g where y > 0
    relu6_op.tf_type: lambda g, y: where(logical_and(greater(y, 0), less(y, 6)), g,
                                         zeros_like(g)),                  # g where 0 < y < 6
    sigmoid_op.tf_type: lambda g, y: multiply(g, multiply(y, subtract(1, y))),  # g y (1-y)
    tanh_op.tf_type: lambda g, y: multiply(g, subtract(1, square(y))),    # g (1 - y^2)
}


def _epilogue_grad(op, g):
    """The gradient before the fused activation, from the fused op's output."""
    ops = tuple(op.attrs.get("fused_ops", ()))
    act = next((a for a in ACTIVATIONS if a in ops), None)
    return EPILOGUES[act](g, op.outputs[0]) if act is not None else g


@defgrad("_FusedMatMul")
def _fused_matmul_grad(op, g):               # matmul(a, b) + bias, then the activation
    a, b, bias = op.inputs
    g = _epilogue_grad(op, g)
    ta, tb = op.attrs.get("transpose_a", False), op.attrs.get("transpose_b", False)
    da = matmul(g, b, transpose_b=not tb) if not ta else matmul(b, g, transpose_a=tb,
                                                                transpose_b=True)
    db = matmul(a, g, transpose_a=not ta) if not tb else matmul(g, a, transpose_a=True,
                                                                transpose_b=ta)
    return da, db, reduce_sum(g, [0])


@defgrad("_FusedConv2D")
def _fused_conv2d_grad(op, g):               # conv2d(x, w) + bias, then the activation
    x, w, bias = op.inputs
    g = _epilogue_grad(op, g)
    axis = 1 if op.attrs.get("data_format", "NHWC") == "NCHW" else 3
    dx, dw = conv_input_grads(op, x, w, g)
    return dx, dw, reduce_sum(g, [i for i in range(4) if i != axis])
