"""A TensorFlow SavedModel or checkpoint is untrusted input: links and special files, paths
leaving the directory, truncated and malformed protos, lying sizes and shapes, cycles and
unbounded nesting are refused with TensorFlow's error types, naming the file."""

import os
import shutil

import pytest

import tracegraph as tf
from tracegraph.formats.tensorflow.format_errors import (
    InvalidSavedDataError,
    SavedDataError,
    UnsupportedNodeError,
)
from tracegraph.formats.tensorflow.messages import messages
from tracegraph.formats.tensorflow.model_files import ModelFiles

from .fixtures_util import FIXTURES, copy_fixture

pytest.importorskip("google_crc32c")


def _load(path):
    return tf.saved_model.load(str(path))


@pytest.mark.parametrize("relative", ["../x", "/etc/passwd", "a/../b", "a//b", "", ".",
                                      "a\x00b", "variables/./variables.index"])
def test_paths_must_be_plain_names_inside_the_directory(relative):
    with pytest.raises(SavedDataError, match="not a plain path"):
        ModelFiles(FIXTURES / "mlp").open(relative)


@pytest.mark.parametrize("link", ["saved_model.pb", "variables", "variables/variables.index",
                                  "variables/variables.data-00000-of-00001"])
def test_symbolic_links_are_refused(tmp_path, link):
    path = copy_fixture("mlp", tmp_path)
    outside = tmp_path / "outside"
    shutil.move(str(path / link), str(outside))
    os.symlink(outside, path / link)
    with pytest.raises(SavedDataError, match="symbolic link") as info:
        _load(path)
    assert isinstance(info.value, tf.errors.DataLossError)


def test_special_files_are_refused(tmp_path):
    path = copy_fixture("mlp", tmp_path)
    os.remove(path / "variables" / "variables.index")
    os.mkfifo(path / "variables" / "variables.index")       # would block a plain open()
    with pytest.raises(SavedDataError, match="not a regular file"):
        _load(path)
    shutil.rmtree(path / "variables")
    os.mkdir(path / "variables")
    with pytest.raises(tf.errors.NotFoundError):
        _load(path)


@pytest.mark.parametrize("cut", [1, 100, 5000, -3])
def test_truncated_saved_model_proto(tmp_path, cut):
    path = copy_fixture("mlp", tmp_path)
    data = (path / "saved_model.pb").read_bytes()
    (path / "saved_model.pb").write_bytes(data[:cut])
    with pytest.raises(SavedDataError, match="saved_model.pb") as info:
        _load(path)
    assert info.value.file.endswith("saved_model.pb")


def _edit(path, change):
    proto = messages().SavedModel()
    proto.ParseFromString((path / "saved_model.pb").read_bytes())
    change(proto.meta_graphs[0])
    (path / "saved_model.pb").write_bytes(proto.SerializeToString())


def _function(meta, prefix="__inference___call__"):
    return next(f for f in meta.graph_def.library.function
                if f.signature.name.startswith(prefix))


def _node(meta, op):
    return next(n for n in _function(meta).node_def if n.op == op)


def _huge_constant(meta):
    tensor = _node(meta, "Const").attr["value"].tensor if any(
        n.op == "Const" for n in _function(meta).node_def) else None
    node = _function(meta).node_def.add(name="huge", op="Const")
    node.attr["dtype"].type = 1
    node.attr["value"].tensor.dtype = 1
    node.attr["value"].tensor.tensor_shape.dim.add(size=2**40)
    return tensor


def _self_call(meta):
    function = _function(meta)
    node = function.node_def.add(name="again", op="PartitionedCall")
    node.attr["f"].func.name = function.signature.name
    node.attr["Tin"].list.SetInParent()
    node.attr["Tout"].list.SetInParent()


def _cycle(meta):
    nodes = [n for n in _function(meta).node_def if n.op == "MatMul"]
    nodes[0].input.append(f"^{nodes[-1].name}")
    nodes[-1].input.append(f"^{nodes[0].name}")


CHANGES = {
    "a child that does not exist": (
        lambda m: m.object_graph_def.nodes[0].children.add(node_id=10**6, local_name="x"),
        InvalidSavedDataError, "does not exist"),
    "an input naming nothing": (
        lambda m: _node(m, "MatMul").input.__setitem__(0, "nowhere:output:0"),
        InvalidSavedDataError, "names no node"),
    "an output index out of range": (
        lambda m: _node(m, "Relu").input.__setitem__(0, _node(m, "AddV2").name + ":z:7"),
        InvalidSavedDataError, "no such output"),
    "a dtype that does not exist": (
        lambda m: _node(m, "MatMul").attr["T"].__setattr__("type", 77),
        InvalidSavedDataError, "dtype enum 77"),
    "a huge constant": (_huge_constant, InvalidSavedDataError, "more than"),
    "a function calling itself": (_self_call, InvalidSavedDataError, "calls itself"),
    "a cycle": (_cycle, InvalidSavedDataError, "cycle"),
    "an attr tracegraph lacks": (
        lambda m: _node(m, "MatMul").attr["no_such_attr"].__setattr__("i", 3),
        UnsupportedNodeError, "no_such_attr=3 is not implemented"),
    "a type attr that lies": (
        lambda m: _node(m, "Relu").attr["T"].__setattr__("type", 2),
        InvalidSavedDataError, "attr T says"),
    "a variable of the wrong dtype": (
        lambda m: next(n for n in m.object_graph_def.nodes
                       if n.WhichOneof("kind") == "variable").variable.__setattr__("dtype", 2),
        InvalidSavedDataError, "float32 value .* for a float64 variable"),
    "a variable of another shape": (
        lambda m: next(n for n in m.object_graph_def.nodes
                       if n.WhichOneof("kind") == "variable").variable.shape.dim.add(size=9),
        InvalidSavedDataError, "variable of shape"),
    "no object graph": (lambda m: m.ClearField("object_graph_def"), InvalidSavedDataError,
                        "TensorFlow 1 SavedModel"),
}


@pytest.mark.parametrize("case", sorted(CHANGES))
def test_malformed_models_are_refused_with_the_place_named(tmp_path, case):
    change, error, message = CHANGES[case]
    path = copy_fixture("mlp", tmp_path)
    _edit(path, change)
    with pytest.raises(error, match=message) as info:
        _load(path)
    assert str(path / "saved_model.pb") in str(info.value) or \
        str(path / "variables") in str(info.value)


def test_deep_function_nesting_is_bounded(tmp_path):
    path = copy_fixture("mlp", tmp_path)

    def chain(meta):
        library = meta.graph_def.library
        base = _function(meta)
        previous = base.signature.name
        for i in range(80):                  # f_i calls f_{i-1}: deeper than the bound
            f = library.function.add()
            f.CopyFrom(base)
            f.signature.name = f"chain_{i}"
            call = f.node_def.add(name="deeper", op="StatefulPartitionedCall")
            call.attr["f"].func.name = previous
            call.attr["Tin"].list.SetInParent()
            call.attr["Tout"].list.SetInParent()
            previous = f.signature.name
        meta.object_graph_def.concrete_functions[previous].CopyFrom(
            meta.object_graph_def.concrete_functions[base.signature.name])
        node = next(n for n in meta.object_graph_def.nodes if n.WhichOneof("kind") ==
                    "function" and n.function.concrete_functions[0] == base.signature.name)
        node.function.concrete_functions[0] = previous
    _edit(path, chain)
    with pytest.raises(SavedDataError, match="nested deeper than"):
        _load(path)
