"""Gradient rules of the convolutions (TensorFlow's nn_grad): each forward op's gradient is its
two backprop records; the backprop records' own gradients (a transposed convolution is
`Conv2DBackpropInput`, so training one needs them) are the forward op and the other backprop
record, the way TensorFlow writes them."""

from __future__ import annotations

from ...ops.convolution import conv2d_op, conv3d_op, depthwise_conv2d_op
from ...ops.convolution_backprop import (
    conv2d_backprop_filter_op,
    conv2d_backprop_input_op,
    conv3d_backprop_filter_op,
    conv3d_backprop_input_op,
    depthwise_conv2d_backprop_filter_op,
    depthwise_conv2d_backprop_input_op,
)
from ..registry import defgrad, needed
from ..static_shapes import shape_of

_GEOMETRY = ("strides", "padding", "explicit_paddings", "data_format", "dilations")


def conv_attrs(op) -> dict:
    """The geometry attrs a convolution's backprop records take from it."""
    return {k: op.attrs[k] for k in _GEOMETRY if k in op.attrs}


# per forward op type: (forward, backprop w.r.t. input, backprop w.r.t. filter)
FAMILIES = {family[0].tf_type: family for family in (
    (conv2d_op, conv2d_backprop_input_op, conv2d_backprop_filter_op),
    (conv3d_op, conv3d_backprop_input_op, conv3d_backprop_filter_op),
    (depthwise_conv2d_op, depthwise_conv2d_backprop_input_op,
     depthwise_conv2d_backprop_filter_op))}


def conv_input_grads(op, x, w, g, family=conv2d_op.tf_type):
    """(dx, dw) of a convolution of x by w whose output's gradient is g."""
    _, by_input, by_filter = FAMILIES[family]
    attrs = conv_attrs(op)
    dx = by_input(shape_of(x), w, g, **attrs) if needed(op, 0) else None
    dw = by_filter(x, shape_of(w), g, **attrs) if needed(op, 1) else None
    return dx, dw


def _forward_grad(family):
    def rule(op, g):                         # the backprop records, for x and for the filter
        x, w = op.inputs
        return conv_input_grads(op, x, w, g, family)
    return rule


def _backprop_input_grad(family):
    def rule(op, g):   # y = B_in(sizes, w, dy): d/dw = B_filter(g, w's shape, dy), d/d dy = F(g, w)
        forward, _, by_filter = FAMILIES[family]
        _, w, dy = op.inputs
        attrs = conv_attrs(op)
        dw = by_filter(g, shape_of(w), dy, **attrs) if needed(op, 1) else None
        ddy = forward(g, w, **attrs) if needed(op, 2) else None
        return None, dw, ddy
    return rule


def _backprop_filter_grad(family):
    def rule(op, g):   # y = B_filter(x, sizes, dy): d/dx = B_in(x's shape, g, dy), d/d dy = F(x, g)
        forward, by_input, _ = FAMILIES[family]
        x, _, dy = op.inputs
        attrs = conv_attrs(op)
        dx = by_input(shape_of(x), g, dy, **attrs) if needed(op, 0) else None
        ddy = forward(x, g, **attrs) if needed(op, 2) else None
        return dx, None, ddy
    return rule


for _family, (_forward, _by_input, _by_filter) in FAMILIES.items():
    defgrad(_forward.tf_type)(_forward_grad(_family))
    defgrad(_by_input.tf_type)(_backprop_input_grad(_family))
    defgrad(_by_filter.tf_type)(_backprop_filter_grad(_family))
