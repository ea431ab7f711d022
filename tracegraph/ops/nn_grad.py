"""`ReluGrad` (TensorFlow's backprop record of Relu) and the gradient rules of the nn records:
activations, softmax and log_softmax, bias_add, l2_loss and the cross-entropy losses."""

from __future__ import annotations

import numpy as np

from . import gradutil as G
from . import infer as I
from .geometry import bias_axis
from .nn import (
    SELU_ALPHA,
    SELU_SCALE,
    bias_add_op,
    elu_op,
    l2_loss_op,
    leaky_relu_op,
    log_softmax_op,
    relu6_op,
    relu_op,
    selu_op,
    softmax_op,
    sparse_xent_op,
    xent_op,
)
from .registry import REAL, TypeAttr, bind, defgrad, defop


def kernel_relu_grad(gradients, features):
    g = np.asarray(gradients)
    return g * (np.asarray(features) > 0).astype(g.dtype)


relu_grad_op = defop("relu_grad", "ReluGrad", inputs=("gradients: T", "features: T"),
                     attrs={"T": TypeAttr(REAL)}, infer=I.binary, kernel=kernel_relu_grad,
                     flags={"pure"})

# ---- gradient rules of the activations (above) -----------------------------------------------


@defgrad(relu_op)
def _relu_grad(op, g):
    return bind(relu_grad_op, (g, op.outputs[0]))


@defgrad(relu_grad_op)
def _relu_grad_grad(op, gg):
    return bind(relu_grad_op, (gg, op.inputs[1])), None


def _where_positive(x, g, otherwise):
    return G.op("select", G.op("greater", x, 0), g, otherwise)


@defgrad(relu6_op)
def _relu6_grad(op, g):
    x = op.inputs[0]
    inside = G.op("logical_and", G.op("greater", x, 0), G.op("less", x, 6))
    return G.op("select", inside, g, G.zeros_like(g))


@defgrad(elu_op)
def _elu_grad(op, g):
    y = op.outputs[0]
    return _where_positive(op.inputs[0], g, G.op("multiply", g, G.op("add", y, 1)))


@defgrad(selu_op)
def _selu_grad(op, g):
    x, y = op.inputs[0], op.outputs[0]
    return G.op("select", G.op("greater", x, 0), G.op("multiply", g, SELU_SCALE),
                G.op("multiply", g, G.op("add", y, SELU_SCALE * SELU_ALPHA)))


@defgrad(leaky_relu_op)
def _leaky_relu_grad(op, g):
    return _where_positive(op.inputs[0], g, G.op("multiply", g, op.attrs["alpha"]))



@defgrad(softmax_op)
def _softmax_grad(op, g):
    y = op.outputs[0]
    dot = G.op("reduce_sum", G.op("multiply", g, y), np.int32(-1), keep_dims=True)
    return G.op("multiply", G.op("subtract", g, dot), y)


@defgrad(log_softmax_op)
def _log_softmax_grad(op, g):
    y = op.outputs[0]
    total = G.op("reduce_sum", g, np.int32(-1), keep_dims=True)
    return G.op("subtract", g, G.op("multiply", G.op("exp", y), total))



@defgrad(bias_add_op)
def _bias_add_grad(op, g):
    rank = g.shape.rank
    axis = bias_axis(rank, op.attrs["data_format"])
    return g, G.reduce_sum(g, [i for i in range(rank) if i != axis])



@defgrad(l2_loss_op)
def _l2_loss_grad(op, g):
    return G.op("multiply", op.inputs[0], g)


@defgrad(sparse_xent_op)
def _sparse_xent_grad(op, g_loss, g_backprop):
    """The kernel's second output is the gradient of the loss w.r.t. the logits."""
    return G.op("multiply", G.op("expand_dims", g_loss, -1), op.outputs[1]), None


@defgrad(xent_op)
def _xent_grad(op, g_loss, g_backprop):
    features, labels = op.inputs
    scale = G.op("expand_dims", g_loss, -1)
    # softmax * sum(labels) - labels: the kernel's backprop output when labels sum to 1
    total = G.op("reduce_sum", labels, np.int32(-1), keep_dims=True)
    exact = G.op("subtract", G.op("multiply", G.op("softmax", features), total), labels)
    return (G.op("multiply", scale, exact),
            G.op("multiply", scale, G.op("negative", G.op("log_softmax", features))))
