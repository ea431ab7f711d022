"""`tf.train.load_checkpoint` for tracegraph's checkpoints (issue 26 items 8 and 12): a reader
with TensorFlow's methods and key names, whose `_CHECKPOINTABLE_OBJECT_GRAPH` is what
`list_variables` lists (a scalar string). Values, shapes, dtypes and errors are TensorFlow
2.21's for the same program; TensorFlow's object graph is a serialized TrackableObjectGraph,
tracegraph's is the same graph written as JSON (field names of TrackableObjectGraph)."""

import json

import numpy as np
import pytest

import tracegraph as tf


def _saved(tmp_path):
    ckpt = tf.train.Checkpoint(listed=[tf.Variable([1.0, 2.0]), tf.Variable(3)],
                               mapped={"s": tf.Variable(b"x")})
    return ckpt.save(str(tmp_path / "c"))


def test_the_reader_has_tensorflows_methods_and_keys(tmp_path):
    path = _saved(tmp_path)
    reader = tf.train.load_checkpoint(path)
    shapes = reader.get_variable_to_shape_map()
    assert shapes == {"save_counter/.ATTRIBUTES/VARIABLE_VALUE": [],
                      "mapped/s/.ATTRIBUTES/VARIABLE_VALUE": [],
                      "listed/0/.ATTRIBUTES/VARIABLE_VALUE": [2],
                      "listed/1/.ATTRIBUTES/VARIABLE_VALUE": [],
                      "_CHECKPOINTABLE_OBJECT_GRAPH": []}
    assert reader.get_variable_to_dtype_map() == {
        "save_counter/.ATTRIBUTES/VARIABLE_VALUE": tf.int64,
        "mapped/s/.ATTRIBUTES/VARIABLE_VALUE": tf.string,
        "listed/0/.ATTRIBUTES/VARIABLE_VALUE": tf.float32,
        "listed/1/.ATTRIBUTES/VARIABLE_VALUE": tf.int32,
        "_CHECKPOINTABLE_OBJECT_GRAPH": tf.string}
    assert reader.has_tensor("listed/0/.ATTRIBUTES/VARIABLE_VALUE")
    assert not reader.has_tensor("nope")
    assert repr(reader.get_tensor("listed/1/.ATTRIBUTES/VARIABLE_VALUE")) == "np.int32(3)"
    assert reader.get_tensor("mapped/s/.ATTRIBUTES/VARIABLE_VALUE") == b"x"
    value = reader.get_tensor("listed/0/.ATTRIBUTES/VARIABLE_VALUE")
    assert value.dtype == np.float32 and value.tolist() == [1.0, 2.0]
    with pytest.raises(tf.errors.NotFoundError, match="Key nope not found in checkpoint"):
        reader.get_tensor("nope")
    assert sorted(shapes.items()) == sorted(
        (k, s) for k, s in tf.train.list_variables(path))
    assert tf.train.load_variable(path, "listed/1/.ATTRIBUTES/VARIABLE_VALUE") == 3
    latest = tf.train.load_checkpoint(str(tmp_path))       # a directory: its latest checkpoint
    assert latest.get_variable_to_shape_map() == shapes


def test_missing_checkpoints_are_tensorflows_errors(tmp_path):
    with pytest.raises(tf.errors.NotFoundError, match="Failed to find any matching files"):
        tf.train.load_checkpoint(str(tmp_path / "nope"))
    (tmp_path / "empty").mkdir()
    with pytest.raises(ValueError, match="Couldn't find 'checkpoint' file or checkpoints"):
        tf.train.load_checkpoint(str(tmp_path / "empty"))


def test_the_object_graph_is_a_listed_scalar_string(tmp_path):
    path = _saved(tmp_path)
    reader = tf.train.load_checkpoint(path)
    assert ("_CHECKPOINTABLE_OBJECT_GRAPH", []) in tf.train.list_variables(path)
    assert reader.has_tensor("_CHECKPOINTABLE_OBJECT_GRAPH")
    raw = reader.get_tensor("_CHECKPOINTABLE_OBJECT_GRAPH")
    assert isinstance(raw, bytes)
    assert tf.train.load_variable(path, "_CHECKPOINTABLE_OBJECT_GRAPH") == raw
    graph = json.loads(raw)
    root = graph["nodes"][0]
    names = {c["local_name"]: c["node_id"] for c in root["children"]}
    assert sorted(names) == ["listed", "mapped", "save_counter"]
    listed = graph["nodes"][names["listed"]]
    second = graph["nodes"][[c["node_id"] for c in listed["children"]
                             if c["local_name"] == "1"][0]]
    assert second["attributes"] == [{"name": "VARIABLE_VALUE", "full_name": "Variable",
                                     "checkpoint_key": "listed/1/.ATTRIBUTES/VARIABLE_VALUE"}]


def test_the_object_graph_parses_as_a_trackable_object_graph(tmp_path):
    protos = pytest.importorskip("tensorboard.compat.proto.trackable_object_graph_pb2")
    json_format = pytest.importorskip("google.protobuf.json_format")
    raw = tf.train.load_checkpoint(_saved(tmp_path)).get_tensor("_CHECKPOINTABLE_OBJECT_GRAPH")
    graph = json_format.Parse(raw, protos.TrackableObjectGraph())
    keys = sorted(a.checkpoint_key for n in graph.nodes for a in n.attributes)
    assert keys == sorted(k for k, _ in tf.train.list_variables(_saved(tmp_path))
                          if k != "_CHECKPOINTABLE_OBJECT_GRAPH")
