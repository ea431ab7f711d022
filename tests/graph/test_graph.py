"""The graph IR: names, lookup, the text printer, GraphDef text format, the verifier (R-5)."""

import re

import pytest

import tracegraph as tf
from tracegraph.graph.graph import FuncGraph
from tracegraph.graph.verify import GraphVerificationError, verify


def traced(fn, *args):
    return tf.function(fn).get_concrete_function(*args).graph


def test_scoped_names_and_lookup():
    g = traced(lambda x: tf.greater(x, 0), tf.constant(1))
    names = [op.name for op in g.get_operations()]
    assert names == ["x", "Greater/y", "Greater", "Identity"]
    assert g.get_operation_by_name("Greater").type == "Greater"
    assert g.get_tensor_by_name("Greater/y:0").dtype is tf.int32
    with pytest.raises(KeyError):
        g.get_operation_by_name("nope")
    with pytest.raises(ValueError):
        g.get_tensor_by_name("Greater")
    op = g.get_operation_by_name("Greater")
    assert [t.name for t in op.inputs] == ["x:0", "Greater/y:0"]
    assert op.get_attr("T") is tf.int32
    assert op.source is not None and op.source.filename.endswith("test_graph.py")


def test_unique_names():
    def f(x):
        a = tf.add(x, 1)
        b = tf.add(a, 1)
        c = tf.add(b, 1, name="Add_1")
        return c

    g = traced(f, tf.constant(1))
    adds = [op.name for op in g.get_operations() if op.type == "AddV2"]
    assert adds == ["Add", "Add_1", "Add_1_1"]   # TensorFlow's names: tf.add makes `Add`
    assert len({op.name for op in g.get_operations()}) == len(g.get_operations())


def test_symbolic_tensor_printing():
    g = traced(lambda a: a * 2, tf.constant(1.0))
    t = g.inputs[0]
    assert str(t) == 'Tensor("a:0", shape=(), dtype=float32)'
    assert repr(t) == "<tf.Tensor 'a:0' shape=() dtype=float32>"


def test_text_printer_one_line_per_op():
    g = traced(lambda x: tf.reduce_sum(x * 2.0, axis=0), tf.ones([2, 3]))
    lines = g.to_text().splitlines()
    assert lines[0] == "graph <lambda>(x):"
    assert lines[1].startswith("  x = Placeholder[dtype=float32, shape=(2, 3)]")
    assert any(line.strip().startswith("mul = Mul(x, mul/y)") for line in lines)
    assert lines[-1] == "  return Identity"
    assert len(lines) == len(g.get_operations()) + 2


def test_text_printer_shows_scalar_and_small_constants_of_every_kind():
    g = traced(lambda x: (x, tf.constant("hi"), tf.constant(3), tf.constant([1.5])),
               tf.constant("a"))
    text = g.to_text()
    assert "value=b'hi'" in text
    assert "value=3" in text and "value=[1.5]" in text


def test_graph_def_text_format():
    g = traced(lambda x: tf.greater(x, 0), tf.constant(1))
    text = str(g.as_graph_def())
    assert text.startswith('node {\n  name: "x"\n  op: "Placeholder"\n  attr {\n'
                           '    key: "_user_specified_name"\n    value {\n      s: "x"\n')
    assert ('node {\n  name: "Greater/y"\n  op: "Const"\n  attr {\n    key: "dtype"\n'
            '    value {\n      type: DT_INT32\n    }\n  }\n  attr {\n    key: "value"\n'
            '    value {\n      tensor {\n        dtype: DT_INT32\n        tensor_shape {\n'
            '        }\n        int_val: 0\n      }\n    }\n  }\n}\n') in text
    assert ('node {\n  name: "Greater"\n  op: "Greater"\n  input: "x"\n  input: "Greater/y"\n'
            '  attr {\n    key: "T"\n    value {\n      type: DT_INT32\n    }\n  }\n}\n') in text
    assert text.endswith("versions {\n  producer: 1286\n  min_consumer: 12\n}\n")
    graph_def = g.as_graph_def()
    assert [n.name for n in graph_def.node] == ["x", "Greater/y", "Greater", "Identity"]
    assert graph_def.node[2].attr["T"].type == "DT_INT32"


def test_graph_def_shapes_and_control_inputs():
    v = tf.Variable(1.0)

    def f(x):
        v.assign_add(tf.reduce_sum(x))
        return v.read_value()

    text = str(traced(f, tf.TensorSpec([None, 2])).as_graph_def())
    assert "dim {\n          size: -1\n        }" in text
    assert 'input: "^AssignAddVariableOp"' in text


def test_verifier_accepts_traced_graphs_and_catches_breakage():
    g = traced(lambda x: x * 2 + 1, tf.constant(1))
    verify(g)
    broken = FuncGraph("broken")
    broken._ops = list(reversed(g.get_operations()))
    broken._by_name = {op.name: op for op in broken._ops}
    with pytest.raises(GraphVerificationError):
        verify(broken)


def test_name_scope_and_control_dependencies():
    g = FuncGraph("manual")
    with g.as_default():
        with g.name_scope("block"):
            a = tf.constant(1.0)
            b = a + 1
        with g.control_dependencies([b]):
            c = tf.constant(2.0) * 3
    names = [op.name for op in g.get_operations()]
    assert "block/Const" in names and "block/add" in names and "block/add/y" in names
    mul = g.get_operation_by_name("mul")
    assert [op.name for op in mul.control_inputs] == ["block/add"]
    assert c.shape == ()


def test_public_name_scope_and_control_dependencies():
    v = tf.Variable(0.0)

    @tf.function
    def f(x):
        with tf.name_scope("layer"):
            y = x * 2.0
        with tf.control_dependencies([v.assign_add(1.0)]):
            z = y + 1.0
        return z

    assert f(tf.constant(1.0)).numpy() == 3.0 and v.numpy() == 1.0
    g = f.get_concrete_function(tf.constant(1.0)).graph
    assert "layer/mul" in [op.name for op in g.get_operations()]
    add = next(op for op in g.get_operations() if op.name == "add")
    assert [c.type for c in add.control_inputs] == ["AssignAddVariableOp"]
    with tf.name_scope("eager"), tf.control_dependencies([]):
        assert (tf.constant(1) + 1).numpy() == 2


def test_what_passes_read_of_a_tensor():
    g = tf.function(lambda x: (tf.shape(x), x * 2.0)).get_concrete_function(
        tf.TensorSpec([None, 3], tf.float32)).graph
    x = g.inputs[0]
    assert x.dims == (None, 3) and x.known_shape is None and x.static_nbytes is None
    shape = g.get_operation_by_name("Shape").outputs[0]
    assert shape.dims == (2,) and shape.known_shape == (2,) and shape.static_nbytes == 8
    assert shape.known_value is None  # x's first dim is unknown: no value at trace time
    k = traced(lambda: tf.shape(tf.zeros([4, 5]))).outputs[0].op.inputs[0]
    assert k.known_value.tolist() == [4, 5]
    unknown = tf.function(lambda x: x).get_concrete_function(
        tf.TensorSpec(None, tf.float32)).graph.inputs[0]
    assert unknown.dims is None and unknown.known_shape is None and unknown.ndim is None


def test_copy_remove_and_release_name():
    g = traced(lambda x: x + 1.0, tf.constant([1.0, 2.0]))
    add = g.get_operation_by_name("add")
    add.inplace_input = 0
    dst = FuncGraph("copy")
    x = dst.placeholder(add.inputs[0].tensor_type, "x")
    one = dst.placeholder(add.inputs[1].tensor_type, "one")
    copy = dst.copy_operation(add, dst.unique_name("AddV2"), [x, one], [])
    assert copy.type == "AddV2" and copy.attrs == add.attrs and copy.attrs is not add.attrs
    assert copy.inplace_input == 0 and copy.source is add.source
    assert copy.outputs[0].tensor_type.shape == add.outputs[0].tensor_type.shape
    assert "_inplace" not in copy.attrs and "_inplace" not in str(dst.as_graph_def())
    dst.remove_operations([copy])
    assert [op.name for op in dst.operations] == ["x", "one"]
    with pytest.raises(KeyError):
        dst.get_operation_by_name("AddV2")
    dst.release_name("AddV2")
    assert dst.unique_name("AddV2") == "AddV2"   # free again
    assert dst.unique_name("AddV2") == "AddV2_1"
    dst.release_name("AddV2")                    # a numbered variant was handed out: kept
    assert dst.unique_name("AddV2") == "AddV2_2"


def test_marks_come_from_the_declared_vocabulary():
    from tracegraph.graph.marks import GRAPH_MARKS
    from tracegraph.optimize.jit_fusion import jit_fusion
    g = FuncGraph("g")
    assert not g.marks and not g.has_mark("jit_cluster")
    with pytest.raises(ValueError, match="unknown graph mark 'jit_clster'.*graph/marks.py"):
        g.mark("jit_clster")
    g.mark("jit_cluster")
    assert g.has_mark("jit_cluster") and not g.copy()[0].marks   # a copy starts unmarked
    fused = jit_fusion(traced(lambda x: tf.tanh(x * 2.0 + 1.0), tf.constant([1.0, 2.0])))
    bodies = [op.attrs["f"] for op in fused.operations if op.type == "_FusedElementwise"]
    assert bodies and all(b.marks == {"jit_cluster"} for b in bodies)
    assert all(isinstance(m, str) and m for m in GRAPH_MARKS.values())


def test_a_branch_input_is_named_after_the_value_it_captures():
    # issue 26, item 18: `return x` in a cond branch made an input Placeholder named "Const"
    @tf.function
    def simple_relu(x):
        if tf.greater(x, 0):
            return x
        else:
            return 0

    graph = simple_relu.get_concrete_function(tf.constant(1)).graph
    cond = next(op for op in graph.get_operations() if op.type == "StatelessIf")
    then_branch = cond.attrs["then_branch"]
    assert [t.op.name for t in then_branch.inputs] == ["x"]
    assert re.search(r"graph cond_true_\d+\(x\):\n +x = Placeholder", graph.to_text())
