"""Gradient rules of the nn records (TensorFlow's nn_grad): activations, softmax and
log_softmax, bias_add, l2_loss, the cross-entropy losses. Convolutions' rules are in
`convolution.py`, pooling's in `pooling.py`."""

from __future__ import annotations

from ...library.array import expand_dims, zeros_like
from ...library.indexing import where
from ...library.math import add, exp, greater, less, logical_and, multiply, negative, subtract
from ...library.nn import log_softmax, softmax
from ...library.reduce import reduce_sum
from ...ops.geometry import bias_axis
from ...ops.nn import SELU_ALPHA, SELU_SCALE, lrn_grad_op
from ...ops.nn_backprop import relu_grad_op
from ..registry import defgrad


@defgrad("Relu")
def _relu_grad(op, g):                       # g where y > 0
    return relu_grad_op(g, op.outputs[0])


@defgrad("ReluGrad")
def _relu_grad_grad(op, gg):                 # linear in the upstream gradient; flat in x
    return relu_grad_op(gg, op.inputs[1]), zeros_like(op.inputs[1])   # (TF: 0, not None)


@defgrad("Relu6")
def _relu6_grad(op, g):                      # g where 0 < x < 6
    x = op.inputs[0]
    return where(logical_and(greater(x, 0), less(x, 6)), g, zeros_like(g))


@defgrad("Elu")
def _elu_grad(op, g):                        # g where x > 0, else g (y + 1)
    return where(greater(op.inputs[0], 0), g, multiply(g, add(op.outputs[0], 1)))


@defgrad("Selu")
def _selu_grad(op, g):                       # g scale where x > 0, else g (y + scale alpha)
    x, y = op.inputs[0], op.outputs[0]
    return where(greater(x, 0), multiply(g, SELU_SCALE),
                 multiply(g, add(y, SELU_SCALE * SELU_ALPHA)))


@defgrad("LeakyRelu")
def _leaky_relu_grad(op, g):                 # g where x > 0, else alpha g
    return where(greater(op.inputs[0], 0), g, multiply(g, op.attrs["alpha"]))


@defgrad("Softmax")
def _softmax_grad(op, g):                    # (g - sum(g y)) y
    y = op.outputs[0]
    return multiply(subtract(g, reduce_sum(multiply(g, y), -1, keepdims=True)), y)


@defgrad("LogSoftmax")
def _log_softmax_grad(op, g):                # g - exp(y) sum(g)
    return subtract(g, multiply(exp(op.outputs[0]), reduce_sum(g, -1, keepdims=True)))


@defgrad("BiasAdd")
def _bias_add_grad(op, g):                   # g, and g summed over all but the channels
    rank = g.shape.rank
    axis = bias_axis(rank, op.attrs["data_format"])
    return g, reduce_sum(g, [i for i in range(rank) if i != axis])


@defgrad("L2Loss")
def _l2_loss_grad(op, g):                    # d sum(x^2)/2 = x
    return multiply(op.inputs[0], g)


@defgrad("SparseSoftmaxCrossEntropyWithLogits")
def _sparse_xent_grad(op, g_loss, g_backprop):
    """The kernel's second output is the gradient of the loss w.r.t. the logits."""
    return multiply(expand_dims(g_loss, -1), op.outputs[1]), None


@defgrad("SoftmaxCrossEntropyWithLogits")
def _xent_grad(op, g_loss, g_backprop):
    features, labels = op.inputs
    scale = expand_dims(g_loss, -1)
    # softmax * sum(labels) - labels: the kernel's backprop output when labels sum to 1
    total = reduce_sum(labels, -1, keepdims=True)
    exact = subtract(multiply(softmax(features), total), labels)
    return multiply(scale, exact), multiply(scale, negative(log_softmax(features)))


@defgrad("LRN")
def _lrn_grad(op, g):                        # the LRNGrad record, from x and y
    attrs = {k: op.attrs[k] for k in ("depth_radius", "bias", "alpha", "beta")}
    return lrn_grad_op(g, op.inputs[0], op.outputs[0], **attrs)


@defgrad("CTCLoss")
def _ctc_loss_grad(op, g_loss, _):           # the kernel's own gradient, per sequence scaled
    return multiply(expand_dims(expand_dims(g_loss, 0), -1), op.outputs[1]), None, None, None
