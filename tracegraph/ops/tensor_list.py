"""TensorList ops: the values behind `tf.TensorArray` (as TensorFlow 2 graphs use them).

A list is the runtime value of a `variant` scalar tensor: a `TensorList`, immutable, so every
op that changes a list returns a new one and the ops are pure (a list threads through `While`
loop carries like any tensor, TensorFlow's "flow"). Elements not written yet read as zeros of
the list's element shape. Type inference knows only what the attrs say: `element_shape` is
the shape the Python `TensorArray` knows (from its constructor and the writes it has seen).

Lists are runtime objects, not arrays: inference never computes a list's value at trace time
(their output dtype is `variant`) and constant folding never folds one (the records that make
lists carry the `opaque_output` flag).
"""

from __future__ import annotations

import numpy as np

from .. import dtypes as d
from ..errors import InvalidArgumentError
from ..shapes import TensorType, format_dims, shapes_compatible
from .list_value import TensorList
from .registry import ALL_TYPES, INDEX, REQUIRED, TypeAttr, defop

__all__ = ["TensorList"]


_VARIANT = TensorType(d.variant, ())
_MAKES_LIST = {"opaque_output"}  # the output is a TensorList: never folded into a constant
_LIST_ATTRS = {"element_dtype": REQUIRED, "element_shape": None}


def _shape_attr(element_shape):
    return None if element_shape is None else tuple(element_shape)


def _defined(shape) -> bool:
    return shape is not None and all(s is not None for s in shape)


def _zeros(lst: TensorList, index: int, hint=None) -> np.ndarray:
    """What an unwritten element reads as: zeros of the element shape, taken from the op's
    `element_shape` attr (`hint`), the list's shape or, if neither is fully known, from a
    written element."""
    shape = tuple(hint) if _defined(hint) else lst.element_shape
    if not _defined(shape):
        written = next((x for x in lst.items if x is not None), None)
        if written is None or (shape is not None and not shapes_compatible(shape,
                                                                            written.shape)):
            raise InvalidArgumentError(
                f"Tried to read element {index} of a list which only contains uninitialized "
                f"tensors and has a non-fully-defined element_shape: "
                f"{format_dims(lst.element_shape)}")
        shape = written.shape
    dtype = lst.element_dtype
    if dtype is d.string:
        return np.full(shape, b"", dtype=object)
    return np.zeros(shape, dtype.numpy_dtype)


def _element(lst: TensorList, index: int, hint=None) -> np.ndarray:
    value = lst.get(index)
    return _zeros(lst, index, hint) if value is None else value


def _all_elements(lst: TensorList, hint=None) -> list:
    """Every element (unwritten ones as zeros), reading the version once."""
    return [_zeros(lst, i, hint) if x is None else x for i, x in enumerate(lst.items)]


def _index(lst: TensorList, index, verb: str) -> int:
    i = int(index)
    if i < 0 or i >= len(lst):
        raise InvalidArgumentError(f"Trying to {verb} element {i} in a list with "
                                   f"{len(lst)} elements.")
    return i


def _check_item(lst: TensorList, item: np.ndarray) -> None:
    if not shapes_compatible(lst.element_shape, item.shape):
        raise InvalidArgumentError(
            f"Tried to set a tensor with incompatible shape at a list index. Item element "
            f"shape: {format_dims(item.shape)} list shape: {format_dims(lst.element_shape)}")


# ---- creating lists ------------------------------------------------------------------------------

def infer_reserve(num_elements, element_dtype=REQUIRED, element_shape=None):
    return _VARIANT


def kernel_reserve(num_elements, element_dtype=REQUIRED, element_shape=None):
    n = int(num_elements)
    if n < 0:
        raise InvalidArgumentError(f"num_elements must be >= 0, got {n}")
    return TensorList((None,) * n, element_dtype, _shape_attr(element_shape))


tensor_list_reserve_op = defop(
    "tensor_list_reserve", "TensorListReserve", inputs=("num_elements: int32",),
    attrs=_LIST_ATTRS, infer=infer_reserve, kernel=kernel_reserve, flags=_MAKES_LIST)


def infer_from_tensor(tensor, element_shape=None):
    if tensor.rank == 0:
        raise ValueError("TensorListFromTensor requires a tensor of rank >= 1, got a scalar")
    return _VARIANT


def kernel_from_tensor(tensor, element_shape=None):
    tensor = np.asarray(tensor)
    items = tuple(tensor[i] for i in range(tensor.shape[0]))
    shape = _shape_attr(element_shape) if element_shape is not None else tensor.shape[1:]
    return TensorList(items, d.NUMPY_TO_DTYPE[tensor.dtype], shape)


tensor_list_from_tensor_op = defop(
    "tensor_list_from_tensor", "TensorListFromTensor", inputs=("tensor: element_dtype",),
    attrs={"element_dtype": TypeAttr(ALL_TYPES), "element_shape": None},
    infer=infer_from_tensor, kernel=kernel_from_tensor, flags=_MAKES_LIST)


def infer_split(tensor, lengths, element_shape=None):
    if tensor.rank == 0:
        raise ValueError("TensorListSplit requires a tensor of rank >= 1, got a scalar")
    return _VARIANT


def kernel_split(tensor, lengths, element_shape=None):
    tensor = np.asarray(tensor)
    lengths = [int(n) for n in np.asarray(lengths).reshape(-1)]
    if any(n < 0 for n in lengths) or sum(lengths) != tensor.shape[0]:
        raise InvalidArgumentError(f"Expected lengths to be non-negative and to sum to the "
                                   f"first dimension of the tensor ({tensor.shape[0]}), got "
                                   f"{lengths}")
    starts = np.cumsum([0] + lengths)
    items = tuple(tensor[a:b] for a, b in zip(starts[:-1], starts[1:]))
    shape = _shape_attr(element_shape) if element_shape is not None else \
        (None,) + tensor.shape[1:]
    return TensorList(items, d.NUMPY_TO_DTYPE[tensor.dtype], shape)


tensor_list_split_op = defop(
    "tensor_list_split", "TensorListSplit", inputs=("tensor: element_dtype", "lengths: I"),
    attrs={"element_dtype": TypeAttr(ALL_TYPES), "I": TypeAttr(INDEX, d.int64),
           "element_shape": None},
    infer=infer_split, kernel=kernel_split, flags=_MAKES_LIST)


# ---- writing -------------------------------------------------------------------------------------

def infer_set_item(handle, index, item, resize_if_index_out_of_bounds=False):
    if index.rank not in (None, 0):
        raise ValueError(f"The index must be a scalar, got shape {format_dims(index.shape)}")
    return _VARIANT


def kernel_set_item(handle, index, item, resize_if_index_out_of_bounds=False):
    i = int(index)
    n = len(handle)
    if not (resize_if_index_out_of_bounds and i >= n) and (i < 0 or i >= n):
        raise InvalidArgumentError(f"Trying to modify element {i} in a list with "
                                   f"{n} elements.")
    if handle.element_dtype is not d.variant:   # a list of lists holds them as they are
        item = np.asarray(item)
        _check_item(handle, item)
    return handle.with_item(i, item)


tensor_list_set_item_op = defop(
    "tensor_list_set_item", "TensorListSetItem",
    inputs=("input_handle: variant", "index: int32", "item: element_dtype"),
    attrs={"element_dtype": TypeAttr(ALL_TYPES | {d.variant}),   # lists of lists: a loop's
           "resize_if_index_out_of_bounds": False},              # versions of a list
    infer=infer_set_item, kernel=kernel_set_item, flags=_MAKES_LIST)


def infer_scatter(handle, tensor, indices):
    if tensor.rank == 0:
        raise ValueError("TensorListScatterIntoExistingList requires a tensor of rank >= 1")
    return _VARIANT


def kernel_scatter(handle, tensor, indices):
    tensor = np.asarray(tensor)
    indices = [int(i) for i in np.asarray(indices).reshape(-1)]
    if len(indices) != tensor.shape[0]:
        raise InvalidArgumentError(f"Specified a list with shape {format_dims(tensor.shape)} "
                                   f"from a tensor with {len(indices)} indices")
    items = list(handle.items)
    for k, i in enumerate(indices):
        if i < 0:
            raise InvalidArgumentError(f"Indices in TensorListScatter must all be "
                                       f"non-negative, got {i}")
        if i >= len(items):
            items.extend([None] * (i + 1 - len(items)))
        _check_item(handle, tensor[k])
        items[i] = tensor[k]
    return handle.replace(items)


tensor_list_scatter_op = defop(
    "tensor_list_scatter", "TensorListScatterIntoExistingList",
    inputs=("input_handle: variant", "tensor: element_dtype", "indices: int32"),
    attrs={"element_dtype": TypeAttr(ALL_TYPES)}, infer=infer_scatter, kernel=kernel_scatter,
    flags=_MAKES_LIST)


def infer_resize(handle, size):
    if size.rank not in (None, 0):
        raise ValueError(f"size must be a scalar, got shape {format_dims(size.shape)}")
    return _VARIANT


def kernel_resize(handle, size):
    n = int(size)
    if n < 0:
        raise InvalidArgumentError(f"TensorListSlice expects size to be non-negative. Got: {n}")
    items = handle.items
    return handle.replace(items[:n] + (None,) * (n - len(items)))


tensor_list_resize_op = defop(
    "tensor_list_resize", "TensorListResize", inputs=("input_handle: variant", "size: int32"),
    infer=infer_resize, kernel=kernel_resize, flags=_MAKES_LIST)


# ---- reading -------------------------------------------------------------------------------------

def infer_get_item(handle, index, element_dtype=REQUIRED, element_shape=None):
    return TensorType(element_dtype, _shape_attr(element_shape))


def kernel_get_item(handle, index, element_dtype=REQUIRED, element_shape=None):
    return _element(handle, _index(handle, index, "access"), element_shape)


tensor_list_get_item_op = defop(
    "tensor_list_get_item", "TensorListGetItem", inputs=("input_handle: variant",
                                                         "index: int32"),
    attrs=_LIST_ATTRS, infer=infer_get_item, kernel=kernel_get_item)


def _stacked(lst: TensorList, parts, element_shape):
    if parts:
        return np.stack(parts)
    shape = element_shape if element_shape is not None else lst.element_shape
    if shape is None or any(s is None for s in shape):
        shape = tuple(0 if s is None else s for s in (shape or ()))
    return np.zeros((0,) + tuple(shape), lst.element_dtype.numpy_dtype)


def infer_stack(handle, element_dtype=REQUIRED, element_shape=None, num_elements=-1):
    shape = _shape_attr(element_shape)
    first = None if num_elements is None or num_elements < 0 else num_elements
    return TensorType(element_dtype, None if shape is None else (first,) + shape)


def kernel_stack(handle, element_dtype=REQUIRED, element_shape=None, num_elements=-1):
    if not len(handle):
        return _stacked(handle, [], element_shape)
    if all(x is None for x in handle.items) and not _defined(handle.element_shape) and \
            not _defined(element_shape):
        raise InvalidArgumentError(
            f"Tried to stack list which only contains uninitialized tensors and has a "
            f"non-fully-defined element_shape: {format_dims(handle.element_shape)}")
    parts = _all_elements(handle, element_shape)
    shapes = {p.shape for p in parts}
    if len(shapes) > 1:
        raise InvalidArgumentError(f"Tried to stack elements of different shapes: "
                                   f"{', '.join(format_dims(s) for s in sorted(shapes))}")
    return np.stack(parts)


tensor_list_stack_op = defop(
    "tensor_list_stack", "TensorListStack", inputs=("input_handle: variant",),
    attrs={**_LIST_ATTRS, "num_elements": -1}, infer=infer_stack, kernel=kernel_stack,
    flags={"data_dependent_shape"})  # the length is known only with num_elements


def infer_gather(handle, indices, element_dtype=REQUIRED, element_shape=None):
    shape = _shape_attr(element_shape)
    if indices.shape is None or shape is None:
        return TensorType(element_dtype, None)
    return TensorType(element_dtype, tuple(indices.shape) + shape)


def kernel_gather(handle, indices, element_dtype=REQUIRED, element_shape=None):
    indices = np.asarray(indices)
    parts = [_element(handle, _index(handle, i, "access"), element_shape)
             for i in indices.reshape(-1)]
    if not parts:
        out = _stacked(handle, [], element_shape)
        return out.reshape(indices.shape + out.shape[1:])
    out = np.stack(parts)
    return out.reshape(indices.shape + out.shape[1:])


tensor_list_gather_op = defop(
    "tensor_list_gather", "TensorListGather", inputs=("input_handle: variant",
                                                      "indices: int32"),
    attrs=_LIST_ATTRS, infer=infer_gather, kernel=kernel_gather)


def infer_concat(handle, element_dtype=REQUIRED, element_shape=None):
    shape = _shape_attr(element_shape)
    rest = None if shape is None or len(shape) == 0 else (None,) + shape[1:]
    return [TensorType(element_dtype, rest), TensorType(d.int64, (None,))]


def kernel_concat(handle, element_dtype=REQUIRED, element_shape=None):
    parts = _all_elements(handle, element_shape)
    if any(p.ndim == 0 for p in parts):
        raise InvalidArgumentError("Concat saw a scalar shape at index 0 but requires at "
                                   "least vectors.")
    lengths = np.array([p.shape[0] for p in parts], np.int64)
    if not parts:
        shape = element_shape if element_shape is not None else handle.element_shape
        rest = tuple(0 if s is None else s for s in (shape or (0,))[1:])
        return np.zeros((0,) + rest, handle.element_dtype.numpy_dtype), lengths
    return np.concatenate(parts), lengths


tensor_list_concat_op = defop(
    "tensor_list_concat", "TensorListConcatV2", inputs=("input_handle: variant",),
    attrs=_LIST_ATTRS, infer=infer_concat, kernel=kernel_concat, num_outputs=2,
    flags={"data_dependent_shape"})


def infer_length(handle):
    return TensorType(d.int32, ())


def kernel_length(handle):
    return np.int32(len(handle))


tensor_list_length_op = defop(
    "tensor_list_length", "TensorListLength", inputs=("input_handle: variant",),
    infer=infer_length, kernel=kernel_length)
