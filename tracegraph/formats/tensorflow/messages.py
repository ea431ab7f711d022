"""TensorFlow's protobuf messages, without TensorFlow.

The `tensorboard` package ships compiled copies of TensorFlow's graph, function, meta-graph,
saved-object-graph, trackable-object-graph, saver, tensor and variable protos (in its own proto
package, `tensorboard.*`, so they never clash with a real TensorFlow's). The few messages it
does not ship are defined here from their field numbers with protobuf's descriptor API:

    SavedModel          saved_model.proto     schema version 1, meta_graphs 2
    BundleHeaderProto   tensor_bundle.proto   num_shards 1, endianness 2, version 3
    BundleEntryProto    tensor_bundle.proto   dtype 1, shape 2, shard_id 3, offset 4, size 5,
                                              crc32c 6 (fixed32), slices 7
    TensorSliceProto    tensor_slice.proto    extent 1 {start 1, length 2 (oneof)}
    FingerprintDef      fingerprint.proto     checksums 1-5 (uint64), version 6, uuid 7

Protobuf's wire format carries field numbers and types only, so these messages read and write
exactly the bytes TensorFlow's do. Everything here needs the `tfformats` extra (protobuf,
google-crc32c and tensorboard); `messages()` raises an ImportError naming it.
"""

from __future__ import annotations

import functools

from ...optional_extras import require

__all__ = ["messages", "EXTRA", "FEATURE"]

EXTRA = "tfformats"
FEATURE = "TensorFlow's SavedModel and checkpoint formats"
_FILE = "tracegraph/formats/tensorflow/missing_messages.proto"
_PACKAGE = "tracegraph.tensorflow"

# (message, [(field, number, type, label, type name or None, oneof index or None)]);
# types and labels are FieldDescriptorProto's enums, spelled out below.
_INT32, _INT64, _UINT64, _STRING, _MESSAGE, _ENUM, _FIXED32 = 5, 3, 4, 9, 11, 14, 7
_OPTIONAL, _REPEATED = 1, 3
_MESSAGES = [
    ("SavedModel", [("saved_model_schema_version", 1, _INT64, _OPTIONAL, None, None),
                    ("meta_graphs", 2, _MESSAGE, _REPEATED, ".tensorboard.MetaGraphDef", None)]),
    ("TensorSliceProto", [("extent", 1, _MESSAGE, _REPEATED,
                           f".{_PACKAGE}.TensorSliceProto.Extent", None)]),
    ("BundleHeaderProto", [("num_shards", 1, _INT32, _OPTIONAL, None, None),
                           ("endianness", 2, _ENUM, _OPTIONAL,
                            f".{_PACKAGE}.BundleHeaderProto.Endianness", None),
                           ("version", 3, _MESSAGE, _OPTIONAL, ".tensorboard.VersionDef",
                            None)]),
    ("BundleEntryProto", [("dtype", 1, _ENUM, _OPTIONAL, ".tensorboard.DataType", None),
                          ("shape", 2, _MESSAGE, _OPTIONAL, ".tensorboard.TensorShapeProto",
                           None),
                          ("shard_id", 3, _INT32, _OPTIONAL, None, None),
                          ("offset", 4, _INT64, _OPTIONAL, None, None),
                          ("size", 5, _INT64, _OPTIONAL, None, None),
                          ("crc32c", 6, _FIXED32, _OPTIONAL, None, None),
                          ("slices", 7, _MESSAGE, _REPEATED,
                           f".{_PACKAGE}.TensorSliceProto", None)]),
    ("FingerprintDef", [("saved_model_checksum", 1, _UINT64, _OPTIONAL, None, None),
                        ("graph_def_program_hash", 2, _UINT64, _OPTIONAL, None, None),
                        ("signature_def_hash", 3, _UINT64, _OPTIONAL, None, None),
                        ("saved_object_graph_hash", 4, _UINT64, _OPTIONAL, None, None),
                        ("checkpoint_hash", 5, _UINT64, _OPTIONAL, None, None),
                        ("version", 6, _MESSAGE, _OPTIONAL, ".tensorboard.VersionDef", None),
                        ("uuid", 7, _STRING, _OPTIONAL, None, None)]),
]
_EXTENT = [("start", 1, _INT64, _OPTIONAL, None, None), ("length", 2, _INT64, _OPTIONAL, None, 0)]


class _Namespace:
    def __init__(self, **items):
        self.__dict__.update(items)


def _add_fields(message, fields) -> None:
    for name, number, kind, label, type_name, oneof in fields:
        field = message.field.add(name=name, number=number, type=kind, label=label)
        if type_name is not None:
            field.type_name = type_name
        if oneof is not None:
            field.oneof_index = oneof


def _file_descriptor():
    from google.protobuf import descriptor_pb2
    file = descriptor_pb2.FileDescriptorProto(name=_FILE, package=_PACKAGE, syntax="proto3")
    file.dependency.extend(["tensorboard/compat/proto/meta_graph.proto",
                            "tensorboard/compat/proto/tensor_shape.proto",
                            "tensorboard/compat/proto/types.proto",
                            "tensorboard/compat/proto/versions.proto"])
    for name, fields in _MESSAGES:
        message = file.message_type.add(name=name)
        _add_fields(message, fields)
        if name == "TensorSliceProto":
            extent = message.nested_type.add(name="Extent")
            extent.oneof_decl.add(name="has_length")
            _add_fields(extent, _EXTENT)
        if name == "BundleHeaderProto":
            endianness = message.enum_type.add(name="Endianness")
            endianness.value.add(name="LITTLE", number=0)
            endianness.value.add(name="BIG", number=1)
    return file


@functools.cache
def messages():
    """The message classes and proto modules (a namespace): `SavedModel`, `BundleEntryProto`,
    `BundleHeaderProto`, `TensorSliceProto`, `FingerprintDef`, and tensorboard's modules
    `meta_graph_pb2`, `saved_object_graph_pb2`, `trackable_object_graph_pb2`, `function_pb2`,
    `graph_pb2`, `node_def_pb2`, `attr_value_pb2`, `tensor_pb2`, `tensor_shape_pb2`,
    `types_pb2`, `struct_pb2`, `saver_pb2`, `variable_pb2`, `versions_pb2`."""
    for module in ("google.protobuf", "google_crc32c", "tensorboard.compat.proto"):
        require(module, EXTRA, FEATURE)
    from google.protobuf import descriptor_pool, message_factory
    from tensorboard.compat.proto import (
        attr_value_pb2,
        function_pb2,
        graph_pb2,
        meta_graph_pb2,
        node_def_pb2,
        saved_object_graph_pb2,
        saver_pb2,
        struct_pb2,
        tensor_pb2,
        tensor_shape_pb2,
        trackable_object_graph_pb2,
        types_pb2,
        variable_pb2,
        versions_pb2,
    )
    pool = descriptor_pool.Default()
    try:
        pool.FindFileByName(_FILE)
    except KeyError:
        pool.Add(_file_descriptor())
    classes = {name: message_factory.GetMessageClass(
        pool.FindMessageTypeByName(f"{_PACKAGE}.{name}")) for name, _ in _MESSAGES}
    return _Namespace(
        **classes, attr_value_pb2=attr_value_pb2, function_pb2=function_pb2,
        graph_pb2=graph_pb2, meta_graph_pb2=meta_graph_pb2, node_def_pb2=node_def_pb2,
        saved_object_graph_pb2=saved_object_graph_pb2, saver_pb2=saver_pb2,
        struct_pb2=struct_pb2, tensor_pb2=tensor_pb2, tensor_shape_pb2=tensor_shape_pb2,
        trackable_object_graph_pb2=trackable_object_graph_pb2, types_pb2=types_pb2,
        variable_pb2=variable_pb2, versions_pb2=versions_pb2)
