"""Rearranging a tensor's elements without computing: the records of tile, slice, reverse, pad
(and mirror_pad with its backprop record MirrorPadGrad), broadcast_to and roll."""
from __future__ import annotations

import numpy as np

from .. import dtypes as d
from ..errors import InvalidArgumentError
from ..shapes import TensorType, broadcast_shapes, format_dims
from . import infer as I
from .allocation import check_allocation
from .infer import ints as _ints
from .infer import runtime as _runtime
from .registry import ALL_TYPES, INDEX, NUMBER, PURE, REQUIRED, TypeAttr, defop

_T = {"T": TypeAttr(ALL_TYPES)}


# ---- tile, slice, reverse, pad, broadcast_to, roll -----------------------------------------------


def infer_tile(input, multiples):  # noqa: A002
    m = I.known_ints(multiples)
    if input.shape is None:
        return TensorType(input.dtype, None if m is None else (None,) * len(m))
    if m is None:
        return TensorType(input.dtype, (None,) * len(input.shape))
    _check_multiples(len(input.shape), m)
    return TensorType(input.dtype, tuple(None if s is None else s * k
                                         for s, k in zip(input.shape, m)))


def _check_multiples(rank: int, m: list) -> None:
    if len(m) != rank:
        raise ValueError(f"Expected multiples argument to be a vector of length {rank} but got "
                         f"length {len(m)}")
    for i, k in enumerate(m):
        if k < 0:
            raise ValueError(f"Expected multiples[{i}] >= 0, but got {k}")


def kernel_tile(input, multiples):  # noqa: A002
    m = _ints(multiples)
    _runtime(_check_multiples, np.ndim(input), m)
    shape = np.shape(input)
    check_allocation([a * b for a, b in zip((1,) * (len(m) - len(shape)) + shape, m)],
                     np.asarray(input).dtype)
    return np.tile(input, m)


tile_op = defop("tile", "Tile", inputs=("input: T", "multiples: Tmultiples"),
                attrs={**_T, "Tmultiples": TypeAttr(INDEX, d.int32)}, infer=infer_tile,
                kernel=kernel_tile, flags=PURE)


def _slice_bounds(shape: tuple, b: list, s: list) -> list:
    """TensorFlow's Slice checks; returns the (begin, end) of each dim (None: unknown)."""
    if len(b) != len(shape) or len(s) != len(shape):
        raise ValueError(f"Expected begin and size arguments to be 1-D tensors of size "
                         f"{len(shape)}, but got shapes [{len(b)}] and [{len(s)}] instead.")
    out = []
    for i, (dim, bb, ss) in enumerate(zip(shape, b, s)):
        if dim is None:
            out.append((bb, None if ss == -1 else bb + ss))
            continue
        if ss == -1:
            ss = dim - bb
        if not 0 <= bb <= dim:
            raise ValueError(f"Expected begin[{i}] in [0, {dim}], but got {bb}")
        if not 0 <= ss <= dim - bb:
            raise ValueError(f"Expected size[{i}] in [0, {dim - bb}], but got {ss}")
        out.append((bb, bb + ss))
    return out


def infer_slice(input, begin, size):  # noqa: A002
    b, s = I.known_ints(begin), I.known_ints(size)
    n = len(b) if b is not None else (len(s) if s is not None else None)
    if input.shape is None or b is None or s is None:
        rank = len(input.shape) if input.shape is not None else n
        return TensorType(input.dtype, None if rank is None else (None,) * rank)
    bounds = _slice_bounds(input.shape, b, s)
    return TensorType(input.dtype, tuple(None if e is None else e - bb for bb, e in bounds))


def kernel_slice(input, begin, size):  # noqa: A002
    bounds = _runtime(_slice_bounds, np.shape(input), _ints(begin), _ints(size))
    return np.asarray(input)[tuple(slice(bb, e) for bb, e in bounds)]


slice_op = defop("slice", "Slice", inputs=("input: T", "begin: Index", "size: Index"),
                 attrs={**_T, "Index": TypeAttr(INDEX, d.int32)}, infer=infer_slice,
                 kernel=kernel_slice, flags=PURE)


def infer_reverse(tensor, axis):
    axes = I.known_ints(axis)
    if tensor.shape is not None and axes is not None:
        _reverse_axes(len(tensor.shape), axes)
    return TensorType(tensor.dtype, tensor.shape)


def _reverse_axes(rank: int, axes: list) -> tuple:
    out = []
    for i, a in enumerate(axes):
        if not -rank <= a < rank:
            raise ValueError(f"'axis'[{i}] = {a} is out of valid range [0, {rank - 1}")
        if a % rank in out:
            raise ValueError(f"axis {a % rank} specified more than once.")
        out.append(a % rank)
    return tuple(out)


def kernel_reverse(tensor, axis):
    return np.flip(tensor, axis=_runtime(_reverse_axes, np.ndim(tensor), _ints(axis)))


reverse_op = defop("reverse", "ReverseV2", inputs=("tensor: T", "axis: Tidx"),
                   attrs={**_T, "Tidx": TypeAttr(INDEX, d.int32)}, infer=infer_reverse,
                   kernel=kernel_reverse, flags=PURE)


def _pad_pairs(shape: tuple, paddings, mode: str = "CONSTANT") -> list:
    """The (before, after) pairs of Pad/MirrorPad, with TensorFlow's checks."""
    p = np.asarray(paddings)
    if p.ndim != 2 or p.shape[1] != 2 or p.shape[0] != len(shape):
        raise ValueError(f"The first dimension of paddings must be the rank of inputs"
                         f"{format_dims(p.shape)} {format_dims(shape)}")
    pairs = [(int(a), int(b)) for a, b in p]
    for dim, (a, b) in zip(shape, pairs):
        if a < 0 or b < 0:
            what = "Paddings" if mode == "CONSTANT" else "paddings"
            raise ValueError(f"{what} must be non-negative: {a} {b}")
        if dim is None:
            continue
        if mode == "REFLECT" and (a >= dim or b >= dim):
            raise ValueError(f"paddings must be less than the dimension size: {a}, {b} not "
                             f"less than {dim}")
        if mode == "SYMMETRIC" and (a > dim or b > dim):
            raise ValueError(f"paddings must be no greater than the dimension size: {a}, {b} "
                             f"greater than {dim}")
    return pairs


def infer_pad(input, paddings, constant_values=None, mode="CONSTANT"):  # noqa: A002
    p = I.known_value(paddings)
    if input.shape is None or p is None:
        rank = None if input.shape is None else len(input.shape)
        return TensorType(input.dtype, None if rank is None else (None,) * rank)
    pairs = _pad_pairs(input.shape, p, mode)
    return TensorType(input.dtype, tuple(None if s is None else s + a + b
                                         for s, (a, b) in zip(input.shape, pairs)))


def kernel_pad(input, paddings, constant_values):  # noqa: A002
    pairs = _runtime(_pad_pairs, np.shape(input), paddings)
    return np.pad(input, pairs, constant_values=constant_values)


pad_op = defop("pad", "PadV2", inputs=("input: T", "paddings: Tpaddings", "constant_values: T"),
               attrs={**_T, "Tpaddings": TypeAttr(INDEX, d.int32)}, infer=infer_pad,
               kernel=kernel_pad, flags=PURE)


def infer_mirror_pad(input, paddings, mode=REQUIRED):  # noqa: A002
    return infer_pad(input, paddings, mode=mode)


def kernel_mirror_pad(input, paddings, mode=REQUIRED):  # noqa: A002
    pairs = _runtime(_pad_pairs, np.shape(input), paddings, mode)
    return np.pad(input, pairs, mode="reflect" if mode == "REFLECT" else "symmetric")


mirror_pad_op = defop("mirror_pad", "MirrorPad", inputs=("input: T", "paddings: Tpaddings"),
                      attrs={**_T, "Tpaddings": TypeAttr(INDEX, d.int32), "mode": REQUIRED},
                      infer=infer_mirror_pad, kernel=kernel_mirror_pad, flags=PURE)


# MirrorPadGrad, MirrorPad's backprop record: folds a gradient back onto the copied elements.
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
    infer=infer_mirror_pad_grad, kernel=kernel_mirror_pad_grad, flags=PURE)


def infer_broadcast_to(input, shape):  # noqa: A002
    if shape.shape is not None and len(shape.shape) != 1:
        raise ValueError(f"Shape must be rank 1 but is rank {len(shape.shape)}")
    n = shape.shape[0] if shape.shape else None
    if input.shape is not None and n is not None and len(input.shape) > n:
        raise ValueError(f"Shape must be at most rank {n} but is rank {len(input.shape)}")
    target = I.known_ints(shape)
    if target is None:
        return TensorType(input.dtype, None if n is None else (None,) * n)
    if input.shape is not None:   # an unknown input dim may be 1 or the target's: checked later
        for have, want in zip(reversed(input.shape), reversed(target)):
            if have is not None and have not in (1, want):
                raise ValueError(f"Incompatible shapes: {format_dims(input.shape)} vs. "
                                 f"{format_dims(tuple(target))}")
    return TensorType(input.dtype, tuple(target))


def kernel_broadcast_to(input, shape):  # noqa: A002
    """TensorFlow's checks and messages: the shape a vector, the ranks, then the dims."""
    x = np.asarray(input)
    if np.ndim(shape) != 1:
        raise InvalidArgumentError(f"shape must be a vector of {{int32,int64}}, got shape "
                                   f"{format_dims(np.shape(shape))}")
    target = _ints(shape)
    have, want = format_dims(x.shape), format_dims(tuple(target))
    if x.ndim > len(target):
        raise InvalidArgumentError(f"Rank of input ({x.ndim}) must be no greater than rank of "
                                   f"output shape ({len(target)}).")
    try:
        joint = broadcast_shapes(x.shape, tuple(target))
    except ValueError:
        raise InvalidArgumentError(f"Incompatible shapes: {have} vs. {want}") from None
    if tuple(joint) != tuple(target):
        raise InvalidArgumentError(f"Unable to broadcast tensor of shape {have} to tensor of "
                                   f"shape {want}")
    check_allocation(target, x.dtype)
    return np.broadcast_to(x, target)


broadcast_to_op = defop("broadcast_to", "BroadcastTo", inputs=("input: T", "shape: Tidx"),
                        attrs={**_T, "Tidx": TypeAttr(INDEX, d.int32)},
                        infer=infer_broadcast_to, kernel=kernel_broadcast_to, flags=PURE)


def _check_roll(rank: int, shift: list, axis: list) -> None:
    if len(shift) != len(axis):
        raise ValueError("shift and axis must have the same size")
    for a in axis:
        if not -rank <= a < rank:
            raise ValueError(f"axis {a} is out of range")


def infer_roll(input, shift, axis):  # noqa: A002
    s, a = I.known_ints(shift), I.known_ints(axis)
    if input.shape is not None and s is not None and a is not None:
        _check_roll(len(input.shape), s, a)
    return TensorType(input.dtype, input.shape)


def kernel_roll(input, shift, axis):  # noqa: A002
    s, a = _ints(shift), _ints(axis)
    _runtime(_check_roll, np.ndim(input), s, a)
    return np.roll(input, s, axis=tuple(a))


roll_op = defop("roll", "Roll", inputs=("input: T", "shift: Tshift", "axis: Taxis"),
                attrs={**_T, "Tshift": TypeAttr(INDEX, d.int32),
                       "Taxis": TypeAttr(INDEX, d.int32)},
                infer=infer_roll, kernel=kernel_roll, flags=PURE)


def _check_reverse_sequence(shape: tuple, lengths: tuple, seq_dim: int, batch_dim: int) -> None:
    rank = len(shape)
    if len(lengths) != 1:
        raise ValueError(f"Shape must be rank 1 but is rank {len(lengths)}")
    if not 0 <= batch_dim < rank or not 0 <= seq_dim < rank or batch_dim == seq_dim:
        raise ValueError(f"Invalid batch_dim {batch_dim} or seq_dim {seq_dim} for input of "
                         f"rank {rank}")
    if None not in (shape[batch_dim], lengths[0]) and shape[batch_dim] != lengths[0]:
        raise ValueError(f"Dimensions must be equal, but are {shape[batch_dim]} and "
                         f"{lengths[0]}")


def infer_reverse_sequence(input, seq_lengths, seq_dim, batch_dim=0):  # noqa: A002
    if input.shape is not None and seq_lengths.shape is not None:
        _check_reverse_sequence(input.shape, seq_lengths.shape, seq_dim, batch_dim)
    return TensorType(input.dtype, input.shape)


def kernel_reverse_sequence(input, seq_lengths, seq_dim, batch_dim=0):  # noqa: A002
    x, lengths = np.asarray(input), np.asarray(seq_lengths)
    _runtime(_check_reverse_sequence, x.shape, lengths.shape, seq_dim, batch_dim)
    out = x.copy()
    for b, n in enumerate(lengths.tolist()):
        if not 0 <= n <= x.shape[seq_dim]:
            raise InvalidArgumentError(f"seq_lens(0) > input.dim({seq_dim})" if n > 0 else
                                       f"seq_lens({b}) < 0")
        src = [slice(None)] * x.ndim
        src[batch_dim] = b
        src[seq_dim] = slice(0, n)
        dst = list(src)
        out[tuple(dst)] = np.flip(x[tuple(src)], axis=seq_dim - (batch_dim < seq_dim))
    return out


reverse_sequence_op = defop("reverse_sequence", "ReverseSequence",
                            inputs=("input: T", "seq_lengths: Tlen"),
                            attrs={**_T, "Tlen": TypeAttr(INDEX, d.int64), "seq_dim": REQUIRED,
                                   "batch_dim": 0},
                            infer=infer_reverse_sequence, kernel=kernel_reverse_sequence,
                            flags=PURE)
