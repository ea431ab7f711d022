"""tf.name_scope and tf.Module's name scopes as TensorFlow 2.21 has them (issue 26, item 9):
the expected values are what TF 2.21 prints for the same code."""

import pytest

import tracegraph as tf


class Bar(tf.Module):
    pass


class Badger(tf.Module):
    def __init__(self):
        super().__init__()
        with self.name_scope:
            self.v = tf.Variable(1.0, name="mushroom")

    @tf.Module.with_name_scope
    def make(self):
        self.sub = Bar()
        self.w = tf.Variable(2.0, name="w")


class Dense(tf.Module):
    def __init__(self, name=None):
        super().__init__(name=name)
        with self.name_scope:
            self.w = tf.Variable(tf.ones([2, 2]), name="w")

    @tf.Module.with_name_scope
    def __call__(self, x):
        return tf.matmul(x, self.w)


class Seq(tf.Module):
    def __init__(self):
        super().__init__()
        with self.name_scope:
            self.d1 = Dense()
            self.d2 = Dense()

    @tf.Module.with_name_scope
    def __call__(self, x):
        return self.d2(self.d1(x))


def test_eager_name_scopes_nest_and_name_variables():
    with tf.name_scope("a") as a:
        with tf.name_scope("b") as b:
            names = [tf.Variable(1.0, name="v").name, tf.Variable(1.0).name]
        with tf.name_scope("x/") as absolute:
            absolute_name = tf.Variable(1.0, name="v").name
        with tf.name_scope("") as top:
            top_name = tf.Variable(1.0, name="v").name
    assert (a, b, absolute, top) == ("a/", "a/b/", "x/", "")
    assert names == ["a/b/v:0", "a/b/Variable:0"]
    assert (absolute_name, top_name) == ("x/v:0", "v:0")
    assert type(tf.name_scope("q")).__name__ == "name_scope_v2"
    assert tf.name_scope("q").name == "q"
    with pytest.raises(ValueError, match="name for name_scope must be a string"):
        tf.name_scope(3)


def test_module_scope_includes_the_enclosing_scope_and_is_one_object():
    with tf.name_scope("foo"):
        b = Bar()
    assert (b.name, b.name_scope.name) == ("bar", "foo/bar/")
    assert b.name_scope is b.name_scope
    with tf.name_scope("x"):
        with b.name_scope as entered:  # absolute: the enclosing scope does not matter
            v = tf.Variable(1.0, name="mushroom")
    assert entered == "foo/bar/" and v.name == "foo/bar/mushroom:0"


def test_variables_and_submodules_under_a_module_scope():
    badger = Badger()
    assert (badger.v.name, badger.name_scope.name) == ("badger/mushroom:0", "badger/")
    badger.make()
    assert (badger.sub.name_scope.name, badger.w.name) == ("badger/bar/", "badger/w:0")
    s = Seq()
    assert [s.d1.name_scope.name, s.d2.name_scope.name, s.d1.w.name, s.d2.w.name] == \
        ["seq/dense/", "seq/dense/", "seq/dense/w:0", "seq/dense/w:0"]


def test_traced_ops_and_variables_take_the_module_scope():
    s = Seq()
    graph = tf.function(lambda x: s(x)).get_concrete_function(tf.TensorSpec([2, 2])).graph
    matmuls = [op.name for op in graph.get_operations() if op.type == "MatMul"]
    assert matmuls == ["seq/dense/MatMul", "seq/dense/MatMul_1"]

    class Lazy(tf.Module):
        def __init__(self):
            super().__init__()
            self.v = None

        @tf.function
        def __call__(self, x):
            if self.v is None:
                with self.name_scope:
                    self.v = tf.Variable(2.0, name="mushroom")
            return self.v * x

    m = Lazy()
    m(tf.constant(1.0))
    assert m.v.name == "lazy/mushroom:0"

    @tf.function
    def made_inside():
        with tf.name_scope("in_fn"):
            q = Bar()
        return q.name_scope.name

    assert made_inside().numpy() == b"in_fn/bar/"


def test_graph_scopes_are_made_unique_and_a_trailing_slash_reenters():
    @tf.function
    def k():
        with tf.name_scope("foo"):
            a = tf.constant(1.0)
        with tf.name_scope("foo"):
            b = tf.constant(1.0)
        with tf.name_scope("foo/"):
            c = tf.constant(1.0, name="c")
        return a + b + c

    names = [op.name for op in k.get_concrete_function().graph.get_operations()]
    assert names[:3] == ["foo/Const", "foo_1/Const", "foo/c"]

    with tf.name_scope("outer"):  # a function's graph starts at the top scope
        g = tf.function(lambda x: tf.identity(x, name="idn")).get_concrete_function(
            tf.TensorSpec([])).graph
    assert "idn" in [op.name for op in g.get_operations()]
