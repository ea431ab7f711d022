"""`tf.train.Example` and its family as real protobuf messages, without TensorFlow.

TensorFlow's `feature.proto` and `example.proto` (proto3, package `tensorflow`) defined here
from their field numbers with protobuf's descriptor API, so `SerializeToString`, `FromString`,
`ParseFromString`, text format and `print(example)` behave as TensorFlow's own classes and
read and write the same bytes (protobuf's wire format carries only field numbers and types):

    BytesList       value 1 (repeated bytes)
    FloatList       value 1 (repeated float, packed)
    Int64List       value 1 (repeated int64, packed)
    Feature         oneof kind { bytes_list 1, float_list 2, int64_list 3 }
    Features        feature 1 (map<string, Feature>)
    FeatureList     feature 1 (repeated Feature)
    FeatureLists    feature_list 1 (map<string, FeatureList>)
    Example         features 1 (Features)
    SequenceExample context 1 (Features), feature_lists 2 (FeatureLists)

The messages live in a descriptor pool of their own, so a process that also imports
TensorFlow holds both without a clash. Needs the `tfformats` extra (protobuf).
"""

from __future__ import annotations

import functools

from ..optional_extras import require

__all__ = ["messages", "MESSAGE_NAMES"]

MESSAGE_NAMES = ("BytesList", "FloatList", "Int64List", "Feature", "Features", "FeatureList",
                 "FeatureLists", "Example", "SequenceExample")
_PACKAGE = "tensorflow"
# FieldDescriptorProto's type and label numbers.
_FLOAT, _INT64, _STRING, _MESSAGE, _BYTES = 2, 3, 9, 11, 12
_OPTIONAL, _REPEATED = 1, 3

# (message, [(field, number, type, label, message type or None, in the oneof?)], map entries)
_FEATURE_PROTO = [
    ("BytesList", [("value", 1, _BYTES, _REPEATED, None, False)]),
    ("FloatList", [("value", 1, _FLOAT, _REPEATED, None, False)]),
    ("Int64List", [("value", 1, _INT64, _REPEATED, None, False)]),
    ("Feature", [("bytes_list", 1, _MESSAGE, _OPTIONAL, "BytesList", True),
                 ("float_list", 2, _MESSAGE, _OPTIONAL, "FloatList", True),
                 ("int64_list", 3, _MESSAGE, _OPTIONAL, "Int64List", True)]),
    ("Features", [("feature", 1, _MESSAGE, _REPEATED, "Features.FeatureEntry", False)]),
    ("FeatureList", [("feature", 1, _MESSAGE, _REPEATED, "Feature", False)]),
    ("FeatureLists", [("feature_list", 1, _MESSAGE, _REPEATED, "FeatureLists.FeatureListEntry",
                       False)]),
]
_MAP_ENTRIES = {"Features": ("FeatureEntry", "Feature"),
                "FeatureLists": ("FeatureListEntry", "FeatureList")}
_EXAMPLE_PROTO = [
    ("Example", [("features", 1, _MESSAGE, _OPTIONAL, "Features", False)]),
    ("SequenceExample", [("context", 1, _MESSAGE, _OPTIONAL, "Features", False),
                         ("feature_lists", 2, _MESSAGE, _OPTIONAL, "FeatureLists", False)]),
]


def _add_message(file_proto, name, fields):
    message = file_proto.message_type.add(name=name)
    if any(in_oneof for *_, in_oneof in fields):
        message.oneof_decl.add(name="kind")
    for field_name, number, kind, label, type_name, in_oneof in fields:
        field = message.field.add(name=field_name, number=number, type=kind, label=label,
                                  json_name=_json_name(field_name))
        if type_name is not None:
            field.type_name = f".{_PACKAGE}.{type_name}"
        if in_oneof:
            field.oneof_index = 0
    if name in _MAP_ENTRIES:
        entry_name, value_type = _MAP_ENTRIES[name]
        entry = message.nested_type.add(name=entry_name)
        entry.options.map_entry = True
        entry.field.add(name="key", number=1, type=_STRING, label=_OPTIONAL, json_name="key")
        entry.field.add(name="value", number=2, type=_MESSAGE, label=_OPTIONAL,
                        type_name=f".{_PACKAGE}.{value_type}", json_name="value")


def _json_name(name: str) -> str:
    head, *rest = name.split("_")
    return head + "".join(part.title() for part in rest)


def _file(descriptor_pb2, name, messages, dependencies=()):
    file_proto = descriptor_pb2.FileDescriptorProto(name=name, package=_PACKAGE,
                                                    syntax="proto3")
    file_proto.dependency.extend(dependencies)
    for message_name, fields in messages:
        _add_message(file_proto, message_name, fields)
    return file_proto


@functools.cache
def messages():
    """A namespace of the nine message classes (`messages().Example`...)."""
    require("google.protobuf", "tfformats", "tf.train.Example and TFRecord files")
    from google.protobuf import descriptor_pb2, descriptor_pool, message_factory
    pool = descriptor_pool.DescriptorPool()
    pool.Add(_file(descriptor_pb2, "tensorflow/core/example/feature.proto", _FEATURE_PROTO))
    pool.Add(_file(descriptor_pb2, "tensorflow/core/example/example.proto", _EXAMPLE_PROTO,
                   ["tensorflow/core/example/feature.proto"]))
    classes = {name: message_factory.GetMessageClass(
        pool.FindMessageTypeByName(f"{_PACKAGE}.{name}")) for name in MESSAGE_NAMES}
    for name, cls in classes.items():   # as TensorFlow's classes print
        proto = "example_pb2" if name.endswith("Example") else "feature_pb2"
        cls.__module__ = f"tensorflow.core.example.{proto}"
    return _Messages(classes)


class _Messages:
    def __init__(self, classes):
        self.__dict__.update(classes)
