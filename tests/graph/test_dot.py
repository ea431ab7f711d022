"""Graph pictures: DOT text names every op and edge (sub-graphs as clusters); dot renders it."""

import importlib.util
import re
import shutil
import sys
import xml.etree.ElementTree as ET

import pytest

import tracegraph as tf


def _model():
    @tf.function
    def model(x):
        y = tf.matmul(x, tf.ones([3, 2]))
        if tf.reduce_sum(y) > 0:
            y = y * 2.0
        i = tf.constant(0)
        while i < 3:
            y = y + 1.0
            i += 1
        return tf.nn.relu(y)
    return model.get_concrete_function(tf.TensorSpec([None, 3]))


def _all_graphs(graph, prefix=""):
    yield prefix, graph
    for op in graph.operations:
        for attr, sub in op.subgraphs():
            yield from _all_graphs(sub, f"{prefix}{op.name}/{attr}/")


def test_dot_has_every_op_edge_and_cluster():
    concrete = _model()
    text = concrete.graph.to_dot()
    assert text.startswith('digraph "') and text.rstrip().endswith("}")
    nodes = set(re.findall(r'^\s*"([^"]+)" \[label=', text, re.M))
    edges = set(re.findall(r'^\s*"([^"]+)" -> "([^"]+)" \[label="([^"]+)"', text, re.M))
    clusters = 0
    for prefix, graph in _all_graphs(concrete.graph):
        clusters += bool(prefix)
        for op in graph.operations:
            assert prefix + op.name in nodes
            for t in op.inputs:
                shape = ",".join("?" if s is None else str(s) for s in t._shape)
                assert (prefix + t.op.name, prefix + op.name, f"{t.dtype.name}[{shape}]") in edges
    assert clusters == 4  # then/else branches, loop condition and body
    assert text.count("subgraph cluster_") == clusters
    assert '"MatMul" -> "AddV2"' not in text  # a traced graph, not a made-up one
    assert '"x" -> "MatMul" [label="float32[?,3]"' in text


def test_control_edges_are_dashed():
    v = tf.Variable(1.0)

    @tf.function
    def f(x):
        v.assign_add(x)
        tf.print(x)
        return v.read_value()

    text = f.get_concrete_function(tf.constant(1.0)).graph.to_dot()
    assert "style=dashed" in text


def test_bad_rankdir_is_rejected():
    with pytest.raises(ValueError, match="rankdir"):
        _model().graph.to_dot(rankdir="sideways")


needs_dot = pytest.mark.skipif(shutil.which("dot") is None or
                               importlib.util.find_spec("graphviz") is None,
                               reason="Graphviz's dot program is not installed")


@needs_dot
def test_svg_and_png_images(tmp_path):
    concrete = _model()
    svg_path = concrete.optimized_graph.to_image(tmp_path / "model.svg")
    root = ET.parse(svg_path).getroot()
    titles = {e.text for e in root.iter("{http://www.w3.org/2000/svg}title")}
    for prefix, graph in _all_graphs(concrete.optimized_graph):
        assert {prefix + op.name for op in graph.operations} <= titles
    png = concrete.graph.to_image(tmp_path / "model.png")
    with open(png, "rb") as f:
        assert f.read(8) == b"\x89PNG\r\n\x1a\n"
    assert concrete.graph._repr_svg_().lstrip().startswith("<?xml")


@needs_dot
def test_unknown_image_format_is_rejected(tmp_path):
    with pytest.raises(ValueError, match="Unsupported image format"):
        _model().graph.to_image(tmp_path / "model.gif")


def test_missing_graphviz_names_the_extra(monkeypatch, tmp_path):
    monkeypatch.setitem(sys.modules, "graphviz", None)
    with pytest.raises(ImportError, match=r"pip install 'tracegraph\[graphviz\]'"):
        _model().graph.to_image(tmp_path / "model.svg")
    assert _model().graph._repr_svg_() is None
