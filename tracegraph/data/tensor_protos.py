"""`tf.io.serialize_tensor` / `tf.io.parse_tensor`: a tensor as TensorFlow's `TensorProto`
bytes (`SerializeTensor` and `ParseTensor` op records).

The proto class is tensorboard's compiled copy of TensorFlow's `tensor.proto` (the
`tfformats` extra). As TensorFlow writes it: dtype, shape (always present, empty for a
scalar), numbers as raw little-endian `tensor_content`, strings as `string_val`; reading
also accepts the typed `*_val` fields TensorFlow may write elsewhere (a single value fills
the shape, as TensorFlow's rule).
"""

from __future__ import annotations

import base64

import numpy as np

from .. import dtypes as d
from ..errors import InvalidArgumentError
from ..ops.registry import ALL_TYPES, REQUIRED, TypeAttr, bind, convert_to_tensor, defop
from ..optional_extras import require
from ..shapes import TensorType

__all__ = ["serialize_tensor", "parse_tensor", "tensor_to_proto_bytes", "proto_bytes_to_array",
           "TF_TYPE_NAMES"]

# TensorFlow's DataTypeString names, as its messages print them.
TF_TYPE_NAMES = {d.float32: "float", d.float64: "double", d.float16: "half",
                 d.bfloat16: "bfloat16", d.int8: "int8", d.int16: "int16", d.int32: "int32",
                 d.int64: "int64", d.uint8: "uint8", d.uint16: "uint16", d.uint32: "uint32",
                 d.uint64: "uint64", d.bool: "bool", d.string: "string",
                 d.complex64: "complex64", d.complex128: "complex128"}
# The typed value fields of TensorProto, for protos written without tensor_content.
_VALUE_FIELDS = {d.float32: "float_val", d.float64: "double_val", d.int32: "int_val",
                 d.int16: "int_val", d.int8: "int_val", d.uint8: "int_val",
                 d.uint16: "int_val", d.int64: "int64_val", d.bool: "bool_val",
                 d.uint32: "uint32_val", d.uint64: "uint64_val", d.float16: "half_val",
                 d.bfloat16: "half_val"}


def _tensor_proto_class():
    module = require("tensorboard.compat.proto.tensor_pb2", "tfformats",
                     "tf.io.serialize_tensor/parse_tensor")
    return module.TensorProto


def tensor_to_proto_bytes(value, dtype) -> bytes:
    proto = _tensor_proto_class()()
    proto.dtype = dtype.as_datatype_enum
    proto.tensor_shape.SetInParent()
    for n in np.shape(value):
        proto.tensor_shape.dim.add(size=int(n))
    if dtype is d.string:
        proto.string_val.extend(v if isinstance(v, bytes) else str(v).encode()
                                for v in np.asarray(value, dtype=object).reshape(-1))
    else:
        array = np.ascontiguousarray(value, dtype=_storage_dtype(dtype))
        proto.tensor_content = array.astype(array.dtype.newbyteorder("<"), copy=False) \
            .tobytes()
    return proto.SerializeToString()


def _storage_dtype(dtype):
    if dtype is d.bfloat16:
        return dtype.as_numpy_dtype
    return np.dtype(dtype.as_numpy_dtype)


def proto_bytes_to_array(serialized: bytes, out_type) -> np.ndarray:
    from google.protobuf.message import DecodeError
    proto = _tensor_proto_class()()
    try:
        proto.ParseFromString(serialized)
    except DecodeError:
        raise InvalidArgumentError(f"Could not parse `serialized` as TensorProto, base64: "
                                   f"{base64.b64encode(serialized).decode()}") from None
    dtype = d.BY_ENUM.get(proto.dtype)
    if dtype is not out_type:
        name = TF_TYPE_NAMES.get(dtype, str(proto.dtype))
        raise InvalidArgumentError(f"Type mismatch between parsed tensor ({name}) and dtype "
                                   f"({TF_TYPE_NAMES.get(out_type, out_type.name)})")
    shape = tuple(int(dim.size) for dim in proto.tensor_shape.dim)
    count = int(np.prod(shape, dtype=np.int64))
    if dtype is d.string:
        values = list(proto.string_val)
        out = np.empty(count, dtype=object)
        out[:] = values * count if len(values) == 1 and count > 1 else values
        return out.reshape(shape)
    np_dtype = _storage_dtype(dtype)
    if proto.tensor_content:
        array = np.frombuffer(proto.tensor_content, dtype=np.dtype(np_dtype)
                              .newbyteorder("<")).astype(np_dtype)
        return array.reshape(shape)
    values = list(getattr(proto, _VALUE_FIELDS.get(dtype, "float_val")))
    if dtype in (d.float16, d.bfloat16):
        values = np.array(values, np.uint16).view(np_dtype)
    array = np.array(values, dtype=np_dtype)
    if array.size == 1 and count > 1:
        array = np.full(count, array[0], dtype=np_dtype)
    if array.size == 0 and count:
        array = np.zeros(count, dtype=np_dtype)
    return array.reshape(shape)


def kernel_serialize_tensor(tensor):
    value = np.asarray(tensor) if not isinstance(tensor, bytes) else np.array(tensor, object)
    dtype = d.string if value.dtype == object else d.as_dtype(value.dtype)
    return np.array(tensor_to_proto_bytes(value, dtype), dtype=object)


serialize_tensor_op = defop(
    "serialize_tensor", "SerializeTensor", inputs=("tensor: T",),
    attrs={"T": TypeAttr(ALL_TYPES)}, infer=lambda tensor: TensorType(d.string, ()),
    kernel=kernel_serialize_tensor, flags={"pure"})


def kernel_parse_tensor(serialized, out_type=REQUIRED):
    value = np.asarray(serialized, dtype=object).reshape(-1)
    if np.ndim(serialized) != 0:
        raise InvalidArgumentError(f"Expected `serialized` to be a scalar, got shape: "
                                   f"{list(np.shape(serialized))}")
    return proto_bytes_to_array(value[0], out_type)


parse_tensor_op = defop(
    "parse_tensor", "ParseTensor", inputs=("serialized: string",),
    attrs={"out_type": REQUIRED}, infer=lambda serialized, out_type: TensorType(out_type, None),
    kernel=kernel_parse_tensor, flags={"pure", "data_dependent_shape"})


def serialize_tensor(tensor, name=None):
    """`tf.io.serialize_tensor`: a scalar string holding the tensor's TensorProto."""
    return bind(serialize_tensor_op, (convert_to_tensor(tensor),), {}, name)


def parse_tensor(serialized, out_type, name=None):
    """`tf.io.parse_tensor`: the tensor a TensorProto holds (its dtype must be `out_type`)."""
    return bind(parse_tensor_op, (convert_to_tensor(serialized, dtype=d.string),),
                {"out_type": d.as_dtype(out_type)}, name)
