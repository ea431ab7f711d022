"""Gradient rules of the joining, splitting and rearranging records (concat, stack, split,
tile, slice, reverse, pad, mirror_pad, broadcast_to, roll), set as the records' `gradient`
fields, and `MirrorPadGrad`, the backprop record of MirrorPad."""

from __future__ import annotations

import numpy as np

from .. import dtypes as d
from ..shapes import TensorType
from . import gradutil as G
from . import infer as I
from .join_split import concat_op, pack_op, split_op, split_v_op, unpack_op
from .rearrange import (
    broadcast_to_op,
    mirror_pad_op,
    pad_op,
    reverse_op,
    roll_op,
    slice_op,
    tile_op,
)
from .registry import INDEX, NUMBER, REQUIRED, TypeAttr, bind, defgrad, defop

# ---- gradient rules ---------------------------------------------------------------------------


def _axis_of(tensor, rank) -> int:
    value = G.static_value(tensor)
    if value is None:
        raise NotImplementedError("this gradient needs its axis known at trace time")
    return int(value) % rank if rank else 0


@defgrad(concat_op)
def _concat_grad(op, g):
    values = op.inputs[:-1]
    axis = _axis_of(op.inputs[-1], g.shape.rank)
    sizes = [G.dims(v)[axis] for v in values]
    if len(values) == 1:
        return [g, None]
    parts = G.op("split_v", g, G.as_shape(sizes), axis, num_split=len(values))
    return list(parts) + [None]


@defgrad(pack_op)
def _pack_grad(op, g):
    return list(G.op("unpack", g, num=len(op.inputs), axis=op.attrs["axis"]))


@defgrad(unpack_op)
def _unpack_grad(op, *grads):
    return G.op("pack", list(grads), axis=op.attrs["axis"])


@defgrad(split_op)
def _split_grad(op, *grads):
    return None, G.op("concat", list(grads), op.inputs[0])


@defgrad(split_v_op)
def _split_v_grad(op, *grads):
    return G.op("concat", list(grads), op.inputs[2]), None, None


@defgrad(tile_op)
def _tile_grad(op, g):
    """Each input element appears once per tile: sum over the tiles."""
    x = op.inputs[0]
    multiples = G.static_value(op.inputs[1])
    shape = G.static_shape(x)
    if multiples is None or shape is None:
        raise NotImplementedError("the gradient of tile needs static shapes and multiples")
    split = [n for pair in zip(multiples.tolist(), shape) for n in pair]
    summed = G.reduce_sum(G.reshape(g, np.asarray(split, np.int32)),
                          list(range(0, 2 * len(shape), 2)))
    return G.reshape(summed, np.asarray(shape, np.int32)), None


@defgrad(slice_op)
def _slice_grad(op, g):
    x, begin = op.inputs[0], op.inputs[1]
    full, out = G.dims(x), G.dims(g)
    begin_v = G.static_value(begin)
    if begin_v is None or not all(isinstance(n, int) for n in full + out):
        raise NotImplementedError("the gradient of slice needs static shapes and begin")
    pads = [[int(b), n - int(b) - m] for b, n, m in zip(begin_v.tolist(), full, out)]
    return G.op("pad", g, np.asarray(pads, np.int32), 0), None, None


@defgrad(reverse_op)
def _reverse_grad(op, g):
    return G.op("reverse", g, op.inputs[1]), None


@defgrad(pad_op)
def _pad_grad(op, g):
    x, paddings = op.inputs[0], op.inputs[1]
    pads = G.static_value(paddings)
    if pads is None:
        raise NotImplementedError("the gradient of pad needs paddings known at trace time")
    begin = np.asarray(pads, np.int32)[:, 0]
    inner = G.op("slice", g, begin, G.as_shape(G.dims(x)))
    everything = list(range(g.shape.rank))
    padding = G.op("subtract", G.reduce_sum(g, everything), G.reduce_sum(inner, everything))
    return inner, None, padding


@defgrad(broadcast_to_op)
def _broadcast_to_grad(op, g):
    return G.unbroadcast(g, op.inputs[0]), None


@defgrad(roll_op)
def _roll_grad(op, g):
    return G.op("roll", g, G.op("negative", op.inputs[1]), op.inputs[2]), None, None


def kernel_mirror_pad_grad(input, paddings, mode=REQUIRED):  # noqa: A002
    """Folds the gradient of a mirror-padded tensor back onto the elements that were copied."""
    g = np.asarray(input)
    pads = np.asarray(paddings).reshape(-1, 2)
    numpy_mode = "reflect" if mode == "REFLECT" else "symmetric"
    for axis, (before, after) in enumerate(pads.tolist()):
        n = g.shape[axis] - before - after
        source = np.pad(np.arange(n), (before, after), mode=numpy_mode)
        moved = np.moveaxis(g, axis, 0)
        out = np.zeros((n,) + moved.shape[1:], dtype=g.dtype)
        np.add.at(out, source, moved)
        g = np.moveaxis(out, 0, axis)
    return np.ascontiguousarray(g)


def infer_mirror_pad_grad(input, paddings, mode=REQUIRED):  # noqa: A002
    pads = I.known_ints(paddings)
    if input.shape is None or pads is None:
        return TensorType(input.dtype, None if input.shape is None else
                          (None,) * len(input.shape))
    pairs = np.asarray(pads).reshape(-1, 2)
    return TensorType(input.dtype, tuple(None if n is None else n - int(b) - int(a)
                                         for n, (b, a) in zip(input.shape, pairs)))


mirror_pad_grad_op = defop(
    "mirror_pad_grad", "MirrorPadGrad", inputs=("input: T", "paddings: Tpaddings"),
    attrs={"T": TypeAttr(NUMBER), "Tpaddings": TypeAttr(INDEX, d.int32), "mode": REQUIRED},
    infer=infer_mirror_pad_grad, kernel=kernel_mirror_pad_grad, flags={"pure"})


@defgrad(mirror_pad_op)
def _mirror_pad_grad(op, g):
    return bind(mirror_pad_grad_op, (g, op.inputs[1]), {"mode": op.attrs["mode"]}), None


@defgrad(mirror_pad_grad_op)
def _mirror_pad_grad_grad(op, g):
    return bind(mirror_pad_op, (g, op.inputs[1]), {"mode": op.attrs["mode"]}), None
