"""Shape manipulation: Const, Placeholder, Identity, reshape, transpose, concat, stack, squeeze,
expand_dims, tile, slice, shape/size/rank, fill, zeros/ones, broadcast_to, pad, reverse, split.

Shape-like arguments (`shape`, `perm`, `axis`, `multiples`, ...) are tensor inputs, as in
TensorFlow, so they can be computed at run time; inference uses their values when known.
"""

from __future__ import annotations

import numpy as np

from .. import dtypes as d
from ..errors import InvalidArgumentError
from ..shapes import TensorType, as_shape_tuple, broadcast_shapes, format_dims, shapes_compatible
from . import infer as I
from .convert import to_array
from .registry import (
    ALL_TYPES,
    INDEX,
    NO_ATTRS,
    NUMBER,
    REQUIRED,
    TypeAttr,
    bind,
    convert_to_tensor,
    defop,
)

_T = {"T": TypeAttr(ALL_TYPES)}
_PURE = {"pure"}


def _ints(x) -> list:
    return [int(v) for v in np.asarray(x).reshape(-1)]


def _runtime(check, *args):
    """Runs a shape check shared with inference; its ValueError becomes TensorFlow's runtime
    InvalidArgumentError (inference raises ValueError, kernels raise InvalidArgumentError)."""
    try:
        return check(*args)
    except ValueError as e:
        raise InvalidArgumentError(str(e)) from None


# ---- Const, Placeholder, Identity ---------------------------------------------------------------

def infer_const(value=REQUIRED, dtype=REQUIRED):
    return TensorType(dtype, np.shape(value), value)


def kernel_const(value=REQUIRED, dtype=REQUIRED):
    return value


def infer_placeholder(dtype=REQUIRED, shape=None):
    return TensorType(dtype, shape)


const_op = defop("const", "Const", attrs={"value": REQUIRED, "dtype": REQUIRED},
                 infer=infer_const, kernel=kernel_const, flags=_PURE | {"constant"},
                 onnx="Constant")
placeholder_op = defop("placeholder", "Placeholder", attrs={"dtype": REQUIRED, "shape": None},
                       infer=infer_placeholder, kernel=None, flags={"placeholder"})


def kernel_identity(input):  # noqa: A002 - TensorFlow's arg name
    return input


identity_op = defop("identity", "Identity", inputs=("input: T",),
                    attrs={"T": TypeAttr(ALL_TYPES | {d.resource})}, infer=I.same,
                    kernel=kernel_identity, expr="{0}", flags=_PURE | {"identity"},
                    onnx="Identity")
stop_gradient_op = defop("stop_gradient", "StopGradient", inputs=("input: T",), attrs=_T,
                         infer=I.same, kernel=kernel_identity, expr="{0}",
                         flags=_PURE | {"identity"})


def infer_ensure_shape(input, shape=REQUIRED):  # noqa: A002
    want = as_shape_tuple(shape)
    if not shapes_compatible(want, input.shape):
        raise ValueError(f"Shape of tensor {format_dims(input.shape)} is not compatible with "
                         f"expected shape {format_dims(want)}.")
    if want is None:
        return TensorType(input.dtype, input.shape)
    if input.shape is None:
        return TensorType(input.dtype, want)
    return TensorType(input.dtype, tuple(a if a is not None else b
                                         for a, b in zip(want, input.shape)))


def kernel_ensure_shape(input, shape=REQUIRED):  # noqa: A002
    if not shapes_compatible(as_shape_tuple(shape), np.shape(input)):
        raise InvalidArgumentError(f"Shape of tensor input {format_dims(np.shape(input))} is not "
                                   f"compatible with expected shape "
                                   f"{format_dims(as_shape_tuple(shape))}.")
    return input


ensure_shape_op = defop("ensure_shape", "EnsureShape", inputs=("input: T",),
                        attrs={**_T, "shape": REQUIRED}, infer=infer_ensure_shape,
                        kernel=kernel_ensure_shape, flags=_PURE)

# ---- reshape, transpose, squeeze, expand_dims ---------------------------------------------------


def _resolve_reshape(in_shape, target: list):
    """The output shape of Reshape, with TensorFlow's rules for -1 and zero-sized dims."""
    unknown, product, has_zero = None, 1, False
    for i, t in enumerate(target):
        if t == -1:
            if unknown is not None:
                raise ValueError(f"Only one input size may be -1, not both {unknown} and {i}")
            unknown = i
        elif t == 0:
            has_zero = True
        elif t < 0:
            raise ValueError(f"Size {i} must be non-negative, not {t}")
        else:
            product *= t
    if in_shape is None or any(s is None for s in in_shape):
        return tuple(None if t == -1 else t for t in target)
    size = int(np.prod(in_shape, dtype=np.int64))
    out = list(target)
    if unknown is not None:
        # Zero-sized input dims are left out when the target has a zero dim, so the other dims
        # can still be inferred (`reshape(zeros([0, 2]), [0, -1])` is [0, 2]).
        counted = [s for s in in_shape if s > 0 or not has_zero]
        n = int(np.prod(counted, dtype=np.int64))
        missing = n // product
        if len(counted) == len(in_shape) and product * missing != n:
            raise ValueError(f"Input to reshape is a tensor with {n} values, but the requested "
                             f"shape requires a multiple of {product}")
        out[unknown] = missing
    if int(np.prod(out, dtype=np.int64)) != size:
        raise ValueError(f"Input to reshape is a tensor with {size} values, but the requested "
                         f"shape has {int(np.prod(out, dtype=np.int64))}")
    return tuple(out)


def infer_reshape(tensor, shape):
    target = I.known_ints(shape)
    if target is None:
        if shape.shape is not None and len(shape.shape) == 1 and shape.shape[0] is not None:
            return TensorType(tensor.dtype, (None,) * shape.shape[0])
        return TensorType(tensor.dtype, None)
    return TensorType(tensor.dtype, _resolve_reshape(tensor.shape, target))


def kernel_reshape(tensor, shape):
    return np.reshape(tensor, _runtime(_resolve_reshape, np.shape(tensor), _ints(shape)))


reshape_op = defop("reshape", "Reshape", inputs=("tensor: T", "shape: Tshape"),
                   attrs={**_T, "Tshape": TypeAttr(INDEX, d.int32)}, infer=infer_reshape,
                   kernel=kernel_reshape, flags=_PURE, onnx="Reshape")


def _check_perm(rank: int, perm: list) -> None:
    if len(perm) != rank:
        raise ValueError(f"transpose expects a vector of size {rank}. But input(1) is a vector "
                         f"of size {len(perm)}")
    for p in perm:
        if not -rank <= p < rank:
            raise ValueError(f"{p} is out of range [0 .. {rank})")
    for i in range(rank):
        if i not in perm and i - rank not in perm:
            raise ValueError(f"{i} is missing from {{{','.join(map(str, perm))}}}.")


def infer_transpose(x, perm):
    p = I.known_ints(perm)
    if p is None:
        if x.shape is not None:
            return TensorType(x.dtype, (None,) * len(x.shape))
        return TensorType(x.dtype, None)
    if x.shape is None:
        return TensorType(x.dtype, (None,) * len(p))
    _check_perm(len(x.shape), p)
    return TensorType(x.dtype, tuple(x.shape[i] for i in p))


def kernel_transpose(x, perm):
    p = _ints(perm)
    _runtime(_check_perm, np.ndim(x), p)
    return np.transpose(x, p)


transpose_op = defop("transpose", "Transpose", inputs=("x: T", "perm: Tperm"),
                     attrs={**_T, "Tperm": TypeAttr(INDEX, d.int32)}, infer=infer_transpose,
                     kernel=kernel_transpose, flags=_PURE, onnx="Transpose")


def infer_squeeze(input, squeeze_dims=()):  # noqa: A002
    shape = input.shape
    if shape is None:
        return TensorType(input.dtype, None)
    rank = len(shape)
    if squeeze_dims:
        dims = set()
        for a in squeeze_dims:
            if not -rank <= a < rank:
                raise ValueError(f"Tried to squeeze dim index {a} for tensor with {rank} "
                                 "dimensions.")
            a %= rank
            if shape[a] is not None and shape[a] != 1:
                raise ValueError(f"Can not squeeze dim[{a}], expected a dimension of 1, got "
                                 f"{shape[a]}")
            dims.add(a)
        return TensorType(input.dtype, tuple(s for i, s in enumerate(shape) if i not in dims))
    if any(s is None for s in shape):
        return TensorType(input.dtype, None)
    return TensorType(input.dtype, tuple(s for s in shape if s != 1))


def kernel_squeeze(input, squeeze_dims=()):  # noqa: A002
    if squeeze_dims:
        shape = np.shape(input)
        for a in squeeze_dims:
            if shape[a] != 1:
                raise InvalidArgumentError(f"Can not squeeze dim[{a % len(shape)}], expected a "
                                           f"dimension of 1, got {shape[a]}")
        return np.squeeze(input, axis=tuple({a % len(shape) for a in squeeze_dims}))
    return np.squeeze(input)


squeeze_op = defop("squeeze", "Squeeze", inputs=("input: T",),
                   attrs={**_T, "squeeze_dims": ()}, infer=infer_squeeze, kernel=kernel_squeeze,
                   flags=_PURE, onnx="Squeeze")


def _single_dim(dim) -> None:
    if dim is not None and len(dim) != 1:
        raise ValueError("'dim' must be a tensor with a single value")


def infer_expand_dims(input, dim):  # noqa: A002
    a = I.known_ints(dim)
    _single_dim(a)
    if input.shape is None or a is None:
        return TensorType(input.dtype, None if input.shape is None else
                          (None,) * (len(input.shape) + 1))
    rank = len(input.shape)
    axis = a[0]
    if not -rank - 1 <= axis <= rank:
        raise ValueError(f"Tried to expand dim index {axis} for tensor with {rank} dimensions.")
    axis = axis % (rank + 1)
    return TensorType(input.dtype, input.shape[:axis] + (1,) + input.shape[axis:])


def kernel_expand_dims(input, dim):  # noqa: A002
    a = _ints(dim)
    _runtime(_single_dim, a)
    rank = np.ndim(input)
    if not -rank - 1 <= a[0] <= rank:
        raise InvalidArgumentError(f"Tried to expand dim index {a[0]} for tensor with {rank} "
                                   "dimensions.")
    return np.expand_dims(input, a[0])


expand_dims_op = defop("expand_dims", "ExpandDims", inputs=("input: T", "dim: Tdim"),
                       attrs={**_T, "Tdim": TypeAttr(INDEX, d.int32)}, infer=infer_expand_dims,
                       kernel=kernel_expand_dims, flags=_PURE, onnx="Unsqueeze")

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

# ---- shape, size, rank, fill, zeros_like, ones_like ---------------------------------------------


def infer_shape(input, out_type=d.int32):  # noqa: A002
    if input.shape is None:
        return TensorType(out_type, (None,))
    value = None
    if all(s is not None for s in input.shape):
        value = np.array(input.shape, dtype=out_type.as_numpy_dtype)
    return TensorType(out_type, (len(input.shape),), value)


def kernel_shape(input, out_type=d.int32):  # noqa: A002
    return np.array(np.shape(input), dtype=out_type.as_numpy_dtype)


def infer_size(input, out_type=d.int32):  # noqa: A002
    value = None
    if input.shape is not None and all(s is not None for s in input.shape):
        value = np.array(int(np.prod(input.shape, dtype=np.int64)), out_type.as_numpy_dtype)
    return TensorType(out_type, (), value)


def kernel_size(input, out_type=d.int32):  # noqa: A002
    return np.array(np.size(input), dtype=out_type.as_numpy_dtype)


def infer_rank(input):  # noqa: A002
    value = None if input.shape is None else np.array(len(input.shape), np.int32)
    return TensorType(d.int32, (), value)


def kernel_rank(input):  # noqa: A002
    return np.array(np.ndim(input), dtype=np.int32)


_ANY_T = {"T": TypeAttr(ALL_TYPES | {d.resource, d.variant})}
shape_op = defop("shape", "Shape", inputs=("input: T",), attrs={**_ANY_T, "out_type": d.int32},
                 infer=infer_shape, kernel=kernel_shape, flags=_PURE | {"shape_of"},
                 onnx="Shape")
size_op = defop("size", "Size", inputs=("input: T",), attrs={**_ANY_T, "out_type": d.int32},
                infer=infer_size, kernel=kernel_size, flags=_PURE | {"shape_of"}, onnx="Size")
rank_op = defop("rank", "Rank", inputs=("input: T",), attrs=_ANY_T, infer=infer_rank,
                kernel=kernel_rank, flags=_PURE | {"shape_of"})


def _check_fill(target, value_shape) -> None:
    if value_shape not in (None, ()):
        raise ValueError(f"value must represent a scalar, got shape {format_dims(value_shape)}")
    for t in target or ():
        if t < 0:
            raise ValueError(f"Dimension {t} must be >= 0")


def infer_fill(dims, value):
    target = I.known_ints(dims)
    _check_fill(target, value.shape)
    if target is None:
        n = dims.shape[0] if dims.shape else None
        return TensorType(value.dtype, None if n is None else (None,) * n)
    return TensorType(value.dtype, tuple(target))


def kernel_fill(dims, value):
    target = _ints(dims)
    _runtime(_check_fill, target, np.shape(value))
    return np.full(target, value, dtype=np.asarray(value).dtype)


fill_op = defop("fill", "Fill", inputs=("dims: index_type", "value: T"),
                attrs={**_T, "index_type": TypeAttr(INDEX, d.int32)}, infer=infer_fill,
                kernel=kernel_fill, flags=_PURE)


def kernel_zeros_like(x):
    x = np.asarray(x)
    if x.dtype == object:
        out = np.empty(x.shape, dtype=object)
        out.fill(b"")
        return out
    return np.zeros_like(x)


def kernel_ones_like(x):
    return np.ones_like(x)


zeros_like_op = defop("zeros_like", "ZerosLike", inputs=("x: T",), attrs=_T, infer=I.same,
                      kernel=kernel_zeros_like, flags=_PURE)
ones_like_op = defop("ones_like", "OnesLike", inputs=("x: T",),
                     attrs={"T": TypeAttr(NUMBER | {d.bool})}, infer=I.same,
                     kernel=kernel_ones_like, flags=_PURE)

# ---- public functions ---------------------------------------------------------------------------


def _is_tensor_like(x) -> bool:
    """Tensors and Variables carry a DType (NumPy values carry a NumPy dtype)."""
    return isinstance(getattr(x, "dtype", None), d.DType)


def constant(value, dtype=None, shape=None, name="Const"):
    """`tf.constant`: a tensor from a Python or NumPy value (a Const op inside graphs)."""
    dtype = None if dtype is None else d.as_dtype(dtype)
    if _is_tensor_like(value):
        t = convert_to_tensor(value)
        if dtype is not None and t.dtype != dtype:
            from .math import cast
            t = cast(t, dtype)
        return t if shape is None else reshape(t, shape)
    arr = to_array(value, dtype)
    if shape is not None:
        target = as_shape_tuple(shape)
        n = int(np.prod(target, dtype=np.int64))
        if np.size(arr) == 1:
            arr = np.full(target, np.asarray(arr).reshape(()), dtype=arr.dtype)
        elif np.size(arr) == n:
            arr = np.reshape(arr, target)
        else:
            raise TypeError(f"Eager execution of tf.constant with unsupported shape. Tensor "
                            f"{np.asarray(arr)} (converted from {value!r}) has {np.size(arr)} "
                            f"elements, but got `shape` {tuple(target)} with {n} elements).")
    return bind(const_op, (), {"value": arr, "dtype": d.NUMPY_TO_DTYPE[arr.dtype]}, name)


def identity(input, name=None):  # noqa: A002
    return bind(identity_op, (input,), NO_ATTRS, name)


def stop_gradient(input, name=None):  # noqa: A002
    return bind(stop_gradient_op, (input,), NO_ATTRS, name)


def ensure_shape(x, shape, name=None):
    return bind(ensure_shape_op, (x,), {"shape": as_shape_tuple(shape)}, name)


def reshape(tensor, shape, name=None):
    return bind(reshape_op, (tensor, _shape_arg(shape)), NO_ATTRS, name)


def _shape_arg(shape):
    """Shapes given as TensorShape or with None dims become -1 vectors; tensors pass through."""
    if isinstance(shape, (list, tuple)) and not any(_is_tensor_like(s) for s in shape):
        return [-1 if s is None else int(s) for s in shape]
    if hasattr(shape, "as_list") and not _is_tensor_like(shape):
        return [-1 if s is None else s for s in shape.as_list()]
    if isinstance(shape, (list, tuple)):
        return stack([s if _is_tensor_like(s) else int(s) for s in shape])
    return shape


def transpose(a, perm=None, conjugate=False, name="transpose"):
    a = convert_to_tensor(a)
    if perm is None:
        rank = a.shape.rank
        if rank is not None:
            perm = list(range(rank - 1, -1, -1))
        else:
            from .indexing import range_
            from .math import subtract
            perm = range_(subtract(rank_(a), 1), -1, -1)
    out = bind(transpose_op, (a, perm), NO_ATTRS, name)
    if conjugate and out.dtype.is_complex:
        from .math import conj
        out = conj(out)
    return out


def squeeze(input, axis=None, name=None):  # noqa: A002
    if axis is None:
        dims = ()
    elif isinstance(axis, int):
        dims = (axis,)
    else:
        dims = tuple(int(a) for a in axis)
    return bind(squeeze_op, (input,), {"squeeze_dims": dims}, name)


def expand_dims(input, axis, name=None):  # noqa: A002
    return bind(expand_dims_op, (input, axis), NO_ATTRS, name)


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


def shape(input, out_type=d.int32, name=None):  # noqa: A002
    return bind(shape_op, (input,), {"out_type": d.as_dtype(out_type)}, name)


def size(input, out_type=d.int32, name=None):  # noqa: A002
    return bind(size_op, (input,), {"out_type": d.as_dtype(out_type)}, name)


def rank_(input, name=None):  # noqa: A002
    return bind(rank_op, (input,), NO_ATTRS, name)


def fill(dims, value, name=None):
    return bind(fill_op, (_shape_arg(dims), value), NO_ATTRS, name)


def zeros(shape, dtype=d.float32, name="zeros"):
    dtype = d.as_dtype(dtype)
    zero = "" if dtype is d.string else (False if dtype is d.bool else 0)
    return bind(fill_op, (_shape_arg(shape), to_array(zero, dtype)), NO_ATTRS, name)


def ones(shape, dtype=d.float32, name="ones"):
    dtype = d.as_dtype(dtype)
    one = True if dtype is d.bool else 1
    return bind(fill_op, (_shape_arg(shape), to_array(one, dtype)), NO_ATTRS, name)


def zeros_like(input, dtype=None, name=None):  # noqa: A002
    t = convert_to_tensor(input)
    if dtype is not None and d.as_dtype(dtype) != t.dtype:
        return zeros(shape(t), dtype, name=name)
    return bind(zeros_like_op, (t,), NO_ATTRS, name)


def ones_like(input, dtype=None, name=None):  # noqa: A002
    t = convert_to_tensor(input)
    if dtype is not None and d.as_dtype(dtype) != t.dtype:
        return ones(shape(t), dtype, name=name)
    return bind(ones_like_op, (t,), NO_ATTRS, name)
