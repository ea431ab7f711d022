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
            raise ValueError(f"ONNX export of {ctx.op.name}: a -1 split size needs a known dim")
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


@onnx_lowering("StridedSlice")
def lower_strided_slice(ctx, x, begin, end, strides):
    rank = ctx.input_types[0].shape.rank
    if rank is None:
        raise ValueError(f"ONNX export of {ctx.op.name}: a strided slice of unknown rank does "
                         "not lower")
    b = ctx.known(1, "begin").astype(np.int64)
    e = ctx.known(2, "end").astype(np.int64)
    s = ctx.known(3, "strides").astype(np.int64)
    mask = {k: ctx.attrs.get(k, 0) for k in ("begin_mask", "end_mask", "ellipsis_mask",
                                             "new_axis_mask", "shrink_axis_mask")}

    def bit(name, i):
        return mask[name] >> i & 1
    starts, ends, axes, steps, new_axes, shrink = [], [], [], [], [], []
    dim = out = 0  # the input dim and the dim of the result before squeezing
    for i in range(len(b)):
        if bit("ellipsis_mask", i):
            after = sum(1 for j in range(i + 1, len(b)) if not bit("new_axis_mask", j))
            dim, out = rank - after, out + (rank - after - dim)
            continue
        if bit("new_axis_mask", i):
            new_axes.append(out)
            out += 1
            continue
        forward = s[i] > 0
        starts.append((0 if forward else INT64_MAX) if bit("begin_mask", i) else b[i])
        if bit("shrink_axis_mask", i):
            ends.append(b[i] + 1 if b[i] != -1 else INT64_MAX)
            shrink.append(out)
        else:
            ends.append((INT64_MAX if forward else INT64_MIN) if bit("end_mask", i) else e[i])
        axes.append(dim)
        steps.append(1 if bit("shrink_axis_mask", i) else s[i])
        dim, out = dim + 1, out + 1
    y = x
    if axes:
        y = ctx.node("Slice", [x, ctx.const(starts, np.int64), ctx.const(ends, np.int64),
                               ctx.const(axes, np.int64), ctx.const(steps, np.int64)])
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
        raise ValueError(f"ONNX export of {ctx.op.name}: ONNX pads by reflection only, not "
                         f"{ctx.attrs['mode']}")
    return ctx.node("Pad", [x, _pads(ctx, paddings)], mode="reflect")


@onnx_lowering("Roll")
def lower_roll(ctx, x, shift, axis):
    shifts = ctx.known(1, "shift").reshape(-1).astype(int).tolist()
    axes = ctx.known(2, "axis").reshape(-1).astype(int).tolist()
    shape = ctx.input_types[0].shape
    for s, a in zip(shifts, axes):
        n = shape[a]
        if n is None:
            raise ValueError(f"ONNX export of {ctx.op.name}: rolling a dim of unknown size "
                             "does not lower")
        s %= max(n, 1)
        if s == 0:
            continue
        head = ctx.node("Slice", [x, ctx.const([n - s], np.int64), ctx.const([n], np.int64),
                                  ctx.const([a], np.int64)])
        tail = ctx.node("Slice", [x, ctx.const([0], np.int64), ctx.const([n - s], np.int64),
                                  ctx.const([a], np.int64)])
        x = ctx.node("Concat", [head, tail], axis=a)
    return ctx.node("Identity", [x])
