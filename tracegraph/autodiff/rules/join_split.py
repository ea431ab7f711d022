"""Gradient rules of the joining and splitting records: concat, stack, unstack, split."""

from __future__ import annotations

from ...library.array import shape
from ...library.indexing import gather
from ...library.join_split import concat, split, stack, unstack
from ..registry import defgrad
from ..static_shapes import as_shape, dims, static_value


def _axis_of(tensor, rank) -> int:
    value = static_value(tensor)
    if value is None:
        raise NotImplementedError("this gradient needs its axis known at trace time")
    return int(value) % rank if rank else 0


@defgrad("ConcatV2")
def _concat_grad(op, g):                     # split g at the inputs' sizes
    values = op.inputs[:-1]
    if len(values) == 1:
        return [g, None]
    rank = next((v.shape.rank for v in values if v.shape.rank is not None), g.shape.rank)
    axis = _axis_of(op.inputs[-1], rank)
    # an input of unknown rank (a loop's state read back from a list): its size at run time
    sizes = [dims(v)[axis] if v.shape.rank is not None else gather(shape(v), axis, axis=0)
             for v in values]
    return list(split(g, as_shape(sizes), axis, num=len(values))) + [None]


@defgrad("Pack")
def _pack_grad(op, g):                       # unstack g
    return list(unstack(g, num=len(op.inputs), axis=op.attrs["axis"]))


@defgrad("Unpack")
def _unpack_grad(op, *grads):                # stack the parts' gradients
    return stack(list(grads), axis=op.attrs["axis"])


@defgrad("Split")
def _split_grad(op, *grads):                 # concat the parts' gradients
    return None, concat(list(grads), op.inputs[0])


@defgrad("SplitV")
def _split_v_grad(op, *grads):               # concat the parts' gradients
    return concat(list(grads), op.inputs[2]), None, None
