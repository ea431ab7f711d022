"""The profile as TensorFlow writes it: an `XSpace` protobuf in
`<logdir>/plugins/profile/<run>/<host>.xplane.pb`, the file TensorBoard's profile plugin
(`tensorboard-plugin-profile`, XProf) reads.

The messages (TensorFlow's `xplane.proto`, package `tensorflow.profiler`) are defined here from
their field numbers with protobuf's descriptor API; protobuf comes with the `tfformats` extra:

    XSpace          planes 1, errors 2, warnings 3, hostnames 4
    XPlane          id 1, name 2, lines 3, event_metadata 4 (map), stat_metadata 5 (map),
                    stats 6
    XLine           id 1, display_id 10, name 2, display_name 11, timestamp_ns 3,
                    duration_ps 9, events 4
    XEvent          metadata_id 1, offset_ps 2 | num_occurrences 5, duration_ps 3, stats 4
    XStat           metadata_id 1, double_value 2 | uint64_value 3 | int64_value 4 |
                    str_value 5 | bytes_value 6 | ref_value 7
    XEventMetadata  id 1, name 2, display_name 4, metadata 3, stats 5, child_id 6
    XStatMetadata   id 1, name 2, description 3

Like TensorFlow's, the host plane `/host:CPU` has a line per thread (the main thread is
`python`), times relative to the profile's start, and a `Task Environment` plane holds the
start and stop times since the epoch.
"""

from __future__ import annotations

import functools

from ..optional_extras import require

__all__ = ["messages", "to_xspace"]

_FILE = "tracegraph/profiler/xplane.proto"
_PACKAGE = "tensorflow.profiler"
_DOUBLE, _INT64, _UINT64, _STRING, _MESSAGE, _BYTES = 1, 3, 4, 9, 11, 12
_OPTIONAL, _REPEATED = 1, 3
_P = f".{_PACKAGE}."
# (message, [(field, number, type, label, message type, oneof index)])
_MESSAGES = [
    ("XSpace", [("planes", 1, _MESSAGE, _REPEATED, "XPlane", None),
                ("errors", 2, _STRING, _REPEATED, None, None),
                ("warnings", 3, _STRING, _REPEATED, None, None),
                ("hostnames", 4, _STRING, _REPEATED, None, None)]),
    ("XPlane", [("id", 1, _INT64, _OPTIONAL, None, None),
                ("name", 2, _STRING, _OPTIONAL, None, None),
                ("lines", 3, _MESSAGE, _REPEATED, "XLine", None),
                ("event_metadata", 4, _MESSAGE, _REPEATED, "XPlane.EventMetadataEntry", None),
                ("stat_metadata", 5, _MESSAGE, _REPEATED, "XPlane.StatMetadataEntry", None),
                ("stats", 6, _MESSAGE, _REPEATED, "XStat", None)]),
    ("XLine", [("id", 1, _INT64, _OPTIONAL, None, None),
               ("display_id", 10, _INT64, _OPTIONAL, None, None),
               ("name", 2, _STRING, _OPTIONAL, None, None),
               ("display_name", 11, _STRING, _OPTIONAL, None, None),
               ("timestamp_ns", 3, _INT64, _OPTIONAL, None, None),
               ("duration_ps", 9, _INT64, _OPTIONAL, None, None),
               ("events", 4, _MESSAGE, _REPEATED, "XEvent", None)]),
    ("XEvent", [("metadata_id", 1, _INT64, _OPTIONAL, None, None),
                ("offset_ps", 2, _INT64, _OPTIONAL, None, 0),
                ("num_occurrences", 5, _INT64, _OPTIONAL, None, 0),
                ("duration_ps", 3, _INT64, _OPTIONAL, None, None),
                ("stats", 4, _MESSAGE, _REPEATED, "XStat", None)]),
    ("XStat", [("metadata_id", 1, _INT64, _OPTIONAL, None, None),
               ("double_value", 2, _DOUBLE, _OPTIONAL, None, 0),
               ("uint64_value", 3, _UINT64, _OPTIONAL, None, 0),
               ("int64_value", 4, _INT64, _OPTIONAL, None, 0),
               ("str_value", 5, _STRING, _OPTIONAL, None, 0),
               ("bytes_value", 6, _BYTES, _OPTIONAL, None, 0),
               ("ref_value", 7, _UINT64, _OPTIONAL, None, 0)]),
    ("XEventMetadata", [("id", 1, _INT64, _OPTIONAL, None, None),
                        ("name", 2, _STRING, _OPTIONAL, None, None),
                        ("display_name", 4, _STRING, _OPTIONAL, None, None),
                        ("metadata", 3, _BYTES, _OPTIONAL, None, None),
                        ("stats", 5, _MESSAGE, _REPEATED, "XStat", None),
                        ("child_id", 6, _INT64, _REPEATED, None, None)]),
    ("XStatMetadata", [("id", 1, _INT64, _OPTIONAL, None, None),
                       ("name", 2, _STRING, _OPTIONAL, None, None),
                       ("description", 3, _STRING, _OPTIONAL, None, None)]),
]
_ONEOFS = {"XEvent": "data", "XStat": "value"}
_MAPS = {"XPlane": [("EventMetadataEntry", "XEventMetadata"),
                    ("StatMetadataEntry", "XStatMetadata")]}


def _file_descriptor():
    from google.protobuf import descriptor_pb2
    file = descriptor_pb2.FileDescriptorProto(name=_FILE, package=_PACKAGE, syntax="proto3")
    for name, fields in _MESSAGES:
        message = file.message_type.add(name=name)
        if name in _ONEOFS:
            message.oneof_decl.add(name=_ONEOFS[name])
        for field, number, kind, label, type_name, oneof in fields:
            f = message.field.add(name=field, number=number, type=kind, label=label)
            if type_name is not None:
                f.type_name = _P + type_name
            if oneof is not None:
                f.oneof_index = oneof
        for entry, value in _MAPS.get(name, ()):
            nested = message.nested_type.add(name=entry)
            nested.options.map_entry = True
            nested.field.add(name="key", number=1, type=_INT64, label=_OPTIONAL)
            nested.field.add(name="value", number=2, type=_MESSAGE, label=_OPTIONAL,
                             type_name=_P + value)
    return file


@functools.cache
def messages() -> dict:
    """The message classes by name (`XSpace`, `XPlane`, ...)."""
    require("google.protobuf", "tfformats", "Writing a profile (tf.profiler)")
    from google.protobuf import descriptor_pool, message_factory
    pool = descriptor_pool.Default()
    try:
        pool.FindFileByName(_FILE)
    except KeyError:
        pool.Add(_file_descriptor())
    return {name: message_factory.GetMessageClass(pool.FindMessageTypeByName(_PACKAGE + "." +
                                                                              name))
            for name, _ in _MESSAGES}


def _stat(plane, stat_ids: dict, target, name: str, value) -> None:
    sid = stat_ids.get(name)
    if sid is None:
        sid = stat_ids[name] = len(stat_ids) + 1
        plane.stat_metadata[sid].id = sid
        plane.stat_metadata[sid].name = name
    stat = target.add(metadata_id=sid)
    if isinstance(value, (bool, int)):
        stat.int64_value = int(value)
    elif isinstance(value, float):
        stat.double_value = value
    elif isinstance(value, bytes):
        stat.bytes_value = value
    else:
        stat.str_value = str(value)


def to_xspace(recorder, hostname: str):
    """The recorder's events as an XSpace message."""
    m = messages()
    space = m["XSpace"](hostnames=[hostname])
    plane = space.planes.add(id=0, name="/host:CPU")
    event_ids: dict = {}
    stat_ids: dict = {}
    start = recorder.start_ns
    for tid, name, events in recorder.threads:
        line = plane.lines.add(id=tid, display_id=0, name=name, display_name=name,
                               timestamp_ns=0)
        for (event_name, display, stats), t0, t1 in sorted(list(events), key=lambda e: e[1]):
            key = (event_name, display)
            eid = event_ids.get(key)
            if eid is None:
                eid = event_ids[key] = len(event_ids) + 1
                plane.event_metadata[eid].id = eid
                plane.event_metadata[eid].name = event_name
                plane.event_metadata[eid].display_name = display
            event = line.events.add(metadata_id=eid, offset_ps=(t0 - start) * 1000,
                                    duration_ps=max(t1 - t0, 0) * 1000)
            for stat_name, value in stats.items():
                _stat(plane, stat_ids, event.stats, stat_name, value)
    env = space.planes.add(id=0, name="Task Environment")
    env_ids: dict = {}
    stop = recorder.stop_ns if recorder.stop_ns is not None else start
    for stat_name, value in (("profile_start_time", recorder.epoch(start)),
                             ("profile_stop_time", recorder.epoch(stop))):
        sid = env_ids[stat_name] = len(env_ids) + 1
        env.stat_metadata[sid].id = sid
        env.stat_metadata[sid].name = stat_name
        env.stats.add(metadata_id=sid, uint64_value=value)
    return space
