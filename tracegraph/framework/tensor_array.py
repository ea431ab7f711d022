"""`tf.TensorArray`: a list of tensors of one dtype, written and read by index.

It wraps a `flow`: the value of the TensorList ops (ops/tensor_list.py). In a graph the flow is
a `variant` tensor and every write returns a new TensorArray around the new flow, so it
threads through `While` loop carries and `cond` outputs like any tensor (the class follows
TensorFlow's nest protocol, `__tf_flatten__`: its one component is the flow). Eagerly the
flow is the list value itself and, as in TensorFlow, `write` also updates the TensorArray it
is called on.

The element shape is known statically as far as the constructor and the writes seen so far
tell; TensorArrays made from one another share that knowledge (a write inside a loop body
gives the stacked result its shape after the loop), as in TensorFlow.
"""

from __future__ import annotations

import numpy as np

from .. import dtypes as d
from ..errors import InvalidArgumentError, OutOfRangeError
from ..ops import tensor_list as tl
from ..ops.array import zeros_like_op
from ..ops.registry import bind, convert_to_tensor
from ..shapes import TensorShape
from .tensor import Tensor

__all__ = ["TensorArray"]


def _static_int(x):
    """The value of a Python int or a tensor whose value is known, else None."""
    if isinstance(x, (int, np.integer)) and not isinstance(x, bool):
        return int(x)
    if isinstance(x, Tensor):
        value = getattr(x, "_value", None)
        if value is not None and np.ndim(value) == 0 and not isinstance(value, tl.TensorList):
            return int(value)
    return None


class _Info:
    """What TensorArrays derived from one another share: dtype, flags, the element shape."""

    __slots__ = ("dtype", "dynamic_size", "infer_shape", "element_shape", "clear_after_read",
                 "read_indices")

    def __init__(self, dtype, dynamic_size, infer_shape, element_shape, clear_after_read):
        self.dtype = dtype
        self.dynamic_size = dynamic_size
        self.infer_shape = infer_shape
        self.element_shape = element_shape
        self.clear_after_read = clear_after_read
        self.read_indices: set = set()  # eagerly: indices cleared by a read, not written since


class TensorArray:
    """A list of tensors of one dtype (`tf.TensorArray`)."""

    def __init__(self, dtype, size=None, dynamic_size=None, clear_after_read=None,
                 tensor_array_name=None, handle=None, flow=None, infer_shape=True,
                 element_shape=None, colocate_with_first_write_call=True, name=None):
        if handle is not None:
            raise ValueError("TensorArray handles are not supported: tracegraph's "
                             "TensorArrays are values (pass flow= to rebuild one).")
        if size is None and flow is None:
            raise ValueError("Size must be provided if handle or flow is not provided.")
        if size is not None and flow is not None:
            raise ValueError("Cannot provide both a flow and size at the same time")
        shape = TensorShape(element_shape) if element_shape is not None else TensorShape(None)
        self._info = _Info(d.as_dtype(dtype), bool(dynamic_size), bool(infer_shape), shape,
                           clear_after_read is None or bool(clear_after_read))
        if flow is None:
            flow = bind(tl.tensor_list_reserve_op, (size,),
                        {"element_dtype": self._info.dtype,
                         "element_shape": self._shape_attr()}, name or "TensorArrayV2")
            self._size = None if dynamic_size else _static_int(size)
        else:
            self._size = None
        self._flow = flow

    # ---- the nest protocol: the flow is the one component -----------------------------------
    def __tf_flatten__(self):
        return (self._info, self._size), (self._flow,)

    @classmethod
    def __tf_unflatten__(cls, metadata, components):
        return cls._from(metadata[0], components[0], metadata[1])

    @classmethod
    def _from(cls, info: _Info, flow, size) -> TensorArray:
        ta = cls.__new__(cls)
        ta._info, ta._flow, ta._size = info, flow, size
        return ta

    def _updated(self, flow, size):
        """Eagerly, the array itself changes (TensorFlow's eager semantics); in a graph, a new
        TensorArray holds the new flow."""
        if isinstance(flow, tl.TensorList):
            self._flow, self._size = flow, size
            return self
        return TensorArray._from(self._info, flow, size)

    @property
    def _eager(self) -> bool:
        return isinstance(self._flow, tl.TensorList)

    # ---- properties --------------------------------------------------------------------------
    @property
    def flow(self):
        return self._flow

    @property
    def handle(self):
        return None

    @property
    def dtype(self) -> d.DType:
        return self._info.dtype

    @property
    def dynamic_size(self) -> bool:
        return self._info.dynamic_size

    @property
    def element_shape(self) -> TensorShape:
        return self._info.element_shape

    def _shape_attr(self):
        dims = self._info.element_shape.as_tuple()
        return None if dims is None else tuple(dims)

    def _merge_shape(self, shape: TensorShape) -> None:
        info = self._info
        if not info.infer_shape:
            return
        if not info.element_shape.is_compatible_with(shape):
            if self._eager:
                raise ValueError(f"Incompatible shape for value ({shape}), expected "
                                 f"({info.element_shape})")
            raise ValueError(f"Inconsistent shapes: saw {shape} but expected "
                             f"{info.element_shape} ")
        info.element_shape = info.element_shape.merge_with(shape)

    def _value(self, value, what="write"):
        if isinstance(value, Tensor) and value.dtype is not self.dtype:
            raise InvalidArgumentError(f"TensorArray dtype is {self.dtype.name} but Op is "
                                       f"trying to {what} dtype {value.dtype.name} ")
        return convert_to_tensor(value, dtype=self.dtype)

    # ---- ops ---------------------------------------------------------------------------------
    def size(self, name=None):
        return bind(tl.tensor_list_length_op, (self._flow,), {}, name or "TensorArrayV2Size")

    def read(self, index, name=None):
        value = bind(tl.tensor_list_get_item_op, (self._flow, self._eager_read_check(index)),
                     {"element_dtype": self.dtype, "element_shape": self._shape_attr()},
                     name or "TensorArrayV2Read")
        if self._eager and self._info.clear_after_read:  # TensorFlow's eager semantics
            # the element reads as zeros from now on; cleared by an op, so that a tape sees
            # that the list no longer holds what was read (its gradient goes to the read only)
            i = int(index)
            zeros = bind(zeros_like_op, (value,), {}, None)
            self._flow = bind(tl.tensor_list_set_item_op, (self._flow, i, zeros), {},
                              "TensorArrayClear")
            self._info.read_indices.add(i)
        return value

    def _eager_read_check(self, index):
        if not self._eager:
            return index
        i = _static_int(convert_to_tensor(index, dtype=d.int32))
        if i < 0:
            raise OutOfRangeError(f"Reading from negative indices (index {i}) is not allowed.")
        if i >= len(self._flow):
            raise OutOfRangeError(f"Tried to read from index {i} but array size is: "
                                  f"{len(self._flow)} ")
        if i in self._info.read_indices:
            raise InvalidArgumentError(
                f"Could not read index {i} twice because it was cleared after a previous read "
                f"(perhaps try setting clear_after_read = false?)")
        return i

    def write(self, index, value, name=None):
        value = self._value(value)
        if self._eager:
            i = _static_int(convert_to_tensor(index, dtype=d.int32))
            self._check_eager_write(i)
            self._info.read_indices.discard(i)
        self._merge_shape(value.shape)
        flow = bind(tl.tensor_list_set_item_op, (self._flow, index, value),
                    {"resize_if_index_out_of_bounds": self.dynamic_size},
                    name or "TensorArrayV2Write")
        return self._updated(flow, self._size)

    def _check_eager_write(self, i) -> None:
        if i is None:
            return
        if i < 0:
            raise OutOfRangeError(f"Writing to negative indices (index {i}) is not allowed.")
        if i >= len(self._flow) and not self.dynamic_size:
            raise OutOfRangeError(f"Tried to write to index {i} but array is not resizeable "
                                  f"and size is: {len(self._flow)} ")

    def stack(self, name=None):
        return bind(tl.tensor_list_stack_op, (self._flow,),
                    {"element_dtype": self.dtype, "element_shape": self._shape_attr(),
                     "num_elements": -1 if self._size is None else self._size},
                    name or "TensorArrayV2Stack")

    def gather(self, indices, name=None):
        return bind(tl.tensor_list_gather_op, (self._flow, indices),
                    {"element_dtype": self.dtype, "element_shape": self._shape_attr()},
                    name or "TensorArrayV2Gather")

    def concat(self, name=None):
        value, _ = bind(tl.tensor_list_concat_op, (self._flow,),
                        {"element_dtype": self.dtype, "element_shape": self._shape_attr()},
                        name or "TensorArrayV2Concat")
        return value

    def unstack(self, value, name=None):
        value = self._value(value, "unstack")
        if value.shape.rank == 0:
            raise ValueError("Shape must be at least rank 1 but is rank 0 for TensorArray "
                             "unstack")
        n = value.shape[0] if value.shape.rank is not None else None
        if self._eager and n is not None and n > len(self._flow) and not self.dynamic_size:
            raise ValueError(f"Cannot unstack {n} tensors into a TensorArray of static size "
                             f"{len(self._flow)} ")
        self._merge_shape(value.shape[1:] if value.shape.rank is not None else
                          TensorShape(None))
        flow = bind(tl.tensor_list_from_tensor_op, (value,),
                    {"element_shape": self._shape_attr()}, name or "TensorArrayUnstack")
        return self._updated(flow, None if self.dynamic_size else n)

    def scatter(self, indices, value, name=None):
        value = self._value(value, "scatter")
        if value.shape.rank is not None and value.shape.rank >= 1:
            self._merge_shape(value.shape[1:])
        flow = bind(tl.tensor_list_scatter_op, (self._flow, value, indices), {},
                    name or "TensorArrayScatter")
        return self._updated(flow, self._size)

    def split(self, value, lengths, name=None):
        value = self._value(value, "split")
        if value.shape.rank is not None and value.shape.rank >= 1:
            self._merge_shape(TensorShape([None]).concatenate(value.shape[1:]))
        lengths = convert_to_tensor(lengths, dtype_hint=d.int64)
        flow = bind(tl.tensor_list_split_op, (value, lengths),
                    {"element_shape": self._shape_attr()}, name or "TensorArraySplit")
        return self._updated(flow, None if self.dynamic_size else
                             (lengths.shape[0] if lengths.shape.rank == 1 else None))

    def identity(self):
        return TensorArray._from(self._info, self._flow, self._size)

    def close(self, name=None):
        return None

    def mark_used(self):
        return None

    def __repr__(self):
        return f"<TensorArray dtype={self.dtype.name} element_shape={self.element_shape}>"
