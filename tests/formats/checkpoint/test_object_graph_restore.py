"""Restoring by the checkpoint's object graph, as TensorFlow 2.21 does (issue 26 items 6, 7):
an object saved once and reachable by several paths restores through any of them; values
whose objects appear later (list items, attributes of the root Checkpoint) are restored when
they appear; the load status reads the restore's state when asked, so it passes once deferred
values found their objects. Every value and assertion outcome here is TensorFlow 2.21's
(printed by the same code under `import tensorflow as tf`)."""

import numpy as np
import pytest

import tracegraph as tf

# TensorFlow's checkpoints install their attribute hook too: list appends must reach both
from tracegraph.formats.tensorflow import checkpoint_restore  # noqa: F401


def _shared(tmp_path):
    """a at listed/0; b at listed/1 and mapped/two (one node, two parents)."""
    a, b = tf.Variable(1.0), tf.Variable(2.0)
    return tf.train.Checkpoint(listed=[a, b], mapped={"two": b}).save(str(tmp_path / "c"))


def _outcome(check):
    try:
        check()
        return "ok"
    except AssertionError as e:
        return str(e).splitlines()[0]


def test_an_object_reachable_by_two_paths_restores_through_either(tmp_path):
    path = _shared(tmp_path)
    assert sorted(n for n, _ in tf.train.list_variables(path)) == [
        "_CHECKPOINTABLE_OBJECT_GRAPH", "listed/0/.ATTRIBUTES/VARIABLE_VALUE",
        "listed/1/.ATTRIBUTES/VARIABLE_VALUE", "save_counter/.ATTRIBUTES/VARIABLE_VALUE"]
    v = tf.Variable(0.0)
    status = tf.train.Checkpoint(mapped={"two": v}).restore(path)
    assert v.numpy() == 2.0
    with pytest.raises(AssertionError, match="Unresolved object in checkpoint"):
        status.assert_consumed()                   # listed/0 found no object
    status.assert_existing_objects_matched()
    status.assert_nontrivial_match()
    w = tf.Variable(0.0)
    tf.train.Checkpoint(listed=[tf.Variable(0.0), w]).restore(path)
    assert w.numpy() == 2.0


def test_deferred_restoration_of_root_attributes_and_list_items(tmp_path):
    path = _shared(tmp_path)
    root = tf.train.Checkpoint()
    status = root.restore(path)
    with pytest.raises(AssertionError, match="Unresolved object in checkpoint"):
        status.assert_consumed()
    root.listed = [tf.Variable(0.0)]               # an attribute of the root, a list
    assert root.listed[0].numpy() == 1.0
    root.listed.append(tf.Variable(0.0))           # an item appended to that list
    assert root.listed[1].numpy() == 2.0
    status.assert_consumed()                       # every saved value found its object
    # the node of b is bound to root.listed[1]: another object on its other path is not
    # restored, and it is an unmatched Python object
    root.mapped = {"two": tf.Variable(0.0)}
    assert root.mapped["two"].numpy() == 0.0
    with pytest.raises(AssertionError, match="not bound to checkpointed values"):
        status.assert_consumed()


def test_items_appended_to_an_existing_list_are_restored(tmp_path):
    path = _shared(tmp_path)
    root = tf.train.Checkpoint(listed=[])
    root.restore(path)
    root.listed.append(tf.Variable(0.0))
    root.listed.extend([tf.Variable(0.0)])
    assert [float(v.numpy()) for v in root.listed] == [1.0, 2.0]


def test_a_root_attribute_assigned_after_restore(tmp_path):
    path = tf.train.Checkpoint(c=tf.Variable(5.0)).save(str(tmp_path / "e"))
    root = tf.train.Checkpoint()
    status = root.restore(path)
    root.c = tf.Variable(0.0)
    assert root.c.numpy() == 5.0
    status.assert_consumed()
    other = tf.train.Checkpoint()
    other.restore(path)
    other.d = tf.Variable(0.0)                     # not in the checkpoint
    assert other.d.numpy() == 0.0


def test_a_module_attribute_in_a_list_assigned_after_restore(tmp_path):
    net = tf.Module()
    net.layers = [tf.Module(), tf.Module()]
    net.layers[1].w = tf.Variable([3.0, 4.0])
    path = tf.train.Checkpoint(net=net).save(str(tmp_path / "m"))
    fresh = tf.Module()
    fresh.layers = [tf.Module(), tf.Module()]
    status = tf.train.Checkpoint(net=fresh).restore(path)
    fresh.layers[1].w = tf.Variable([0.0, 0.0])
    np.testing.assert_array_equal(fresh.layers[1].w.numpy(), [3.0, 4.0])
    status.assert_consumed()


def test_status_methods_as_tensorflow(tmp_path):
    # (how the checkpoint was written, the restoring tree, read or restore) ->
    # outcomes of assert_consumed, assert_existing_objects_matched, assert_nontrivial_match
    written = tf.train.Checkpoint(a=tf.Variable(1.0)).write(str(tmp_path / "w"))
    unbound = "Found 1 Python objects that were"
    cases = [
        (lambda: tf.train.Checkpoint(a=tf.Variable(0.0)).restore(written),
         (unbound, unbound, "ok")),               # restore creates save_counter: unmatched
        (lambda: tf.train.Checkpoint(a=tf.Variable(0.0)).read(written), ("ok", "ok", "ok")),
        (lambda: tf.train.Checkpoint(a=tf.Variable(0.0), b=tf.Variable(0.0)).restore(written),
         ("Found 2 Python objects that were", "Found 2 Python objects that were", "ok")),
        (lambda: tf.train.Checkpoint(b=tf.Variable(0.0)).restore(written),
         ("Found 2 Python objects that were", "Found 2 Python objects that were",
          "Nothing except the root object matched")),
        (lambda: tf.train.Checkpoint().restore(written),
         (unbound, unbound, "Nothing except the root object matched")),
        (lambda: tf.train.Checkpoint(a=tf.Variable(0.0)).restore(None),
         ("No checkpoint specified (save_path=None)",) * 3),
    ]
    for make, expected in cases:
        status = make()
        got = tuple(_outcome(getattr(status, m)) for m in (
            "assert_consumed", "assert_existing_objects_matched", "assert_nontrivial_match"))
        assert all(g.startswith(e) for g, e in zip(got, expected)), (expected, got)
        assert status.expect_partial() is status


def test_a_variable_created_after_a_deferred_restore_makes_existing_objects_unmatched(tmp_path):
    path = tf.train.Checkpoint(a=tf.Variable(1.0), m=tf.Module()).save(str(tmp_path / "s"))
    root = tf.train.Checkpoint()
    status = root.restore(path)
    status.assert_existing_objects_matched()
    root.a = tf.Variable(0.0)
    status.assert_consumed()
    root.b = tf.Variable(0.0)
    with pytest.raises(AssertionError, match="Found 1 Python objects"):
        status.assert_existing_objects_matched()


def test_a_root_objects_attribute_assigned_after_restore(tmp_path):
    m = tf.Module()
    m.a, m.b = tf.Variable(3.0), tf.Variable(4.0)
    path = tf.train.Checkpoint(root=m).save(str(tmp_path / "c"))
    fresh = tf.Module()
    fresh.a = tf.Variable(0.0)
    status = tf.train.Checkpoint(root=fresh).restore(path)
    fresh.b = tf.Variable(0.0)                  # the root's children are at the top level
    assert (fresh.a.numpy(), fresh.b.numpy()) == (3.0, 4.0)
    status.assert_consumed()
