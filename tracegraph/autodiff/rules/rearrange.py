"""Gradient rules of the rearranging records: tile, slice, reverse, pad, mirror_pad (through
its backprop record MirrorPadGrad), broadcast_to, roll."""

from __future__ import annotations

import numpy as np

from ...library.array import reshape
from ...library.math import negative, subtract
from ...library.rearrange import pad, reverse, roll, slice_
from ...library.reduce import reduce_sum
from ...library.searching import reverse_sequence
from ...ops.rearrange import mirror_pad_grad_op
from ..registry import defgrad
from ..static_shapes import as_shape, dims, static_shape, static_value, unbroadcast


@defgrad("Tile")
def _tile_grad(op, g):
    """Each input element appears once per tile: sum over the tiles."""
    x = op.inputs[0]
    multiples = static_value(op.inputs[1])
    shape = static_shape(x)
    if multiples is None or shape is None:
        raise NotImplementedError("the gradient of tile needs static shapes and multiples")
    split = [n for pair in zip(multiples.tolist(), shape) for n in pair]
    summed = reduce_sum(reshape(g, np.asarray(split, np.int32)),
                        list(range(0, 2 * len(shape), 2)))
    return reshape(summed, np.asarray(shape, np.int32)), None


@defgrad("Slice")
def _slice_grad(op, g):                      # pad g with zeros back to x's shape
    x, begin = op.inputs[0], op.inputs[1]
    full, out = dims(x), dims(g)
    begin_v = static_value(begin)
    if begin_v is None or not all(isinstance(n, int) for n in full + out):
        raise NotImplementedError("the gradient of slice needs static shapes and begin")
    pads = [[int(b), n - int(b) - m] for b, n, m in zip(begin_v.tolist(), full, out)]
    return pad(g, np.asarray(pads, np.int32)), None, None


@defgrad("ReverseV2")
def _reverse_grad(op, g):                    # reverse g the same way
    return reverse(g, op.inputs[1]), None


@defgrad("PadV2")
def _pad_grad(op, g):                        # x's part of g; the pad value gets the rest
    x, paddings = op.inputs[0], op.inputs[1]
    pads = static_value(paddings)
    if pads is None:
        raise NotImplementedError("the gradient of pad needs paddings known at trace time")
    begin = np.asarray(pads, np.int32)[:, 0]
    inner = slice_(g, begin, as_shape(dims(x)))
    everything = list(range(g.shape.rank))
    return inner, None, subtract(reduce_sum(g, everything), reduce_sum(inner, everything))


@defgrad("BroadcastTo")
def _broadcast_to_grad(op, g):               # sum g over the broadcast dims
    return unbroadcast(g, op.inputs[0]), None


@defgrad("Roll")
def _roll_grad(op, g):                       # roll g back
    return roll(g, negative(op.inputs[1]), op.inputs[2]), None, None


@defgrad("MirrorPad")
def _mirror_pad_grad(op, g):                 # fold g onto the elements that were copied
    return mirror_pad_grad_op(g, op.inputs[1], mode=op.attrs["mode"]), None


@defgrad("MirrorPadGrad")
def _mirror_pad_grad_grad(op, g):            # the adjoint of the fold is the mirror pad
    return pad(g, op.inputs[1], mode=op.attrs["mode"]), None


@defgrad("ReverseSequence")
def _reverse_sequence_grad(op, g):           # reversing again puts g back in place
    return reverse_sequence(g, op.inputs[1], seq_axis=op.attrs["seq_dim"],
                            batch_axis=op.attrs["batch_dim"]), None
