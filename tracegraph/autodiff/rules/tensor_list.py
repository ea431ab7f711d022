"""Gradient rules of the TensorList records behind `tf.TensorArray` (TensorFlow's list_ops
gradients). The gradient of a list is a list of the same length holding each element's
gradient (unwritten elements count as zeros); gradients of one list from several uses add up
element by element (AddN of lists), and an unused list's gradient is ZerosLike of it."""

from __future__ import annotations

from ...library.array import zeros_like
from ...ops.tensor_list import (
    tensor_list_concat_op,
    tensor_list_from_tensor_op,
    tensor_list_gather_op,
    tensor_list_get_item_op,
    tensor_list_length_op,
    tensor_list_reserve_op,
    tensor_list_resize_op,
    tensor_list_scatter_op,
    tensor_list_set_item_op,
    tensor_list_split_op,
    tensor_list_stack_op,
)
from ..registry import defgrad


def _known_dims(x, drop_first=False):
    """x's static dims (None where unknown) as an element_shape attr, None for unknown rank."""
    if x.shape.rank is None:
        return None
    dims = tuple(x.shape.as_list())
    return dims[1:] if drop_first else dims


def _zeros_list(like, dtype, element_shape):
    """A list as long as `like` whose elements are all unwritten (they read as zeros)."""
    return tensor_list_reserve_op(tensor_list_length_op(like), element_dtype=dtype,
                                  element_shape=element_shape)


@defgrad("TensorListStack")
def _stack_grad(op, g):                      # the list of g's rows
    return tensor_list_from_tensor_op(g, element_shape=_known_dims(g, drop_first=True))


@defgrad("TensorListFromTensor")
def _from_tensor_grad(op, dlist):            # the rows of the list's gradient, stacked
    t = op.inputs[0]
    first = t.shape.as_list()[0] if t.shape.rank else None
    return tensor_list_stack_op(dlist, element_dtype=t.dtype,
                                element_shape=_known_dims(t, drop_first=True),
                                num_elements=-1 if first is None else first)


@defgrad("TensorListConcatV2")
def _concat_grad(op, g, unused_lengths):     # g split back into the elements' lengths
    return tensor_list_split_op(g, op.outputs[1], element_shape=op.attrs.get("element_shape"))


@defgrad("TensorListSplit")
def _split_grad(op, dlist):                  # the elements' gradients, concatenated
    t = op.inputs[0]
    shape = _known_dims(t)
    element_shape = None if shape is None else (None,) + shape[1:]
    value, _ = tensor_list_concat_op(dlist, element_dtype=t.dtype, element_shape=element_shape)
    return value, None


@defgrad("TensorListGetItem")
def _get_item_grad(op, ditem):               # a list of zeros with ditem at the index read
    dtype = op.attrs["element_dtype"]
    zeros = _zeros_list(op.inputs[0], dtype, _known_dims(ditem))
    return tensor_list_set_item_op(zeros, op.inputs[1], ditem), None


@defgrad("TensorListSetItem")
def _set_item_grad(op, dlist):
    """The written element gets the list gradient's element at the index; the list written
    into gets the list gradient with that element zeroed (what it held was overwritten)."""
    index, item = op.inputs[1], op.inputs[2]    # (the list written into is read only to resize)
    element_grad = tensor_list_get_item_op(dlist, index, element_dtype=item.dtype,
                                           element_shape=_known_dims(item))
    list_grad = tensor_list_set_item_op(dlist, index, zeros_like(item))
    if op.attrs.get("resize_if_index_out_of_bounds"):   # back to the length written into
        list_grad = tensor_list_resize_op(list_grad, tensor_list_length_op(op.inputs[0]))
    return list_grad, None, element_grad


@defgrad("TensorListResize")
def _resize_grad(op, dlist):                 # back to the input's length
    return tensor_list_resize_op(dlist, tensor_list_length_op(op.inputs[0])), None


@defgrad("TensorListGather")
def _gather_grad(op, g):                     # g's rows scattered into a list of zeros
    zeros = _zeros_list(op.inputs[0], op.attrs["element_dtype"],
                        _known_dims(g, drop_first=True))
    return tensor_list_scatter_op(zeros, g, op.inputs[1]), None


@defgrad("TensorListScatterIntoExistingList")
def _scatter_grad(op, dlist):
    """The scattered rows get the list gradient's elements at their indices; the list
    scattered into gets the list gradient with those elements zeroed."""
    tensor, indices = op.inputs[1], op.inputs[2]
    dtensor = tensor_list_gather_op(dlist, indices, element_dtype=tensor.dtype,
                                    element_shape=_known_dims(tensor, drop_first=True))
    list_grad = tensor_list_scatter_op(dlist, zeros_like(tensor), indices)
    return list_grad, dtensor, None
