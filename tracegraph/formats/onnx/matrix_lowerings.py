"""ONNX lowerings of matrix products (plain, batched, fused with a bias and activations),
bias additions, einsum and identity matrices."""

from __future__ import annotations

import numpy as np

from .elementwise_lowerings import lower_relu6
from .lowering_table import onnx_lowering

# ---- products ------------------------------------------------------------------------------------

def _swap_last(ctx, x, rank):
    perm = list(range(rank))
    perm[-2:] = perm[-1], perm[-2]
    return ctx.node("Transpose", [x], perm=perm)


@onnx_lowering("MatMul")
def lower_matmul(ctx, a, b):
    if ctx.attrs.get("transpose_a"):
        a = _swap_last(ctx, a, 2)
    if ctx.attrs.get("transpose_b"):
        b = _swap_last(ctx, b, 2)
    return ctx.node("MatMul", [a, b])


@onnx_lowering("BatchMatMulV2")
def lower_batch_matmul(ctx, x, y):
    if ctx.attrs.get("adj_x"):
        x = _swap_last(ctx, x, ctx.input_types[0].shape.rank)
    if ctx.attrs.get("adj_y"):
        y = _swap_last(ctx, y, ctx.input_types[1].shape.rank)
    return ctx.node("MatMul", [x, y])


# the activations a fused op may apply after its bias (Relu6 and LeakyRelu are functions)
FUSED_ACTIVATIONS = {"Relu": "Relu", "Tanh": "Tanh", "Sigmoid": "Sigmoid", "Elu": "Elu"}


@onnx_lowering("_FusedMatMul")
def lower_fused_matmul(ctx, a, b, bias):
    out = ctx.node("Add", [lower_matmul(ctx, a, b), bias])
    for name in ctx.attrs.get("fused_ops", ())[1:]:
        if name == "Relu6":
            out = lower_relu6(ctx, out)
        elif name == "LeakyRelu":
            out = ctx.node("LeakyRelu", [out], alpha=float(ctx.attrs.get("leakyrelu_alpha", 0.2)))
        else:
            out = ctx.node(FUSED_ACTIVATIONS[name], [out])
    return out


@onnx_lowering("Einsum")
def lower_einsum(ctx, *inputs):
    return ctx.node("Einsum", list(inputs), equation=ctx.attrs["equation"])


# ---- biases and constant matrices ----------------------------------------------------------------

@onnx_lowering("BiasAdd")
def lower_bias_add(ctx, value, bias):
    if ctx.attrs.get("data_format", "NHWC") == "NHWC":
        return ctx.node("Add", [value, bias])
    rank = ctx.input_types[0].shape.rank
    shaped = ctx.node("Unsqueeze", [bias, ctx.const(list(range(1, rank - 1)), np.int64)])
    return ctx.node("Add", [value, shaped])


@onnx_lowering("Eye")
def lower_eye(ctx):
    attrs = ctx.attrs
    columns = attrs.get("num_columns") or attrs["num_rows"]
    eye = np.eye(int(attrs["num_rows"]), int(columns), dtype=attrs["dtype"].numpy_dtype)
    return ctx.const(np.broadcast_to(eye, tuple(attrs.get("batch_shape") or ()) + eye.shape))
