"""tf.Module: tracking through attributes and containers, name scopes, paths for saving."""

import pytest

import tracegraph as tf


class Dense(tf.Module):
    def __init__(self, n_in, n_out, name=None):
        super().__init__(name=name)
        self.w = tf.Variable(tf.ones([n_in, n_out]), name="w")
        self.b = tf.Variable(tf.zeros([n_out]), name="b", trainable=False)

    @tf.Module.with_name_scope
    def __call__(self, x):
        return tf.matmul(x, self.w) + self.b


class Model(tf.Module):
    def __init__(self):
        super().__init__()
        self.layers = [Dense(2, 3, name="first"), (Dense(3, 1, name="second"),)]
        self.extra = {"scale": tf.Variable(2.0, name="scale")}
        self.again = self.layers[0]  # the same module twice: tracked once

    @tf.function
    def __call__(self, x):
        for layer in (self.layers[0], self.layers[1][0]):
            x = layer(x)
        return x * self.extra["scale"]


def test_tracking_through_containers_each_object_once():
    m = Model()
    assert m.name == "model"
    assert [s.name for s in m.submodules] == ["first", "second"]
    assert [v.name for v in m.variables] == ["scale:0", "b:0", "w:0", "b:0", "w:0"]
    assert [v.name for v in m.trainable_variables] == ["scale:0", "w:0", "w:0"]
    assert [v.name for v in m.non_trainable_variables] == ["b:0", "b:0"]
    paths = [p for p, _ in m._flatten(predicate=lambda v: isinstance(v, tf.Variable),
                                      with_path=True)]
    assert ("extra", "scale") in paths and ("layers", 1, 0, "w") in paths


def test_name_scope_names_the_ops_of_a_traced_method():
    m = Model()
    out = m(tf.constant([[1.0, 2.0]]))
    assert out.numpy().tolist() == [[18.0]]
    names = [op.name for op in m.__call__.get_concrete_function(
        tf.constant([[1.0, 2.0]])).graph.get_operations()]
    assert any(n.startswith("first/") for n in names)
    assert any(n.startswith("second/") for n in names)


def test_gradients_of_a_module_and_bad_names():
    m = Model()
    with tf.GradientTape() as tape:
        y = m(tf.constant([[1.0, 2.0]]))
    grads = tape.gradient(y, m.trainable_variables)
    assert [g.shape.as_list() for g in grads] == [[], [2, 3], [3, 1]]
    with pytest.raises(ValueError, match="not a valid module name"):
        tf.Module(name="no spaces")


def test_modules_referring_to_each_other_do_not_loop():
    a, b = tf.Module(name="a"), tf.Module(name="b")
    a.other, b.other = b, a
    a.v = tf.Variable(1.0)
    assert [s.name for s in a.submodules] == ["b"]  # as TensorFlow: a module is not its own
    assert len(a.variables) == 1
