"""ONNX lowerings of constants, shapes, and the ops that cut, join, pad and rearrange tensors."""

from __future__ import annotations

import numpy as np

from ... import dtypes as d
from .lowering_table import onnx_lowering

# ---- constants and shapes ------------------------------------------------------------------------

INT64_MAX = np.iinfo(np.int64).max
INT64_MIN = np.iinfo(np.int64).min


@onnx_lowering("Const")
def lower_const(ctx):
    return ctx.const(ctx.attrs["value"])


@onnx_lowering("Shape")
def lower_shape(ctx, x):
    return ctx.cast_back(ctx.node("Shape", [x]), ctx.attrs.get("out_type", d.int32))


@onnx_lowering("Size")
def lower_size(ctx, x):
    return ctx.cast_back(ctx.node("Size", [x]), ctx.attrs.get("out_type", d.int32))


@onnx_lowering("Rank")
def lower_rank(ctx, x):
    return ctx.cast(ctx.node("Size", [ctx.node("Shape", [x])]), d.int32)


@onnx_lowering("Fill")
def lower_fill(ctx, dims, value):
    return ctx.node("Expand", [value, ctx.as_int64(dims, 0)])


_FILL_VALUES = {"ZerosLike": 0, "OnesLike": 1}


@onnx_lowering(*_FILL_VALUES)
def lower_like(ctx, x):
    dtype = ctx.input_types[0].dtype
    value = np.full([1], _FILL_VALUES[ctx.op.type], dtype=dtype.numpy_dtype)
    return ctx.node("ConstantOfShape", [ctx.node("Shape", [x])], value=value)


# ---- reshaping -----------------------------------------------------------------------------------

@onnx_lowering("Reshape")
def lower_reshape(ctx, x, shape):
    return ctx.node("Reshape", [x, ctx.as_int64(shape, 1)], allowzero=1)


@onnx_lowering("Transpose")
def lower_transpose(ctx, x, perm):
    perm = ctx.known(1, "perm").astype(int).tolist()
    return ctx.node("Transpose", [x], perm=perm) if perm else ctx.node("Identity", [x])


@onnx_lowering("Squeeze")
def lower_squeeze(ctx, x):
    dims = list(ctx.attrs.get("squeeze_dims") or ())
    if not dims:
        return ctx.node("Squeeze", [x])
    return ctx.node("Squeeze", [x, ctx.const(dims, np.int64)])


@onnx_lowering("ExpandDims")
def lower_expand_dims(ctx, x, dim):
    axis = ctx.node("Reshape", [ctx.as_int64(dim, 1), ctx.const([1], np.int64)])
    return ctx.node("Unsqueeze", [x, axis])


@onnx_lowering("BroadcastTo")
def lower_broadcast_to(ctx, x, shape):
    return ctx.node("Expand", [x, ctx.as_int64(shape, 1)])


@onnx_lowering("Tile")
def lower_tile(ctx, x, multiples):
    return ctx.node("Tile", [x, ctx.as_int64(multiples, 1)])


# ---- joining and splitting -----------------------------------------------------------------------

@onnx_lowering("ConcatV2")
def lower_concat(ctx, *args):
    values, axis = args[:-1], int(ctx.known(len(args) - 1, "axis"))
    return ctx.node("Concat", list(values), axis=axis)


@onnx_lowering("Pack")
def lower_pack(ctx, *values):
    axis = ctx.const([int(ctx.attrs.get("axis", 0))], np.int64)
    parts = [ctx.node("Unsqueeze", [v, axis]) for v in values]
    return ctx.node("Concat", parts, axis=int(ctx.attrs.get("axis", 0)))


@onnx_lowering("Unpack")
def lower_unpack(ctx, value):
    num, axis = int(ctx.attrs["num"]), int(ctx.attrs.get("axis", 0))
    parts = ctx.node("Split", [value], outputs=num, axis=axis) if num > 1 else [value]
    parts = parts if isinstance(parts, list) else [parts]
    axes = ctx.const([axis], np.int64)
    return [ctx.node("Squeeze", [p, axes]) for p in parts]


@onnx_lowering("Split")
def lower_split(ctx, split_dim, value):
    axis, num = int(ctx.known(0, "split_dim")), int(ctx.attrs["num_split"])
    out = ctx.node("Split", [value], outputs=num, axis=axis)
    return out if num > 1 else [out]


@onnx_lowering("SplitV")
def lower_split_v(ctx, value, sizes, axis):
    axis, num = int(ctx.known(2, "axis")), int(ctx.attrs["num_split"])
    sizes = ctx.known(1, "size_splits").astype(np.int64)
    if (sizes < 0).any():
        total = ctx.input_types[0].shape[axis]
        if total is None:
            ctx.fail("a -1 split size of a dim of unknown size does not lower")
        sizes[sizes < 0] = total - sizes[sizes >= 0].sum()
    out = ctx.node("Split", [value, ctx.const(sizes)], outputs=num, axis=axis)
    return out if num > 1 else [out]


# ---- slicing, reversing, padding, rolling --------------------------------------------------------

@onnx_lowering("Slice")
def lower_slice(ctx, x, begin, size):
    begin64, size64 = ctx.as_int64(begin, 1), ctx.as_int64(size, 2)
    end = ctx.node("Add", [begin64, size64])
    negative = ctx.node("Less", [size64, ctx.const(0, np.int64)])
    end = ctx.node("Where", [negative, ctx.const(INT64_MAX, np.int64), end])
    return ctx.node("Slice", [x, begin64, end])


class _SliceSpec:
    """One of StridedSlice's begin/end/strides inputs: each element a constant when the input
    is known at export time, else a 1-element int64 slice of the run-time tensor (the index
    of a `for i in tf.range(n)` loop, `x[i]`)."""

    def __init__(self, ctx, i: int, name: str):
        self.ctx, self.i, self.name = ctx, i, name
        value = ctx.input_types[i].known_value
        self.known = None if value is None else np.asarray(value).astype(np.int64).reshape(-1)
        self._tensor = None

    def __len__(self):
        if self.known is not None:
            return len(self.known)
        n = self.ctx.input_types[self.i].shape[0] if self.ctx.input_types[
            self.i].shape.rank == 1 else None
        if n is None:
            self.ctx.fail("a slice spec of unknown length does not lower")
        return n

    def __getitem__(self, k: int):
        """Element `k`: an int, or the name of a 1-element int64 tensor."""
        if self.known is not None:
            return int(self.known[k])
        if self._tensor is None:
            self._tensor = self.ctx.as_int64(self.name, self.i)
        ctx = self.ctx
        return ctx.node("Slice", [self._tensor, ctx.const([k], np.int64),
                                  ctx.const([k + 1], np.int64)])


def _element(ctx, value) -> str:
    return ctx.const([value], np.int64) if isinstance(value, int) else value


def _vector(ctx, values: list) -> str:
    """int64 vector of ints and 1-element tensors (a constant when all are ints)."""
    if all(isinstance(v, int) for v in values):
        return ctx.const(values, np.int64)
    return ctx.node("Concat", [_element(ctx, v) for v in values], axis=0)


def _by_sign(ctx, step, positive: int, negative: int):
    """`positive` for a forward step, `negative` for a backward one (a run-time step: Where)."""
    if isinstance(step, int):
        return positive if step > 0 else negative
    forward = ctx.node("Greater", [step, ctx.const([0], np.int64)])
    return ctx.node("Where", [forward, ctx.const([positive], np.int64),
                              ctx.const([negative], np.int64)])


def _shrink_end(ctx, begin):
    """The end of a one-element slice at `begin` (-1 slices to the end)."""
    if isinstance(begin, int):
        return begin + 1 if begin != -1 else INT64_MAX
    last = ctx.node("Equal", [begin, ctx.const([-1], np.int64)])
    return ctx.node("Where", [last, ctx.const([INT64_MAX], np.int64),
                              ctx.node("Add", [begin, ctx.const([1], np.int64)])])


@onnx_lowering("StridedSlice")
def lower_strided_slice(ctx, x, begin, end, strides):
    rank = ctx.input_types[0].shape.rank
    if rank is None:
        ctx.fail("a strided slice of a tensor of unknown rank does not lower")
    b, e, s = (_SliceSpec(ctx, 1, begin), _SliceSpec(ctx, 2, end),
               _SliceSpec(ctx, 3, strides))
    mask = {k: ctx.attrs.get(k, 0) for k in ("begin_mask", "end_mask", "ellipsis_mask",
                                             "new_axis_mask", "shrink_axis_mask")}

    def bit(name, i):
        return mask[name] >> i & 1
    starts, ends, axes, steps, new_axes, shrink = [], [], [], [], [], []
    n = len(b)
    dim = out = 0  # the input dim and the dim of the result before squeezing
    for i in range(n):
        if bit("ellipsis_mask", i):
            after = sum(1 for j in range(i + 1, n) if not bit("new_axis_mask", j))
            dim, out = rank - after, out + (rank - after - dim)
            continue
        if bit("new_axis_mask", i):
            new_axes.append(out)
            out += 1
            continue
        step = 1 if bit("shrink_axis_mask", i) else s[i]
        if isinstance(step, int) and step == 0:
            ctx.fail("a stride of 0 does not lower")
        if bit("shrink_axis_mask", i):        # x[i]: one element at begin (masks ignored)
            starts.append(b[i])
            ends.append(_shrink_end(ctx, starts[-1]))
            shrink.append(out)
        else:
            starts.append(_by_sign(ctx, step, 0, INT64_MAX) if bit("begin_mask", i) else b[i])
            ends.append(_by_sign(ctx, step, INT64_MAX, INT64_MIN) if bit("end_mask", i)
                        else e[i])
        axes.append(dim)
        steps.append(step)
        dim, out = dim + 1, out + 1
    y = x
    if axes:
        y = ctx.node("Slice", [x, _vector(ctx, starts), _vector(ctx, ends),
                               ctx.const(axes, np.int64), _vector(ctx, steps)])
    if new_axes:
        y = ctx.node("Unsqueeze", [y, ctx.const(new_axes, np.int64)])
    if shrink:
        y = ctx.node("Squeeze", [y, ctx.const(shrink, np.int64)])
    return y if y is not x else ctx.node("Identity", [x])


@onnx_lowering("ReverseV2")
def lower_reverse(ctx, x, axis):
    axes = ctx.known(1, "axis").reshape(-1).astype(np.int64)
    n = len(axes)
    return ctx.node("Slice", [x, ctx.const([-1] * n, np.int64),
                              ctx.const([INT64_MIN] * n, np.int64), ctx.const(axes),
                              ctx.const([-1] * n, np.int64)])


def _pads(ctx, paddings):
    flat = ctx.node("Transpose", [ctx.as_int64(paddings, 1)], perm=[1, 0])
    return ctx.node("Reshape", [flat, ctx.const([-1], np.int64)])


@onnx_lowering("PadV2")
def lower_pad(ctx, x, paddings, constant):
    return ctx.node("Pad", [x, _pads(ctx, paddings), constant], mode="constant")


@onnx_lowering("MirrorPad")
def lower_mirror_pad(ctx, x, paddings):
    if ctx.attrs["mode"] != "REFLECT":
        ctx.fail(f"mode {ctx.attrs['mode']} does not lower (ONNX pads by reflection only)")
    return ctx.node("Pad", [x, _pads(ctx, paddings)], mode="reflect")


@onnx_lowering("Roll")
def lower_roll(ctx, x, shift, axis):
    shifts = ctx.known(1, "shift").reshape(-1).astype(int).tolist()
    axes = ctx.known(2, "axis").reshape(-1).astype(int).tolist()
    shape = ctx.input_types[0].shape
    for s, a in zip(shifts, axes):
        n = shape[a]
        if n is None:
            ctx.fail("rolling a dim of unknown size does not lower")
        s %= max(n, 1)
        if s == 0:
            continue
        head = ctx.node("Slice", [x, ctx.const([n - s], np.int64), ctx.const([n], np.int64),
                                  ctx.const([a], np.int64)])
        tail = ctx.node("Slice", [x, ctx.const([0], np.int64), ctx.const([n - s], np.int64),
                                  ctx.const([a], np.int64)])
        x = ctx.node("Concat", [head, tail], axis=a)
    return ctx.node("Identity", [x])
