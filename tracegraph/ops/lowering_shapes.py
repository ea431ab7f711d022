"""ONNX lowerings of the shape, piece and indexing op records (see `lowering`)."""

from __future__ import annotations

import numpy as np

from .. import dtypes as d
from .lowering import INT64_MAX, INT64_MIN, as_int64, cast_back, known

# ---- shapes and pieces --------------------------------------------------------------------------

def lower_reshape(ctx, x, shape):
    return ctx.node("Reshape", [x, as_int64(ctx, shape, 1)], allowzero=1)


def lower_transpose(ctx, x, perm):
    perm = known(ctx, 1, "perm").astype(int).tolist()
    return ctx.node("Transpose", [x], perm=perm) if perm else ctx.node("Identity", [x])


def lower_squeeze(ctx, x):
    dims = list(ctx.attrs.get("squeeze_dims") or ())
    if not dims:
        return ctx.node("Squeeze", [x])
    return ctx.node("Squeeze", [x, ctx.const(dims, np.int64)])


def lower_expand_dims(ctx, x, dim):
    axis = ctx.node("Reshape", [as_int64(ctx, dim, 1), ctx.const([1], np.int64)])
    return ctx.node("Unsqueeze", [x, axis])


def lower_shape(ctx, x):
    return cast_back(ctx, ctx.node("Shape", [x]), ctx.attrs.get("out_type", d.int32))


def lower_size(ctx, x):
    return cast_back(ctx, ctx.node("Size", [x]), ctx.attrs.get("out_type", d.int32))


def lower_rank(ctx, x):
    return ctx.cast(ctx.node("Size", [ctx.node("Shape", [x])]), d.int32)


def lower_fill(ctx, dims, value):
    return ctx.node("Expand", [value, as_int64(ctx, dims, 0)])


def like(fill_value):
    def lower(ctx, x):
        dtype = ctx.input_types[0].dtype
        value = np.full([1], fill_value, dtype=dtype.numpy_dtype)
        return ctx.node("ConstantOfShape", [ctx.node("Shape", [x])], value=value)
    return lower


def lower_concat(ctx, *args):
    values, axis = args[:-1], int(known(ctx, len(args) - 1, "axis"))
    return ctx.node("Concat", list(values), axis=axis)


def lower_pack(ctx, *values):
    axis = ctx.const([int(ctx.attrs.get("axis", 0))], np.int64)
    parts = [ctx.node("Unsqueeze", [v, axis]) for v in values]
    return ctx.node("Concat", parts, axis=int(ctx.attrs.get("axis", 0)))


def lower_unpack(ctx, value):
    num, axis = int(ctx.attrs["num"]), int(ctx.attrs.get("axis", 0))
    parts = ctx.node("Split", [value], outputs=num, axis=axis) if num > 1 else [value]
    parts = parts if isinstance(parts, list) else [parts]
    axes = ctx.const([axis], np.int64)
    return [ctx.node("Squeeze", [p, axes]) for p in parts]


def lower_split(ctx, split_dim, value):
    axis, num = int(known(ctx, 0, "split_dim")), int(ctx.attrs["num_split"])
    out = ctx.node("Split", [value], outputs=num, axis=axis)
    return out if num > 1 else [out]


def lower_split_v(ctx, value, sizes, axis):
    axis, num = int(known(ctx, 2, "axis")), int(ctx.attrs["num_split"])
    sizes = known(ctx, 1, "size_splits").astype(np.int64)
    if (sizes < 0).any():
        total = ctx.input_types[0].shape[axis]
        if total is None:
            raise ValueError(f"ONNX export of {ctx.op.name}: a -1 split size needs a known dim")
        sizes[sizes < 0] = total - sizes[sizes >= 0].sum()
    out = ctx.node("Split", [value, ctx.const(sizes)], outputs=num, axis=axis)
    return out if num > 1 else [out]


def lower_tile(ctx, x, multiples):
    return ctx.node("Tile", [x, as_int64(ctx, multiples, 1)])


def lower_slice(ctx, x, begin, size):
    begin64, size64 = as_int64(ctx, begin, 1), as_int64(ctx, size, 2)
    end = ctx.node("Add", [begin64, size64])
    negative = ctx.node("Less", [size64, ctx.const(0, np.int64)])
    end = ctx.node("Where", [negative, ctx.const(INT64_MAX, np.int64), end])
    return ctx.node("Slice", [x, begin64, end])


def lower_strided_slice(ctx, x, begin, end, strides):
    rank = ctx.input_types[0].shape.rank
    if rank is None:
        raise ValueError(f"ONNX export of {ctx.op.name}: a strided slice of unknown rank does "
                         "not lower")
    b = known(ctx, 1, "begin").astype(np.int64)
    e = known(ctx, 2, "end").astype(np.int64)
    s = known(ctx, 3, "strides").astype(np.int64)
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


def lower_reverse(ctx, x, axis):
    axes = known(ctx, 1, "axis").reshape(-1).astype(np.int64)
    n = len(axes)
    return ctx.node("Slice", [x, ctx.const([-1] * n, np.int64),
                              ctx.const([INT64_MIN] * n, np.int64), ctx.const(axes),
                              ctx.const([-1] * n, np.int64)])


def _pads(ctx, paddings):
    flat = ctx.node("Transpose", [as_int64(ctx, paddings, 1)], perm=[1, 0])
    return ctx.node("Reshape", [flat, ctx.const([-1], np.int64)])


def lower_pad(ctx, x, paddings, constant):
    return ctx.node("Pad", [x, _pads(ctx, paddings), constant], mode="constant")


def lower_mirror_pad(ctx, x, paddings):
    if ctx.attrs["mode"] != "REFLECT":
        raise ValueError(f"ONNX export of {ctx.op.name}: ONNX pads by reflection only, not "
                         f"{ctx.attrs['mode']}")
    return ctx.node("Pad", [x, _pads(ctx, paddings)], mode="reflect")


def lower_broadcast_to(ctx, x, shape):
    return ctx.node("Expand", [x, as_int64(ctx, shape, 1)])


def lower_gather(ctx, params, indices, axis):
    if ctx.attrs.get("batch_dims"):
        raise ValueError(f"ONNX export of {ctx.op.name}: a gather with batch_dims does not "
                         "lower (ONNX's Gather has none)")
    return ctx.node("Gather", [params, indices], axis=int(known(ctx, 2, "axis")))


def lower_one_hot(ctx, indices, depth, on, off):
    values = ctx.node("Concat", [ctx.node("Reshape", [off, ctx.const([1], np.int64)]),
                                 ctx.node("Reshape", [on, ctx.const([1], np.int64)])], axis=0)
    return ctx.node("OneHot", [indices, depth, values], axis=int(ctx.attrs.get("axis", -1)))


def lower_gather_nd(ctx, params, indices):
    if ctx.attrs.get("batch_dims"):
        raise ValueError(f"ONNX export of {ctx.op.name}: batch_dims does not lower")
    return ctx.node("GatherND", [params, as_int64(ctx, indices, 1)])


def lower_scatter_nd(ctx, indices, updates, shape):
    dtype = ctx.input_types[1].dtype
    zeros = ctx.node("ConstantOfShape", [as_int64(ctx, shape, 2)],
                     value=np.zeros([1], dtype.numpy_dtype))
    return ctx.node("ScatterND", [zeros, as_int64(ctx, indices, 0), updates], reduction="add")


def lower_top_k(ctx, x, k):
    k64 = ctx.node("Reshape", [as_int64(ctx, k, 1), ctx.const([1], np.int64)])
    values, indices = ctx.node("TopK", [x, k64], outputs=2, axis=-1, largest=1, sorted=1)
    return [values, ctx.cast(indices, d.int32)]


def lower_where_indices(ctx, x):
    if ctx.input_types[0].dtype is not d.bool:
        x = ctx.node("Not", [ctx.node("Equal", [x, ctx.const(0, ctx.input_types[0].dtype)])])
    return ctx.node("Transpose", [ctx.node("NonZero", [x])], perm=[1, 0])


def lower_roll(ctx, x, shift, axis):
    shifts = known(ctx, 1, "shift").reshape(-1).astype(int).tolist()
    axes = known(ctx, 2, "axis").reshape(-1).astype(int).tolist()
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


def lower_eye(ctx):
    attrs = ctx.attrs
    columns = attrs.get("num_columns") or attrs["num_rows"]
    eye = np.eye(int(attrs["num_rows"]), int(columns), dtype=attrs["dtype"].numpy_dtype)
    return ctx.const(np.broadcast_to(eye, tuple(attrs.get("batch_shape") or ()) + eye.shape))


def lower_einsum(ctx, *inputs):
    return ctx.node("Einsum", list(inputs), equation=ctx.attrs["equation"])


def lower_l2_loss(ctx, t):
    dtype = ctx.input_types[0].dtype
    total = ctx.node("ReduceSum", [ctx.node("Mul", [t, t])], keepdims=0)
    return ctx.node("Div", [total, ctx.const(2, dtype)])


def lower_softmax_cross_entropy(ctx, features, labels):
    log_probs = ctx.node("LogSoftmax", [features], axis=-1)
    product = ctx.node("Mul", [labels, log_probs])
    loss = ctx.node("Neg", [ctx.node("ReduceSum", [product, ctx.const([-1], np.int64)],
                                     keepdims=0)])
    return [loss, ctx.node("Sub", [ctx.node("Softmax", [features], axis=-1), labels])]


def lower_sparse_softmax_cross_entropy(ctx, features, labels):
    dtype = ctx.input_types[0].dtype
    depth = ctx.node("Gather", [ctx.node("Shape", [features]), ctx.const([-1], np.int64)])
    values = ctx.const([0, 1], dtype)
    dense = ctx.node("OneHot", [as_int64(ctx, labels, 1), depth, values], axis=-1)
    return lower_softmax_cross_entropy(ctx, features, dense)


def lower_const(ctx):
    return ctx.const(ctx.attrs["value"])


def lower_no_op(ctx):
    return []
