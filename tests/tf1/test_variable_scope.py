"""Variable scopes, get_variable, collections and initializers against TensorFlow 2.21 (the
names, reuse rules and messages of TF 2.21 running the same code)."""

import numpy as np
import pytest

import tracegraph as tf

v1 = tf.compat.v1


@pytest.fixture
def graph():
    g = tf.Graph()
    with g.as_default():
        yield g


def test_names_reuse_and_auto_reuse(graph):
    with v1.variable_scope("layer1"):
        w = v1.get_variable("w", shape=[2, 3], initializer=v1.zeros_initializer())
        b = v1.get_variable("b", [3], initializer=v1.constant_initializer(0.5), trainable=False)
        assert repr(w) == "<tf.Variable 'layer1/w:0' shape=(2, 3) dtype=float32>"
        assert repr(b) == "<tf.Variable 'layer1/b:0' shape=(3,) dtype=float32>"
        assert tf.constant(1.0, name="c").name == "layer1/c:0"
    with pytest.raises(ValueError, match=r"^Variable layer1/w already exists, disallowed\. Did "
                                         r"you mean to set reuse=True or reuse=tf\.AUTO_REUSE "
                                         r"in VarScope\?$"):
        with v1.variable_scope("layer1"):
            v1.get_variable("w", shape=[2, 3])
    with v1.variable_scope("layer1", reuse=True):
        assert v1.get_variable("w") is w
        assert tf.constant(1.0, name="c").name == "layer1_2/c:0"   # a new name scope
    with pytest.raises(ValueError, match=r"^Variable layer1/zz does not exist, or was not "
                                         r"created with tf\.get_variable\(\)\. Did you mean to "
                                         r"set reuse=tf\.AUTO_REUSE in VarScope\?$"):
        with v1.variable_scope("layer1", reuse=True):
            v1.get_variable("zz", [1])
    with v1.variable_scope("layer1", reuse=v1.AUTO_REUSE):
        assert v1.get_variable("w") is w
        q = v1.get_variable("q", [1])
        assert q.name == "layer1/q:0"
    with v1.variable_scope("layer1") as scope:
        assert scope.name == "layer1" and scope.reuse is False
        scope.reuse_variables()
        assert v1.get_variable("w") is w and scope.reuse is True
    with v1.variable_scope("layer1", reuse=True):
        with pytest.raises(ValueError, match=r"^Trying to share variable layer1/w, but specified "
                                             r"shape \(3, 3\) and found shape \(2, 3\)\.$"):
            v1.get_variable("w", shape=[3, 3])
    x = v1.get_variable("x", [2])
    assert x.name == "x:0" and x.trainable
    assert [v.name for v in v1.global_variables()] == ["layer1/w:0", "layer1/b:0",
                                                       "layer1/q:0", "x:0"]
    assert [v.name for v in v1.trainable_variables()] == ["layer1/w:0", "layer1/q:0", "x:0"]
    assert v1.get_collection(v1.GraphKeys.TRAINABLE_VARIABLES) == v1.trainable_variables()
    assert [v.name for v in v1.global_variables("layer1")] == ["layer1/w:0", "layer1/b:0",
                                                               "layer1/q:0"]
    assert v1.local_variables() == []


def test_reentering_a_scope_object_and_nesting(graph):
    with v1.variable_scope("outer") as outer:
        with v1.variable_scope("inner"):
            a = v1.get_variable("a", [1])
    with v1.variable_scope(outer, reuse=True):
        with v1.variable_scope("inner"):
            assert v1.get_variable("a") is a
            assert tf.constant(1.0, name="c").name == "outer_1/inner/c:0"
    assert a.name == "outer/inner/a:0"
    with v1.variable_scope(None, default_name="block"):
        first = v1.get_variable("k", [1])
    with v1.variable_scope(None, default_name="block"):
        second = v1.get_variable("k", [1])
    assert (first.name, second.name) == ("block/k:0", "block_1/k:0")


def test_initializers_and_local_variables(graph):
    with v1.variable_scope("s", initializer=v1.ones_initializer()):
        ones = v1.get_variable("ones", [2])
    init = v1.get_variable("init", initializer=tf.constant([1, 2, 3]))
    assert init.dtype == tf.int32 and init.shape == (3,)
    with pytest.raises(ValueError, match="If initializer is a constant, do not specify shape."):
        v1.get_variable("bad", [3], initializer=tf.constant([1, 2, 3]))
    const = v1.get_variable("const", [2, 2], initializer=v1.constant_initializer([1., 2.]))
    glorot = v1.get_variable("glorot", [30, 40])
    u = v1.get_variable("u", [1], collections=[v1.GraphKeys.LOCAL_VARIABLES])
    assert v1.local_variables() == [u] and u not in v1.global_variables()
    inits = v1.variables_initializer([ones, init])
    assert [c.name for c in inits.control_inputs] == ["s/ones/Assign", "init/Assign"]
    with v1.Session() as s:
        s.run(v1.global_variables_initializer())
        np.testing.assert_array_equal(s.run(ones), [1., 1.])
        np.testing.assert_array_equal(s.run(const), [[1., 2.], [2., 2.]])   # TF1 pads
        values = s.run(glorot)
        limit = np.sqrt(6.0 / 70)
        assert np.abs(values).max() <= limit and values.std() > limit / 3
        with pytest.raises(tf.errors.FailedPreconditionError):
            s.run(u)
        s.run(v1.local_variables_initializer())
        assert s.run(u).shape == (1,)


def test_regularizer_losses(graph):
    with v1.variable_scope("m", regularizer=lambda w: tf.reduce_sum(w * w)):
        w = v1.get_variable("w", initializer=tf.constant([1.0, 2.0]))
    losses = v1.get_collection(v1.GraphKeys.REGULARIZATION_LOSSES)
    assert len(losses) == 1 and losses[0].name.startswith("m/w/Regularizer/")
    with v1.Session() as s:
        s.run(w.initializer)
        assert s.run(losses[0]) == 5.0


def test_eager_get_variable_makes_a_new_variable_each_time():
    with v1.variable_scope("s"):
        a = v1.get_variable("a", [2], initializer=v1.ones_initializer())
    with v1.variable_scope("s"):
        b = v1.get_variable("a", [2], initializer=v1.ones_initializer())
    assert repr(a) == ("<tf.Variable 's/a:0' shape=(2,) dtype=float32, numpy=array([1., 1.], "
                       "dtype=float32)>")
    assert a is not b and v1.global_variables() == []
