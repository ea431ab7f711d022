"""tracegraph's checkpoint files: writing an object tree's Variables, and `NativeCheckpointReader`.

A checkpoint `PREFIX` is two files, written in this order, each through a temporary file and a
rename, so an index never points at a partial data file:

    PREFIX.data-00000-of-00001   an .npz archive of the values ("t0", "t1", ...)
    PREFIX.index                 sealed JSON (`safe_files`): the document below, after its
                                 own SHA-256

    {"format": "tracegraph.checkpoint", "version": 2,
     "data": {"bytes": N, "sha256": "..."},                      the data file, checked on read
     "entries": {KEY: {"member": "t0", "dtype": "float32", "shape": [2]}},
     "object_graph": {"nodes": [{"children": [{"node_id": 1, "local_name": "net"}],
                                 "attributes": [{"name": "VARIABLE_VALUE", "full_name": "v",
                                                 "checkpoint_key": KEY}]}, ...]}}

Keys are TensorFlow's: the first path to the Variable from the root in breadth-first order,
then `/.ATTRIBUTES/VARIABLE_VALUE` (`model/layers/0/kernel/.ATTRIBUTES/VARIABLE_VALUE`). The
object graph is TensorFlow's TrackableObjectGraph with its field names: node 0 is the root,
an object reachable by several paths is one node with several parents, and a Variable's node
names its key. Restoring matches this graph against Python objects (`restore.py`), so keys
matter only to readers that go by name. `tf.train.load_checkpoint(p).get_tensor(
"_CHECKPOINTABLE_OBJECT_GRAPH")` returns the object graph as these JSON bytes (TensorFlow
returns a serialized TrackableObjectGraph; `google.protobuf.json_format.Parse` turns ours into
one).
"""

from __future__ import annotations

import json
import os
import re

import numpy as np

from ... import dtypes as d
from ...framework.variables import Variable
from ..native.object_graph import ObjectGraph
from ..native.value_codec import Decoder
from ..npz_arrays import check_meta, read_npz, write_npz
from ..safe_files import (
    atomic_write,
    file_sha256,
    open_checked,
    open_inside,
    read_sealed_json,
    write_sealed_json,
)
from .checkpoint_reading import (
    OBJECT_GRAPH_KEY,
    CheckpointReader,
    ObjectNode,
    checkpoint_reader,
    not_found,
)

__all__ = ["write_checkpoint", "NativeCheckpointReader", "data_path", "FORMAT",
           "FORMAT_VERSION", "VARIABLE_SUFFIX"]

FORMAT = "tracegraph.checkpoint"
FORMAT_VERSION = 2
VARIABLE_SUFFIX = "/.ATTRIBUTES/VARIABLE_VALUE"
MAX_NODES = 1_000_000
_INDEX_HEAD = b'{"sha256":"'


def data_path(prefix: str) -> str:
    return f"{prefix}.data-00000-of-00001"


def _is_variable(value) -> bool:
    return isinstance(value, Variable)


def object_graph_of(root) -> tuple[dict, dict[str, Variable]]:
    """(the TrackableObjectGraph-shaped JSON of `root`'s objects holding Variables,
    key -> Variable)."""
    graph = ObjectGraph(root, is_leaf=_is_variable)
    paths = graph.paths()
    nodes, variables = [], {}
    for node, obj in enumerate(graph.nodes):
        entry = {"children": [{"node_id": child, "local_name": name}
                              for name, child in graph.children[node]], "attributes": []}
        if isinstance(obj, Variable):
            key = f"{paths[node]}{VARIABLE_SUFFIX}"
            variables[key] = obj
            entry["attributes"].append({"name": "VARIABLE_VALUE",
                                        "full_name": obj.name.removesuffix(":0"),
                                        "checkpoint_key": key})
        nodes.append(entry)
    return {"nodes": nodes}, variables


def write_checkpoint(prefix, root) -> str:
    """Writes the Variables under `root` as the checkpoint `prefix`; returns the prefix."""
    prefix = os.fspath(prefix)
    graph, variables = object_graph_of(root)
    names = {key: f"t{i}" for i, key in enumerate(sorted(variables))}
    arrays = {names[k]: (v.dtype, v.handle.value) for k, v in variables.items()}
    data = data_path(prefix)
    atomic_write(data, lambda tmp: write_npz(tmp, arrays))
    entries = {k: {"member": names[k], "dtype": v.dtype.name,
                   "shape": [int(s) for s in np.shape(v.handle.value)]}
               for k, v in sorted(variables.items())}
    index = {"format": FORMAT, "version": FORMAT_VERSION,
             "data": {"bytes": os.path.getsize(data), "sha256": file_sha256(data)},
             "entries": entries, "object_graph": graph}
    write_sealed_json(f"{prefix}.index", index)
    return prefix


def is_native_checkpoint(prefix: str) -> bool:
    """Whether `PREFIX.index` starts as tracegraph's sealed index does (read without
    following links or blocking: see `safe_files`)."""
    try:
        with open_inside(f"{prefix}.index") as f:
            return f.read(len(_INDEX_HEAD)) == _INDEX_HEAD
    except Exception:  # noqa: BLE001 - any unreadable index is "not this format"
        return False


@checkpoint_reader("tracegraph", recognises=is_native_checkpoint)
class NativeCheckpointReader(CheckpointReader):
    """A tracegraph checkpoint's index, validated on open; values are read (against the
    index's size and SHA-256) on first use."""

    def __init__(self, prefix: str):
        self.prefix = prefix
        self.index_file = f"{prefix}.index"
        doc = read_sealed_json(self.index_file)
        dec = self._dec = Decoder(self.index_file)
        dec.obj(doc, "", ("format", "version", "data", "entries", "object_graph"))
        if doc["format"] != FORMAT:
            dec.fail("format", f"not a tracegraph checkpoint ({doc['format']!r:.60})")
        if doc["version"] != FORMAT_VERSION:
            dec.fail("version", f"format version {doc['version']!r:.20} is not supported (this "
                     f"tracegraph reads version {FORMAT_VERSION})")
        data = dec.obj(doc["data"], "data", ("bytes", "sha256"))
        self._data_bytes = dec.int(data["bytes"], "data.bytes", 0, 1 << 48)
        self._data_sha = dec.str(data["sha256"], "data.sha256")
        entries = dec.obj(doc["entries"], "entries", (), tuple(doc["entries"])
                          if isinstance(doc["entries"], dict) else ())
        self.entries = {}
        for key, e in entries.items():
            where = f"entries.{key}"
            if key == OBJECT_GRAPH_KEY:
                dec.fail(where, "the object graph's key names no value")
            dec.obj(e, where, ("member", "dtype", "shape"))
            member = dec.str(e["member"], f"{where}.member")
            if not re.fullmatch(r"t\d{1,9}", member):
                dec.fail(f"{where}.member", "bad member name")
            dtype, shape = check_meta({"dtype": e["dtype"], "shape": e["shape"]},
                                      self.index_file, where)
            self.entries[key] = (member, dtype, shape)
        if len({m for m, _, _ in self.entries.values()}) != len(self.entries):
            dec.fail("entries", "two keys name the same member")
        self._graph_doc = doc["object_graph"]
        self.nodes = self._object_graph(doc["object_graph"])
        self._values = None

    def _object_graph(self, v) -> list[ObjectNode]:
        dec = self._dec
        dec.obj(v, "object_graph", ("nodes",))
        raw = dec.list(v["nodes"], "object_graph.nodes", MAX_NODES)
        if not raw:
            dec.fail("object_graph.nodes", "no root node")
        nodes = []
        for i, node in enumerate(raw):
            where = f"object_graph.nodes[{i}]"
            dec.obj(node, where, ("children", "attributes"))
            children = []
            for j, c in enumerate(dec.list(node["children"], f"{where}.children")):
                dec.obj(c, f"{where}.children[{j}]", ("node_id", "local_name"))
                children.append((dec.str(c["local_name"], f"{where}.children[{j}].local_name"),
                                 dec.int(c["node_id"], f"{where}.children[{j}].node_id", 0,
                                         len(raw))))
            attributes = dec.list(node["attributes"], f"{where}.attributes", 1)
            key = None
            for j, a in enumerate(attributes):
                at = f"{where}.attributes[{j}]"
                dec.obj(a, at, ("name", "full_name", "checkpoint_key"))
                if a["name"] != "VARIABLE_VALUE":
                    dec.fail(f"{at}.name", "only VARIABLE_VALUE attributes are saved")
                dec.str(a["full_name"], f"{at}.full_name")
                key = dec.str(a["checkpoint_key"], f"{at}.checkpoint_key")
                if key not in self.entries:
                    dec.fail(f"{at}.checkpoint_key", "names no entry of the checkpoint")
            nodes.append(ObjectNode(tuple(children), key))
        return nodes

    # ---- CheckpointReader -------------------------------------------------------------------
    def object_graph(self) -> list[ObjectNode]:
        return self.nodes

    def has_tensor(self, name: str) -> bool:
        return name in self.entries or name == OBJECT_GRAPH_KEY

    def get_tensor(self, name: str):
        if name == OBJECT_GRAPH_KEY:
            return json.dumps(self._graph_doc, separators=(",", ":")).encode()
        if name not in self.entries:
            raise not_found(name)
        value = self.values()[name]
        if value.ndim == 0:
            return value.item() if value.dtype == object else value[()]
        return value

    def get_variable_to_shape_map(self) -> dict:
        out = {k: list(shape) for k, (_, _, shape) in self.entries.items()}
        out[OBJECT_GRAPH_KEY] = []
        return out

    def get_variable_to_dtype_map(self) -> dict:
        out = {k: dtype for k, (_, dtype, _) in self.entries.items()}
        out[OBJECT_GRAPH_KEY] = d.string
        return out

    def values(self) -> dict:
        """key -> array of every value (read and checked once)."""
        if self._values is None:
            data = data_path(self.prefix)
            declared = {m: (dt, shape) for m, dt, shape in self.entries.values()}
            with open_checked(data, None, self._data_bytes, self._data_sha) as f:
                arrays = read_npz(f, declared, data)
            self._values = {k: arrays[m] for k, (m, _, _) in self.entries.items()}
        return self._values
