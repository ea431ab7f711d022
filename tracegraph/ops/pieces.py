"""Taking tensors apart and putting them together: concat, stack/unstack, split, tile, slice,
reverse, pad, broadcast_to, roll (records and public functions)."""

from __future__ import annotations

import numpy as np

from .. import dtypes as d
from ..errors import InvalidArgumentError
from ..shapes import TensorType, broadcast_shapes, format_dims, shapes_compatible
from . import gradutil as G
from . import infer as I
from .array import _PURE, _T, _ints, _runtime, _shape_arg, constant, identity
from .registry import INDEX, NO_ATTRS, REQUIRED, TypeAttr, bind, convert_to_tensor, defgrad, defop

# ---- concat, stack, unstack, split --------------------------------------------------------------


def _concat_shape(shapes, axis_value):
    """ConcatV2's output shape, with TensorFlow's checks (unknown dims and ranks allowed)."""
    known = [(i, s) for i, s in enumerate(shapes) if s is not None]
    if not known:
        return None
    first_index, first = known[0]
    rank = len(first)
    for i, s in known:
        if len(s) != rank:
            raise ValueError(f"ConcatOp : Ranks of all input tensors should match: shape[0] = "
                             f"{format_dims(first)} vs. shape[{i}] = {format_dims(s)}")
    if rank == 0:
        raise ValueError("ConcatOp : Can't concatenate scalars (use tf.stack instead)")
    if axis_value is None:
        return (None,) * rank
    if not -rank <= axis_value < rank:
        raise ValueError(f"ConcatOp : Expected concatenating dimensions in the range [{-rank}, "
                         f"{rank}), but got {axis_value}")
    axis = axis_value % rank
    out = list(first)
    out[axis] = 0
    for i, s in enumerate(shapes):
        if s is None:
            out[axis] = None
            continue
        for j in range(rank):
            if j == axis:
                out[j] = None if out[j] is None or s[j] is None else out[j] + s[j]
            elif out[j] is None:
                out[j] = s[j]
            elif s[j] is not None and s[j] != out[j]:
                raise ValueError(f"ConcatOp : Dimension {j} in both shapes must be equal: "
                                 f"shape[{first_index}] = {format_dims(first)} vs. shape[{i}] = "
                                 f"{format_dims(s)}")
    return tuple(out)


def infer_concat(values, axis):
    a = I.known_ints(axis)
    shape = _concat_shape([v.shape for v in values], None if a is None else a[0])
    return TensorType(values[0].dtype, shape)


def kernel_concat(values, axis):
    _runtime(_concat_shape, [np.shape(v) for v in values], int(axis))
    return np.concatenate(values, axis=int(axis))


concat_op = defop("concat", "ConcatV2", inputs=("values: N * T", "axis: Tidx"),
                  attrs={**_T, "Tidx": TypeAttr(INDEX, d.int32)}, infer=infer_concat,
                  kernel=kernel_concat, flags=_PURE, onnx="Concat")


def _pack_shape(shapes, axis):
    shape, first = None, None
    for i, v in enumerate(shapes):
        if v is None:
            continue
        if shape is None:
            shape, first = v, v
        elif len(shape) != len(v) or not shapes_compatible(shape, v):
            raise ValueError(f"Shapes of all inputs must match: values[0].shape = "
                             f"{format_dims(first)} != values[{i}].shape = {format_dims(v)}")
        else:
            shape = tuple(a if a is not None else b for a, b in zip(shape, v))
    if shape is None:
        return None
    rank = len(shape) + 1
    if not -rank <= axis < rank:
        raise ValueError(f"Argument `axis` = {axis} not in range [{-rank}, {rank})")
    axis %= rank
    return shape[:axis] + (len(shapes),) + shape[axis:]


def infer_pack(values, axis=0):
    return TensorType(values[0].dtype, _pack_shape([v.shape for v in values], axis))


def kernel_pack(values, axis=0):
    _runtime(_pack_shape, [np.shape(v) for v in values], axis)
    return np.stack(values, axis=axis)


pack_op = defop("pack", "Pack", inputs=("values: N * T",), attrs={**_T, "axis": 0},
                infer=infer_pack, kernel=kernel_pack, flags=_PURE)


def _check_unpack_axis(rank: int, axis: int) -> None:
    if not -rank <= axis < rank:
        raise ValueError(f"Argument `axis` = {axis} not in range [{-rank}, {rank})")


def infer_unpack(value, num=REQUIRED, axis=0):
    if value.shape is None:
        return tuple(TensorType(value.dtype, None) for _ in range(num))
    rank = len(value.shape)
    _check_unpack_axis(rank, axis)
    axis %= rank
    rest = value.shape[:axis] + value.shape[axis + 1:]
    return tuple(TensorType(value.dtype, rest) for _ in range(num))


def kernel_unpack(value, num=REQUIRED, axis=0):
    _runtime(_check_unpack_axis, np.ndim(value), axis)
    if np.shape(value)[axis] != num:
        raise InvalidArgumentError(f"Input shape axis {axis} must equal {num}, got shape "
                                   f"{format_dims(np.shape(value))}")
    return [np.take(value, i, axis=axis) for i in range(num)]


unpack_op = defop("unpack", "Unpack", inputs=("value: T",), attrs={**_T, "num": REQUIRED,
                  "axis": 0}, infer=infer_unpack, kernel=kernel_unpack, num_outputs=None,
                  flags=_PURE)


def _split_axis(rank: int, axis: int) -> int:
    if not -rank <= axis < rank:
        raise ValueError(f"-input rank(-{rank}) <= split_dim < input rank ({rank}), but got "
                         f"{axis}")
    return axis % rank


def _split_sizes(total, num_split: int) -> list:
    """Split: `num_split` equal parts of a dim of size `total` (None: unknown)."""
    if num_split < 1:
        raise ValueError(f"Value for attr 'num_split' of {num_split} must be at least minimum 1")
    if total is None:
        return [None] * num_split
    if total % num_split:
        return None
    return [total // num_split] * num_split


def infer_split(axis, value, num_split=REQUIRED):
    a = I.known_ints(axis)
    if value.shape is None or a is None:
        _split_sizes(None, num_split)
        rank = None if value.shape is None else len(value.shape)
        return tuple(TensorType(value.dtype, None if rank is None else (None,) * rank)
                     for _ in range(num_split))
    ax = _split_axis(len(value.shape), a[0])
    sizes = _split_sizes(value.shape[ax], num_split)
    if sizes is None:
        raise ValueError(f"Number of ways to split should evenly divide the split dimension, "
                         f"but got split_dim {a[0]} (size = {value.shape[ax]}) and num_split "
                         f"{num_split}")
    return tuple(TensorType(value.dtype, value.shape[:ax] + (n,) + value.shape[ax + 1:])
                 for n in sizes)


def kernel_split(axis, value, num_split=REQUIRED):
    out = _runtime(infer_split, TensorType(d.int32, (), np.asarray(axis)),
                   TensorType(d.int32, np.shape(value)), num_split)
    ax = int(axis) % np.ndim(value)
    return np.split(value, np.cumsum([t.shape[ax] for t in out])[:-1], axis=ax)


split_op = defop("split", "Split", inputs=("split_dim: int32", "value: T"),
                 attrs={**_T, "num_split": REQUIRED}, infer=infer_split, kernel=kernel_split,
                 num_outputs=None, flags=_PURE)


def _split_v_sizes(total, sizes: list) -> list:
    """SplitV: the sizes with a -1 resolved (None entries stay unknown)."""
    if sizes.count(-1) > 1:
        raise ValueError("There can only be one -1 in the input.")
    if total is None:
        return [None if s == -1 else s for s in sizes]
    known = sum(s for s in sizes if s != -1)
    if (-1 not in sizes and known != total) or (-1 in sizes and known > total):
        raise ValueError(f"Determined shape must either match input shape along split_dim "
                         f"exactly if fully specified, or be less than the size of the input "
                         f"along split_dim if not fully specified.  Got: {known}")
    return [total - known if s == -1 else s for s in sizes]


def infer_split_v(value, size_splits, axis, num_split=REQUIRED):
    sizes, a = I.known_ints(size_splits), I.known_ints(axis)
    if value.shape is None or a is None:
        rank = None if value.shape is None else len(value.shape)
        return tuple(TensorType(value.dtype, None if rank is None else (None,) * rank)
                     for _ in range(num_split))
    ax = _split_axis(len(value.shape), a[0])
    resolved = [None] * num_split if sizes is None else _split_v_sizes(value.shape[ax], sizes)
    return tuple(TensorType(value.dtype, value.shape[:ax] + (n,) + value.shape[ax + 1:])
                 for n in resolved)


def kernel_split_v(value, size_splits, axis, num_split=REQUIRED):
    ax = _runtime(_split_axis, np.ndim(value), int(axis))
    sizes = _runtime(_split_v_sizes, np.shape(value)[ax], _ints(size_splits))
    if len(sizes) != num_split:
        raise InvalidArgumentError(f"num_split ({num_split}) must match the number of size "
                                   f"splits ({len(sizes)})")
    return np.split(value, np.cumsum(sizes)[:-1], axis=ax)


split_v_op = defop("split_v", "SplitV", inputs=("value: T", "size_splits: Tlen", "axis: int32"),
                   attrs={**_T, "Tlen": TypeAttr(INDEX, d.int32), "num_split": REQUIRED},
                   infer=infer_split_v, kernel=kernel_split_v, num_outputs=None, flags=_PURE)

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
    return np.tile(input, m)


tile_op = defop("tile", "Tile", inputs=("input: T", "multiples: Tmultiples"),
                attrs={**_T, "Tmultiples": TypeAttr(INDEX, d.int32)}, infer=infer_tile,
                kernel=kernel_tile, flags=_PURE, onnx="Tile")


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
                 kernel=kernel_slice, flags=_PURE, onnx="Slice")


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
                   kernel=kernel_reverse, flags=_PURE)


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
               kernel=kernel_pad, flags=_PURE, onnx="Pad")


def infer_mirror_pad(input, paddings, mode=REQUIRED):  # noqa: A002
    return infer_pad(input, paddings, mode=mode)


def kernel_mirror_pad(input, paddings, mode=REQUIRED):  # noqa: A002
    pairs = _runtime(_pad_pairs, np.shape(input), paddings, mode)
    return np.pad(input, pairs, mode="reflect" if mode == "REFLECT" else "symmetric")


mirror_pad_op = defop("mirror_pad", "MirrorPad", inputs=("input: T", "paddings: Tpaddings"),
                      attrs={**_T, "Tpaddings": TypeAttr(INDEX, d.int32), "mode": REQUIRED},
                      infer=infer_mirror_pad, kernel=kernel_mirror_pad, flags=_PURE)


def infer_broadcast_to(input, shape):  # noqa: A002
    target = I.known_ints(shape)
    if target is None:
        n = shape.shape[0] if shape.shape else None
        return TensorType(input.dtype, None if n is None else (None,) * n)
    if input.shape is not None and len(input.shape) > len(target):
        raise ValueError(f"Rank of input ({len(input.shape)}) must be no greater than rank of "
                         f"output shape ({len(target)}).")
    out = broadcast_shapes(input.shape, tuple(target))
    if out is not None and tuple(out) != tuple(target):
        raise ValueError(f"Incompatible shapes: {format_dims(input.shape)} vs. "
                         f"{format_dims(tuple(target))}")
    return TensorType(input.dtype, tuple(target))


def kernel_broadcast_to(input, shape):  # noqa: A002
    return np.broadcast_to(input, _ints(shape))


broadcast_to_op = defop("broadcast_to", "BroadcastTo", inputs=("input: T", "shape: Tidx"),
                        attrs={**_T, "Tidx": TypeAttr(INDEX, d.int32)},
                        infer=infer_broadcast_to, kernel=kernel_broadcast_to, flags=_PURE,
                        onnx="Expand")


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
                infer=infer_roll, kernel=kernel_roll, flags=_PURE)

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


def concat(values, axis, name="concat"):
    if not isinstance(values, (list, tuple)):
        values = [values]
    if not values:
        raise ValueError("tf.concat needs at least one tensor to concatenate")
    if len(values) == 1:
        return identity(values[0], name=name)
    return bind(concat_op, (list(values), axis), NO_ATTRS, name)


def stack(values, axis=0, name="stack"):
    """`tf.stack`; `axis` is checked against the known rank before the op runs, as in TF."""
    values = list(values)
    if not values:
        return constant([], d.float32, name=name)
    first = convert_to_tensor(values[0])
    rank = first.shape.rank
    if rank is not None:
        _check_unpack_axis(rank + 1, int(axis))
    return bind(pack_op, (values,), {"axis": int(axis)}, name)


def unstack(value, num=None, axis=0, name="unstack"):
    value = convert_to_tensor(value)
    if value.shape.rank is not None:
        _check_unpack_axis(value.shape.rank, int(axis))
    if num is None:
        shape = value.shape
        if shape.rank is None or shape[axis] is None:
            raise ValueError(f"Cannot infer argument `num` from shape {shape}")
        num = shape[axis]
    return bind(unpack_op, (value,), {"num": int(num), "axis": int(axis)}, name)


def split(value, num_or_size_splits, axis=0, num=None, name="split"):
    """`tf.split`: `num_or_size_splits` equal parts (Split) or parts of the given sizes (SplitV)."""
    if isinstance(num_or_size_splits, (int, np.integer)):
        return bind(split_op, (axis, value), {"num_split": int(num_or_size_splits)}, name)
    sizes = num_or_size_splits
    if num is None:
        num = len(sizes) if isinstance(sizes, (list, tuple)) else None
    if num is None:
        t = convert_to_tensor(sizes)
        num = t.shape[0]
        if num is None:
            raise ValueError("Cannot infer argument `num` from shape <unknown>")
    return bind(split_v_op, (value, sizes, axis), {"num_split": int(num)}, name)


def tile(input, multiples, name=None):  # noqa: A002
    return bind(tile_op, (input, multiples), NO_ATTRS, name)


def slice_(input_, begin, size, name=None):
    return bind(slice_op, (input_, begin, size), NO_ATTRS, name)


def reverse(tensor, axis, name=None):
    return bind(reverse_op, (tensor, axis), NO_ATTRS, name)


def pad(tensor, paddings, mode="CONSTANT", constant_values=0, name=None):
    mode = mode.upper()
    if mode == "CONSTANT":
        return bind(pad_op, (tensor, paddings, constant_values), NO_ATTRS, name)
    if mode not in ("REFLECT", "SYMMETRIC"):
        raise ValueError(f'Value of argument `mode` expected to be one of "CONSTANT", '
                         f'"REFLECT", or "SYMMETRIC". Received `mode` = {mode}')
    return bind(mirror_pad_op, (tensor, paddings), {"mode": mode}, name)


def broadcast_to(input, shape, name=None):  # noqa: A002
    return bind(broadcast_to_op, (input, _shape_arg(shape)), NO_ATTRS, name)


def roll(input, shift, axis, name=None):  # noqa: A002
    return bind(roll_op, (input, shift, axis), NO_ATTRS, name)


