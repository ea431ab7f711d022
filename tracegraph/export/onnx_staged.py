"""ONNX lowerings waiting to move into their op records (`onnx=` of each `defop`).

STAGING ONLY: the house's rule is one op, one record, so each entry here moves to its record
once the op modules are settled. A string is one ONNX op on the same inputs with no attributes;
`ONE_TO_ONE` lists the records whose own `onnx="Name"` string means exactly that.
"""

from __future__ import annotations

import numpy as np

from .. import dtypes as d

INT64_MAX = np.iinfo(np.int64).max
INT64_MIN = np.iinfo(np.int64).min

ONE_TO_ONE = {
    "identity", "add", "subtract", "multiply", "real_div", "pow", "maximum", "minimum", "equal",
    "less", "greater", "logical_and", "logical_or", "logical_not", "negative", "abs", "sign",
    "sqrt", "exp", "log", "sin", "cos", "tan", "tanh", "sigmoid", "reciprocal", "floor", "ceil",
    "softplus", "softsign", "erf", "is_nan", "is_inf", "add_n", "relu", "elu", "selu", "softmax",
    "log_softmax", "range", "select",
}


def _known(ctx, i, what):
    value = ctx.input_types[i]._value
    if value is None:
        raise ValueError(f"ONNX export of {ctx.op.name} ({ctx.op.type}) needs a constant "
                         f"{what}; it is computed at run time here.")
    return np.asarray(value)


def _int64(ctx, name, i):
    return name if ctx.input_types[i].dtype is d.int64 else ctx.cast(name, d.int64)


def _cast_back(ctx, name, dtype):
    return name if dtype is d.int64 else ctx.cast(name, dtype)


# ---- elementwise ------------------------------------------------------------------------------

def lower_square(ctx, x):
    return ctx.node("Mul", [x, x])


def lower_rsqrt(ctx, x):
    return ctx.node("Reciprocal", [ctx.node("Sqrt", [x])])


def lower_expm1(ctx, x):
    return ctx.node("Sub", [ctx.node("Exp", [x]), ctx.const(1, ctx.input_types[0].dtype)])


def lower_log1p(ctx, x):
    return ctx.node("Log", [ctx.node("Add", [x, ctx.const(1, ctx.input_types[0].dtype)])])


def lower_reciprocal(ctx, x):
    if not ctx.input_types[0].dtype.is_floating:
        raise ValueError(f"ONNX export of {ctx.op.name}: an integer Reciprocal does not lower "
                         "(ONNX has none; TensorFlow has no CPU kernel for it either)")
    return ctx.node("Reciprocal", [x])


def lower_round(ctx, x):
    return x if ctx.input_types[0].dtype.is_integer else ctx.node("Round", [x])


def lower_is_finite(ctx, x):
    return ctx.node("Not", [ctx.node("Or", [ctx.node("IsNaN", [x]), ctx.node("IsInf", [x])])])


def lower_floor_div(ctx, x, y):
    if ctx.input_types[0].dtype.is_floating:
        return ctx.node("Floor", [ctx.node("Div", [x, y])])
    return ctx.node("Div", [ctx.node("Sub", [x, ctx.node("Mod", [x, y], fmod=0)]), y])


def lower_floor_mod(ctx, x, y):
    if ctx.input_types[0].dtype.is_floating:
        q = ctx.node("Floor", [ctx.node("Div", [x, y])])
        return ctx.node("Sub", [x, ctx.node("Mul", [y, q])])
    return ctx.node("Mod", [x, y], fmod=0)


def lower_truncate_div(ctx, x, y):
    q = ctx.node("Div", [x, y])
    if not ctx.input_types[0].dtype.is_floating:
        return q  # integer Div truncates
    negative = ctx.node("Less", [q, ctx.const(0, ctx.input_types[0].dtype)])
    return ctx.node("Where", [negative, ctx.node("Ceil", [q]), ctx.node("Floor", [q])])


def lower_truncate_mod(ctx, x, y):
    return ctx.node("Mod", [x, y], fmod=1)


def lower_squared_difference(ctx, x, y):
    diff = ctx.node("Sub", [x, y])
    return ctx.node("Mul", [diff, diff])


def lower_div_no_nan(ctx, x, y):
    dtype = ctx.input_types[0].dtype
    zero = ctx.const(0, dtype)
    return ctx.node("Where", [ctx.node("Equal", [y, zero]), ctx.node(
        "Expand", [zero, ctx.node("Shape", [ctx.node("Div", [x, y])])]), ctx.node("Div", [x, y])])


def lower_not_equal(ctx, x, y):
    return ctx.node("Not", [ctx.node("Equal", [x, y])])


def lower_relu6(ctx, x):
    dtype = ctx.input_types[0].dtype
    return ctx.node("Min", [ctx.node("Relu", [x]), ctx.const(6, dtype)])


def lower_leaky_relu(ctx, x):
    return ctx.node("LeakyRelu", [x], alpha=float(ctx.attrs["alpha"]))


def lower_cast(ctx, x):
    return ctx.cast(x, ctx.attrs["DstT"])


def lower_clip(ctx, x, lo, hi):
    return ctx.node("Max", [ctx.node("Min", [x, hi]), lo])


# ---- matrices ---------------------------------------------------------------------------------

def _swap_last(ctx, x, rank):
    perm = list(range(rank))
    perm[-2:] = perm[-1], perm[-2]
    return ctx.node("Transpose", [x], perm=perm)


def lower_matmul(ctx, a, b):
    if ctx.attrs.get("transpose_a"):
        a = _swap_last(ctx, a, 2)
    if ctx.attrs.get("transpose_b"):
        b = _swap_last(ctx, b, 2)
    return ctx.node("MatMul", [a, b])


def lower_batch_matmul(ctx, x, y):
    if ctx.attrs.get("adj_x"):
        x = _swap_last(ctx, x, ctx.input_types[0].shape.rank)
    if ctx.attrs.get("adj_y"):
        y = _swap_last(ctx, y, ctx.input_types[1].shape.rank)
    return ctx.node("MatMul", [x, y])


_ACTIVATIONS = {"Relu": "Relu", "Tanh": "Tanh", "Sigmoid": "Sigmoid", "Elu": "Elu"}


def lower_fused_matmul(ctx, a, b, bias):
    out = ctx.node("Add", [lower_matmul(ctx, a, b), bias])
    for name in ctx.attrs.get("fused_ops", ())[1:]:
        if name == "Relu6":
            out = lower_relu6(ctx, out)
        elif name == "LeakyRelu":
            out = ctx.node("LeakyRelu", [out], alpha=float(ctx.attrs.get("leakyrelu_alpha", 0.2)))
        else:
            out = ctx.node(_ACTIVATIONS[name], [out])
    return out


def lower_bias_add(ctx, value, bias):
    if ctx.attrs.get("data_format", "NHWC") == "NHWC":
        return ctx.node("Add", [value, bias])
    rank = ctx.input_types[0].shape.rank
    shaped = ctx.node("Unsqueeze", [bias, ctx.const(list(range(1, rank - 1)), np.int64)])
    return ctx.node("Add", [value, shaped])


# ---- reductions --------------------------------------------------------------------------------

def _reduce(op_type):
    def lower(ctx, x, axes):
        axes_value = _known(ctx, 1, "axis").reshape(-1).astype(np.int64)
        if axes_value.size == 0:
            return ctx.node("Identity", [x])
        keep = int(bool(ctx.attrs.get("keep_dims")))
        if op_type == "ReduceSum" or ctx.opset >= 18:
            return ctx.node(op_type, [x, ctx.const(axes_value)], keepdims=keep)
        return ctx.node(op_type, [x], axes=axes_value.tolist(), keepdims=keep)
    return lower


def _reduce_bool(op_type):
    inner = _reduce(op_type)

    def lower(ctx, x, axes):
        as_int = ctx.cast(x, d.int32)
        return ctx.cast(inner(ctx, as_int, axes), d.bool)
    return lower


def _arg(op_type):
    def lower(ctx, x, dimension):
        axis = int(_known(ctx, 1, "dimension"))
        out = ctx.node(op_type, [x], axis=axis, keepdims=0)
        return _cast_back(ctx, out, ctx.attrs.get("output_type", d.int64))
    return lower


def lower_cumsum(ctx, x, axis):
    return ctx.node("CumSum", [x, axis], exclusive=int(bool(ctx.attrs.get("exclusive"))),
                    reverse=int(bool(ctx.attrs.get("reverse"))))


# ---- shapes and pieces --------------------------------------------------------------------------

def lower_reshape(ctx, x, shape):
    return ctx.node("Reshape", [x, _int64(ctx, shape, 1)], allowzero=1)


def lower_transpose(ctx, x, perm):
    perm = _known(ctx, 1, "perm").astype(int).tolist()
    return ctx.node("Transpose", [x], perm=perm) if perm else ctx.node("Identity", [x])


def lower_squeeze(ctx, x):
    dims = list(ctx.attrs.get("squeeze_dims") or ())
    if not dims:
        return ctx.node("Squeeze", [x])
    return ctx.node("Squeeze", [x, ctx.const(dims, np.int64)])


def lower_expand_dims(ctx, x, dim):
    axis = ctx.node("Reshape", [_int64(ctx, dim, 1), ctx.const([1], np.int64)])
    return ctx.node("Unsqueeze", [x, axis])


def lower_shape(ctx, x):
    return _cast_back(ctx, ctx.node("Shape", [x]), ctx.attrs.get("out_type", d.int32))


def lower_size(ctx, x):
    return _cast_back(ctx, ctx.node("Size", [x]), ctx.attrs.get("out_type", d.int32))


def lower_rank(ctx, x):
    return ctx.cast(ctx.node("Size", [ctx.node("Shape", [x])]), d.int32)


def lower_fill(ctx, dims, value):
    return ctx.node("Expand", [value, _int64(ctx, dims, 0)])


def _like(fill_value):
    def lower(ctx, x):
        dtype = ctx.input_types[0].dtype
        value = np.full([1], fill_value, dtype=dtype.numpy_dtype)
        from .onnx import _tensor
        return ctx.node("ConstantOfShape", [ctx.node("Shape", [x])], value=_tensor(value, "v"))
    return lower


def lower_concat(ctx, *args):
    values, axis = args[:-1], int(_known(ctx, len(args) - 1, "axis"))
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
    axis, num = int(_known(ctx, 0, "split_dim")), int(ctx.attrs["num_split"])
    out = ctx.node("Split", [value], outputs=num, axis=axis)
    return out if num > 1 else [out]


def lower_split_v(ctx, value, sizes, axis):
    axis, num = int(_known(ctx, 2, "axis")), int(ctx.attrs["num_split"])
    sizes = _known(ctx, 1, "size_splits").astype(np.int64)
    if (sizes < 0).any():
        total = ctx.input_types[0].shape[axis]
        if total is None:
            raise ValueError(f"ONNX export of {ctx.op.name}: a -1 split size needs a known dim")
        sizes[sizes < 0] = total - sizes[sizes >= 0].sum()
    out = ctx.node("Split", [value, ctx.const(sizes)], outputs=num, axis=axis)
    return out if num > 1 else [out]


def lower_tile(ctx, x, multiples):
    return ctx.node("Tile", [x, _int64(ctx, multiples, 1)])


def lower_slice(ctx, x, begin, size):
    begin64, size64 = _int64(ctx, begin, 1), _int64(ctx, size, 2)
    end = ctx.node("Add", [begin64, size64])
    negative = ctx.node("Less", [size64, ctx.const(0, np.int64)])
    end = ctx.node("Where", [negative, ctx.const(INT64_MAX, np.int64), end])
    return ctx.node("Slice", [x, begin64, end])


def lower_strided_slice(ctx, x, begin, end, strides):
    rank = ctx.input_types[0].shape.rank
    if rank is None:
        raise ValueError(f"ONNX export of {ctx.op.name}: a strided slice of unknown rank does "
                         "not lower")
    b = _known(ctx, 1, "begin").astype(np.int64)
    e = _known(ctx, 2, "end").astype(np.int64)
    s = _known(ctx, 3, "strides").astype(np.int64)
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
    axes = _known(ctx, 1, "axis").reshape(-1).astype(np.int64)
    n = len(axes)
    return ctx.node("Slice", [x, ctx.const([-1] * n, np.int64),
                              ctx.const([INT64_MIN] * n, np.int64), ctx.const(axes),
                              ctx.const([-1] * n, np.int64)])


def _pads(ctx, paddings):
    flat = ctx.node("Transpose", [_int64(ctx, paddings, 1)], perm=[1, 0])
    return ctx.node("Reshape", [flat, ctx.const([-1], np.int64)])


def lower_pad(ctx, x, paddings, constant):
    return ctx.node("Pad", [x, _pads(ctx, paddings), constant], mode="constant")


def lower_mirror_pad(ctx, x, paddings):
    if ctx.attrs["mode"] != "REFLECT":
        raise ValueError(f"ONNX export of {ctx.op.name}: ONNX pads by reflection only, not "
                         f"{ctx.attrs['mode']}")
    return ctx.node("Pad", [x, _pads(ctx, paddings)], mode="reflect")


def lower_broadcast_to(ctx, x, shape):
    return ctx.node("Expand", [x, _int64(ctx, shape, 1)])


def lower_gather(ctx, params, indices, axis):
    if ctx.attrs.get("batch_dims"):
        raise ValueError(f"ONNX export of {ctx.op.name}: a gather with batch_dims does not "
                         "lower (ONNX's Gather has none)")
    return ctx.node("Gather", [params, indices], axis=int(_known(ctx, 2, "axis")))


def lower_one_hot(ctx, indices, depth, on, off):
    values = ctx.node("Concat", [ctx.node("Reshape", [off, ctx.const([1], np.int64)]),
                                 ctx.node("Reshape", [on, ctx.const([1], np.int64)])], axis=0)
    return ctx.node("OneHot", [indices, depth, values], axis=int(ctx.attrs.get("axis", -1)))


def lower_gather_nd(ctx, params, indices):
    if ctx.attrs.get("batch_dims"):
        raise ValueError(f"ONNX export of {ctx.op.name}: batch_dims does not lower")
    return ctx.node("GatherND", [params, _int64(ctx, indices, 1)])


def lower_scatter_nd(ctx, indices, updates, shape):
    dtype = ctx.input_types[1].dtype
    from .onnx import _tensor
    zeros = ctx.node("ConstantOfShape", [_int64(ctx, shape, 2)],
                     value=_tensor(np.zeros([1], dtype.numpy_dtype), "zero"))
    return ctx.node("ScatterND", [zeros, _int64(ctx, indices, 0), updates], reduction="add")


def lower_top_k(ctx, x, k):
    k64 = ctx.node("Reshape", [_int64(ctx, k, 1), ctx.const([1], np.int64)])
    values, indices = ctx.node("TopK", [x, k64], outputs=2, axis=-1, largest=1, sorted=1)
    return [values, ctx.cast(indices, d.int32)]


def lower_where_indices(ctx, x):
    if ctx.input_types[0].dtype is not d.bool:
        x = ctx.node("Not", [ctx.node("Equal", [x, ctx.const(0, ctx.input_types[0].dtype)])])
    return ctx.node("Transpose", [ctx.node("NonZero", [x])], perm=[1, 0])


def lower_roll(ctx, x, shift, axis):
    shifts = _known(ctx, 1, "shift").reshape(-1).astype(int).tolist()
    axes = _known(ctx, 2, "axis").reshape(-1).astype(int).tolist()
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
    dense = ctx.node("OneHot", [_int64(ctx, labels, 1), depth, values], axis=-1)
    return lower_softmax_cross_entropy(ctx, features, dense)


def lower_const(ctx):
    return ctx.const(ctx.attrs["value"])


def lower_no_op(ctx):
    return []


# ---- convolution and pooling (NHWC kept by transposing around ONNX's NCHW ops) ----------------

def _nchw(ctx, x, attrs_format):
    return x if attrs_format == "NCHW" else ctx.node("Transpose", [x], perm=[0, 3, 1, 2])


def _back(ctx, y, attrs_format):
    return y if attrs_format == "NCHW" else ctx.node("Transpose", [y], perm=[0, 2, 3, 1])


def _spatial(values, data_format):
    return list(values[2:4] if data_format == "NCHW" else values[1:3])


def _padding(ctx):
    padding = ctx.attrs["padding"]
    if padding == "SAME":
        return {"auto_pad": "SAME_UPPER"}
    if padding == "VALID":
        return {"auto_pad": "VALID"}
    if padding == "EXPLICIT":
        pairs = np.asarray(ctx.attrs["explicit_paddings"]).reshape(4, 2)
        h, w = _spatial(list(pairs), ctx.attrs.get("data_format", "NHWC"))
        return {"pads": [int(h[0]), int(w[0]), int(h[1]), int(w[1])]}
    raise ValueError(f"ONNX export of {ctx.op.name}: padding {padding!r} does not lower")


def lower_conv2d(ctx, x, filters, bias=None):
    fmt = ctx.attrs.get("data_format", "NHWC")
    weights = ctx.node("Transpose", [filters], perm=[3, 2, 0, 1])
    y = ctx.node("Conv", [_nchw(ctx, x, fmt), weights] + ([] if bias is None else [bias]),
                 strides=_spatial(ctx.attrs["strides"], fmt),
                 dilations=_spatial(ctx.attrs.get("dilations", (1, 1, 1, 1)), fmt),
                 **_padding(ctx))
    return _back(ctx, y, fmt)


def lower_fused_conv2d(ctx, x, filters, bias):
    out = lower_conv2d(ctx, x, filters, bias)
    for name in ctx.attrs.get("fused_ops", ())[1:]:
        out = lower_relu6(ctx, out) if name == "Relu6" else ctx.node(_ACTIVATIONS[name], [out])
    return out


def _pool(op_type):
    def lower(ctx, x):
        fmt = ctx.attrs.get("data_format", "NHWC")
        extra = {"count_include_pad": 0} if op_type == "AveragePool" else {}
        y = ctx.node(op_type, [_nchw(ctx, x, fmt)],
                     kernel_shape=_spatial(ctx.attrs["ksize"], fmt),
                     strides=_spatial(ctx.attrs["strides"], fmt), **_padding(ctx), **extra)
        return _back(ctx, y, fmt)
    return lower


# ---- control flow and calls ----------------------------------------------------------------------

def lower_if(ctx, cond, *args):
    if ctx.input_types[0].dtype is not d.bool:
        cond = ctx.cast(cond, d.bool)
    n = len(ctx.output_types)
    outs = ctx.node("If", [cond], outputs=n,
                    then_branch=ctx.branch(ctx.attrs["then_branch"], args),
                    else_branch=ctx.branch(ctx.attrs["else_branch"], args))
    return [outs] if n == 1 else outs


def lower_while(ctx, *args):
    outs = ctx.loop(ctx.attrs["cond"], ctx.attrs["body"], args)
    return [outs] if isinstance(outs, str) else outs


def lower_call(ctx, *args):
    return ctx.inline(ctx.attrs["f"], args)


STAGED = {
    "const": lower_const, "no_op": lower_no_op, "stop_gradient": "Identity",
    "ensure_shape": "Identity", "read_variable": "Identity",
    "square": lower_square, "rsqrt": lower_rsqrt, "expm1": lower_expm1, "log1p": lower_log1p,
    "round": lower_round, "reciprocal": lower_reciprocal, "rint": "Round",
    "is_finite": lower_is_finite,
    "asin": "Asin", "acos": "Acos", "atan": "Atan",
    "sinh": "Sinh", "cosh": "Cosh", "asinh": "Asinh",
    "acosh": "Acosh", "atanh": "Atanh",
    "floor_div": lower_floor_div, "floor_mod": lower_floor_mod,
    "truncate_div": lower_truncate_div, "truncate_mod": lower_truncate_mod,
    "squared_difference": lower_squared_difference, "div_no_nan": lower_div_no_nan,
    "not_equal": lower_not_equal, "less_equal": "LessOrEqual",
    "greater_equal": "GreaterOrEqual", "relu6": lower_relu6,
    "leaky_relu": lower_leaky_relu, "cast": lower_cast, "clip_by_value": lower_clip,
    "matmul": lower_matmul, "batch_matmul": lower_batch_matmul,
    "fused_matmul": lower_fused_matmul, "bias_add": lower_bias_add,
    "reduce_sum": _reduce("ReduceSum"), "reduce_mean": _reduce("ReduceMean"),
    "reduce_prod": _reduce("ReduceProd"), "reduce_max": _reduce("ReduceMax"),
    "reduce_min": _reduce("ReduceMin"), "reduce_any": _reduce_bool("ReduceMax"),
    "reduce_all": _reduce_bool("ReduceMin"), "argmax": _arg("ArgMax"), "argmin": _arg("ArgMin"),
    "cumsum": lower_cumsum, "reshape": lower_reshape, "transpose": lower_transpose,
    "squeeze": lower_squeeze, "expand_dims": lower_expand_dims, "shape": lower_shape,
    "size": lower_size, "rank": lower_rank, "fill": lower_fill, "zeros_like": _like(0),
    "ones_like": _like(1), "concat": lower_concat, "pack": lower_pack, "unpack": lower_unpack,
    "split": lower_split, "split_v": lower_split_v, "tile": lower_tile, "slice": lower_slice,
    "strided_slice": lower_strided_slice, "reverse": lower_reverse, "pad": lower_pad,
    "mirror_pad": lower_mirror_pad, "broadcast_to": lower_broadcast_to, "gather": lower_gather,
    "one_hot": lower_one_hot, "conv2d": lower_conv2d, "fused_conv2d": lower_fused_conv2d,
    "max_pool": _pool("MaxPool"), "avg_pool": _pool("AveragePool"),
    "stateless_if": lower_if, "if": lower_if, "stateless_while": lower_while,
    "while": lower_while, "partitioned_call": lower_call, "stateful_partitioned_call": lower_call,
    "fused_elementwise": lower_call, "fused_loop": lower_call, "logical_xor": "Xor",
    "det": "Det",
    "gather_nd": lower_gather_nd, "scatter_nd": lower_scatter_nd, "top_k": lower_top_k,
    "where_indices": lower_where_indices, "roll": lower_roll, "eye": lower_eye,
    "einsum": lower_einsum, "l2_loss": lower_l2_loss,
    "softmax_cross_entropy": lower_softmax_cross_entropy,
    "sparse_softmax_cross_entropy": lower_sparse_softmax_cross_entropy,
}
