"""tf.Variable in a TF1 graph: the ops TensorFlow 2.21 makes for it, its printing and what only
eager Variables can do; tensor equality as TF 2.21 decides it."""

import pytest

import tracegraph as tf


def test_a_variable_in_a_tf1_graph_is_five_ops():
    g = tf.Graph()
    with g.as_default():
        v = tf.Variable(1.0)
        w = tf.Variable([[1., 2.]], name="w")
    assert [op.name for op in g.get_operations()] == [
        "Variable/Initializer/initial_value", "Variable",
        "Variable/IsInitialized/VarIsInitializedOp", "Variable/Assign",
        "Variable/Read/ReadVariableOp", "w/Initializer/initial_value", "w",
        "w/IsInitialized/VarIsInitializedOp", "w/Assign", "w/Read/ReadVariableOp"]
    assert [op.type for op in g.get_operations()][:5] == [
        "Const", "VarHandleOp", "VarIsInitializedOp", "AssignVariableOp", "ReadVariableOp"]
    assert isinstance(v, tf.Variable)
    assert repr(v) == "<tf.Variable 'Variable:0' shape=() dtype=float32>"
    assert repr(w) == "<tf.Variable 'w:0' shape=(1, 2) dtype=float32>"   # also outside
    assert v.initializer.name == "Variable/Assign" and v.op.type == "VarHandleOp"
    assert str(v.handle) == 'Tensor("Variable:0", shape=(), dtype=resource)'
    assert v.graph is g and str(v.initial_value).startswith(
        'Tensor("Variable/Initializer/initial_value:0"')
    with pytest.raises(NotImplementedError, match="numpy\\(\\) is only available when eager "
                                                  "execution is enabled."):
        v.numpy()
    with g.as_default():
        assert (v * 2).shape == () and tf.convert_to_tensor(w).shape == (1, 2)
        with pytest.raises(TypeError, match="its value lives in a Session"):
            bool(v)
        assert hash(v) == id(v)   # TF1 graphs hash and compare by identity


def test_tensor_equality_as_tensorflow():
    x, y = tf.Variable(0.0), tf.Variable(0.0)
    assert str(x == y) == "tf.Tensor(True, shape=(), dtype=bool)"
    with pytest.raises(TypeError, match=r"^Variable is unhashable\. Instead, use "
                                        r"variable\.ref\(\) as the key\. \(Variable: "):
        hash(x)
    with tf.Graph().as_default():
        a, b = tf.constant(1.0), tf.constant(1.0)
        assert (a == b) is False and (a == a) is True and (a != b) is True
        assert len({a, b}) == 2
    tf.compat.v1.disable_tensor_equality()
    try:
        assert (x == y) is False and (x != y) is True and len({x, y}) == 2
        with pytest.raises(TypeError, match="Tensor is unhashable"):
            hash(tf.constant(1.0))   # eager tensors never hash (TF 2.21)
    finally:
        tf.compat.v1.enable_tensor_equality()

    @tf.function
    def f(p, q):
        with pytest.raises(TypeError, match="Tensor is unhashable"):
            hash(p)
        return p == q
    assert bool(f(tf.constant(1.0), tf.constant(1.0)))
