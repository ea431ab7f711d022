"""Trackable, AutoTrackable and the trackable data structures, as TensorFlow 2.21 has them
(values recorded from TF: tf.Module attributes wrapped, dependency names and order, errors)."""

import copy

import pytest

import tracegraph as tf
from tracegraph.compat.python.trackable import data_structures as ds
from tracegraph.framework.tracking import AutoTrackable, NoDependency, Trackable


def test_module_attributes_are_wrapped_and_tracked():
    m = tf.Module()
    v = tf.Variable(1.0)
    m.a = [v, 2]
    m.b = {"k": v, "n": [v]}
    m.c = NoDependency([1])
    m.t = (v, 1)
    assert type(m.a).__name__ == "ListWrapper" and isinstance(m.a, list) and m.a == [v, 2]
    assert repr(m.a).startswith("ListWrapper([<tf.Variable")
    assert type(m.b).__name__ == "_DictWrapper" and isinstance(m.b, dict)
    assert repr(m.b).startswith("DictWrapper(") and type(m.b["n"]).__name__ == "ListWrapper"
    assert type(m.c) is list
    assert type(m.t).__name__ == "_TupleWrapper" and isinstance(m.t, tuple)
    assert sorted(m._trackable_children()) == ["a", "b", "t"]
    assert list(m.a._trackable_children()) == ["0"]
    assert list(m.b._trackable_children()) == ["k", "n"]
    assert [name for name, _ in m._checkpoint_dependencies] == ["a", "b", "t"]
    del m.a
    assert [name for name, _ in m._checkpoint_dependencies] == ["b", "t"]
    assert m._lookup_dependency("b") is m.b
    assert m.variables == (v,)          # tf.Module's own walk is unchanged


def test_variables_and_modules_are_trackables():
    v = tf.Variable(1.0)
    assert isinstance(v, tf.__internal__.tracking.Trackable)
    assert isinstance(tf.Module(), tf.__internal__.tracking.AutoTrackable)
    assert v._trackable_children() == {}
    assert list(v._serialize_to_tensors()) == ["VARIABLE_VALUE"]
    v._restore_from_tensors({"VARIABLE_VALUE": tf.constant(9.0)})
    assert v.numpy() == 9.0


def test_track_trackable_names_are_unique_unless_overwritten():
    m = tf.Module()
    m.b = tf.Variable(1.0)
    with pytest.raises(ValueError, match="with name='b', but a Trackable with this name is "
                                         "already declared"):
        m._track_trackable(tf.Variable(2.0), "b")
    w = m._track_trackable(tf.Variable(3.0), "b", overwrite=True)
    assert m._lookup_dependency("b") is w
    with pytest.raises(TypeError, match="can only be used to track objects of type Trackable"):
        m._track_trackable(3, "x")


def test_list_wrapper_behaves_as_a_list():
    w = ds.ListWrapper([1, 2])
    assert w + [3] == [1, 2, 3] and type(w + [3]) is list
    assert type(w[0:1]) is list
    with pytest.raises(TypeError, match="unhashable type: 'ListWrapper'"):
        hash(w)
    w.append([4])
    assert type(w[-1]).__name__ == "ListWrapper"
    assert type(copy.deepcopy(w)).__name__ == "ListWrapper"
    d = ds._DictWrapper({"a": 1})
    d["b"] = {"c": 2}
    assert type(d["b"]).__name__ == "_DictWrapper" and d == {"a": 1, "b": {"c": 2}}


def test_no_automatic_dependency_tracking():
    class Holder(AutoTrackable):
        @tf.__internal__.tracking.no_automatic_dependency_tracking
        def set_plain(self, value):
            self.plain = value

    h = Holder()
    h.set_plain([tf.Variable(1.0)])
    h.tracked = [1]
    assert type(h.plain) is list and type(h.tracked).__name__ == "ListWrapper"
    assert list(h._trackable_children()) == ["tracked"]
    assert h._setattr_tracking is True


def test_trackable_needs_no_init():
    class Plain(Trackable):
        def __init__(self):   # never calls Trackable.__init__ (Keras's classes don't)
            self.x = 1

    p = Plain()
    child = p._track_trackable(tf.Variable(1.0), "child")
    assert p._trackable_children() == {"child": child}


def test_checkpoint_of_a_module_with_wrapped_lists(tmp_path):
    m = tf.Module()
    m.layers = [tf.Variable([1.0, 2.0]), {"bias": tf.Variable(3.0)}]
    path = tf.train.Checkpoint(model=m).save(str(tmp_path / "ckpt"))
    m.layers[0].assign([0.0, 0.0])
    m.layers[1]["bias"].assign(0.0)
    tf.train.Checkpoint(model=m).restore(path)
    assert m.layers[0].numpy().tolist() == [1.0, 2.0] and m.layers[1]["bias"].numpy() == 3.0
