"""tf.compat.v1.wrap_function: TF1-style code as a callable function, its lifted variables and
pruning (TF 2.21's values)."""

import numpy as np
import pytest

import tracegraph as tf

v1 = tf.compat.v1


def test_variables_are_lifted_and_initialized():
    def f(x):
        v = v1.get_variable("v", initializer=v1.constant_initializer(2.0), shape=[])
        return x * v

    wf = v1.wrap_function(f, [tf.TensorSpec([], tf.float32)])
    assert type(wf).__name__ == "WrappedFunction"
    out = wf(tf.constant(3.0))
    assert str(out) == "tf.Tensor(6.0, shape=(), dtype=float32)"
    assert [v.name for v in wf.variables] == ["v:0"] and wf.trainable_variables == wf.variables
    assert repr(wf.variables[0]) == "<tf.Variable 'v:0' shape=() dtype=float32, numpy=2.0>"
    assert wf.structured_input_signature == (
        (tf.TensorSpec(shape=(), dtype=tf.float32, name="tensor_0"),), {})
    types = [op.type for op in wf.graph.get_operations()]
    assert types[:4] == ["Placeholder", "Placeholder", "ReadVariableOp", "Mul"]
    wf.variables[0].assign(5.0)
    assert float(wf(tf.constant(3.0))) == 15.0   # reads the Variable, not a copy


def test_prune_feeds_a_placeholder_made_inside():
    def g():
        x = v1.placeholder(tf.float32, name="x")
        y = x * 2.0
        return y

    wg = v1.wrap_function(g, [])
    assert wg.inputs == []
    pruned = wg.prune(feeds=wg.graph.get_tensor_by_name("x:0"),
                      fetches=wg.graph.get_tensor_by_name("mul:0"))
    assert type(pruned).__name__ == "WrappedFunction"
    assert str(pruned(tf.constant(4.0))) == "tf.Tensor(8.0, shape=(), dtype=float32)"
    both = wg.prune(feeds=[wg.graph.get_tensor_by_name("x:0")],
                    fetches={"y": wg.graph.get_tensor_by_name("mul:0")})
    np.testing.assert_array_equal(both(tf.constant([1.0, 2.0]))["y"], [2.0, 4.0])
    with pytest.raises(tf.errors.InvalidArgumentError, match="You must feed a value for "
                                                             "placeholder tensor 'x'"):
        wg.prune(feeds=[], fetches=wg.graph.get_tensor_by_name("mul:0"))
