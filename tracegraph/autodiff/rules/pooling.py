"""Gradient rules of pooling (TensorFlow's nn_grad): max pooling's gradient goes to each
window's largest input (`MaxPoolGrad`, `MaxPool3DGrad`), average pooling's is shared by the
window (`AvgPoolGrad`, `AvgPool3DGrad`), whose own gradient is average pooling again."""

from __future__ import annotations

from ...ops.pooling import (
    avg_pool3d_grad_op,
    avg_pool3d_op,
    avg_pool_grad_op,
    avg_pool_op,
    max_pool3d_grad_op,
    max_pool_grad_op,
)
from ..registry import defgrad
from ..static_shapes import shape_of


def _pool_attrs(op) -> dict:
    return {k: op.attrs[k] for k in ("ksize", "strides", "padding", "data_format")}


@defgrad("MaxPool")
def _max_pool_grad(op, g):                   # each window's g to its largest input
    return max_pool_grad_op(op.inputs[0], op.outputs[0], g, **_pool_attrs(op),
                            explicit_paddings=op.attrs.get("explicit_paddings", ()))


@defgrad("MaxPool3D")
def _max_pool3d_grad(op, g):                 # the same, in 3-D
    return max_pool3d_grad_op(op.inputs[0], op.outputs[0], g, **_pool_attrs(op))


@defgrad("MaxPoolWithArgmax")
def _max_pool_with_argmax_grad(op, g, g_argmax):   # the max's g to the input it came from
    attrs = {k: op.attrs[k] for k in ("ksize", "strides", "padding")}
    return max_pool_grad_op(op.inputs[0], op.outputs[0], g, **attrs)


@defgrad("AvgPool")
def _avg_pool_grad(op, g):                   # each window's g shared by the inputs it averaged
    return avg_pool_grad_op(shape_of(op.inputs[0]), g, **_pool_attrs(op))


@defgrad("AvgPool3D")
def _avg_pool3d_grad(op, g):
    return avg_pool3d_grad_op(shape_of(op.inputs[0]), g, **_pool_attrs(op))


@defgrad("AvgPoolGrad")
def _avg_pool_grad_grad(op, gg):             # linear in the upstream gradient: pool it again
    return None, avg_pool_op(gg, **_pool_attrs(op))


@defgrad("AvgPool3DGrad")
def _avg_pool3d_grad_grad(op, gg):
    return None, avg_pool3d_op(gg, **_pool_attrs(op))
