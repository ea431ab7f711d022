"""tf.train.Checkpoint, CheckpointManager, list_variables, load_variable (R-10.3)."""

import os

import numpy as np
import pytest

import tracegraph as tf

from ..catalogue import SequentialModule


def test_restore_into_a_fresh_object_tree(tmp_path):
    m = SequentialModule()
    ckpt = tf.train.Checkpoint(model=m)
    path = ckpt.save(str(tmp_path / "ckpt"))
    assert path == str(tmp_path / "ckpt-1")
    fresh = SequentialModule.__new__(SequentialModule)
    SequentialModule.__init__(fresh)
    for v in (fresh.dense_1.w, fresh.dense_2.w):
        v.assign(tf.zeros_like(v))
    status = tf.train.Checkpoint(model=fresh).restore(path)
    status.assert_consumed()
    for a, b in zip((m.dense_1.w, m.dense_1.b, m.dense_2.w, m.dense_2.b),
                    (fresh.dense_1.w, fresh.dense_1.b, fresh.dense_2.w, fresh.dense_2.b)):
        np.testing.assert_array_equal(a.numpy(), b.numpy())
    x = tf.constant([[1.0, 2.0, 3.0]])
    np.testing.assert_array_equal(m(x).numpy(), fresh(x).numpy())


def test_keys_are_tensorflow_attribute_paths(tmp_path):
    m = SequentialModule()
    path = tf.train.Checkpoint(model=m).write(str(tmp_path / "w"))
    names = [n for n, _ in tf.train.list_variables(path)]
    # a Variable reachable by two paths is saved once, under its first (breadth-first) path
    assert names == ["_CHECKPOINTABLE_OBJECT_GRAPH",
                     "model/dense_1/b/.ATTRIBUTES/VARIABLE_VALUE",
                     "model/dense_1/w/.ATTRIBUTES/VARIABLE_VALUE",
                     "model/dense_2/b/.ATTRIBUTES/VARIABLE_VALUE",
                     "model/dense_2/w/.ATTRIBUTES/VARIABLE_VALUE"]
    shapes = dict(tf.train.list_variables(path))
    assert shapes["model/dense_1/w/.ATTRIBUTES/VARIABLE_VALUE"] == [3, 3]
    value = tf.train.load_variable(path, "model/dense_2/w/.ATTRIBUTES/VARIABLE_VALUE")
    np.testing.assert_array_equal(value, m.dense_2.w.numpy())


def test_partial_restores_report_what_did_not_match(tmp_path):
    class A:
        pass
    a = A()
    a.x = tf.Variable(1.0)
    a.y = tf.Variable([1, 2])
    path = tf.train.Checkpoint(net=a).write(str(tmp_path / "w"))
    b = A()
    b.x = tf.Variable(0.0)
    b.z = tf.Variable(5)
    status = tf.train.Checkpoint(net=b).read(path)
    assert b.x.numpy() == 1.0 and b.z.numpy() == 5
    # TensorFlow checks the Python objects first: net/z has no value in the checkpoint
    with pytest.raises(AssertionError, match="not bound to checkpointed values.*net/z"):
        status.assert_consumed()
    with pytest.raises(AssertionError, match="net/z"):
        status.assert_existing_objects_matched()
    del b.z
    with pytest.raises(AssertionError, match="Unresolved object in checkpoint.*net.y"):
        status.assert_consumed()
    assert status.expect_partial() is status
    status.assert_nontrivial_match()


def test_restore_checks_dtype_and_shape(tmp_path):
    class A:
        pass
    a = A()
    a.x = tf.Variable([1.0, 2.0])
    path = tf.train.Checkpoint(net=a).write(str(tmp_path / "w"))
    b = A()
    b.x = tf.Variable([1.0, 2.0, 3.0])
    with pytest.raises(ValueError, match="incompatible tensor with shape"):
        tf.train.Checkpoint(net=b).read(path)
    b.x = tf.Variable([1, 2])
    with pytest.raises(ValueError, match="float32 but the variable"):
        tf.train.Checkpoint(net=b).read(path)


def test_save_counter_and_the_state_file(tmp_path):
    class A:
        pass
    a = A()
    a.v = tf.Variable([b"text", b"\x00\xff"])
    ckpt = tf.train.Checkpoint(a=a)
    first = ckpt.save(str(tmp_path / "ckpt"))
    second = ckpt.save(str(tmp_path / "ckpt"))
    assert int(ckpt.save_counter.numpy()) == 2 and second.endswith("ckpt-2")
    assert tf.train.latest_checkpoint(str(tmp_path)) == second
    fresh = A()
    fresh.v = tf.Variable([b"", b""])
    restored = tf.train.Checkpoint(a=fresh)
    restored.restore(first).assert_consumed()
    assert fresh.v.numpy().tolist() == [b"text", b"\x00\xff"]
    assert int(restored.save_counter.numpy()) == 1


def test_manager_keeps_the_newest(tmp_path):
    class A:
        pass
    a = A()
    a.v = tf.Variable(0)
    ckpt = tf.train.Checkpoint(a=a)
    manager = tf.train.CheckpointManager(ckpt, str(tmp_path), max_to_keep=2)
    for i in range(4):
        a.v.assign(i)
        manager.save()
    assert [os.path.basename(p) for p in manager.checkpoints] == ["ckpt-3", "ckpt-4"]
    assert sorted(os.listdir(tmp_path)) == ["checkpoint", "ckpt-3.data-00000-of-00001",
                                            "ckpt-3.index", "ckpt-4.data-00000-of-00001",
                                            "ckpt-4.index"]
    again = tf.train.CheckpointManager(ckpt, str(tmp_path), max_to_keep=2)
    assert again.checkpoints == manager.checkpoints
    b = A()
    b.v = tf.Variable(-1)
    tf.train.Checkpoint(a=b).restore(again.latest_checkpoint).assert_consumed()
    assert b.v.numpy() == 3


def test_a_corrupted_checkpoint_is_a_saved_data_error(tmp_path):
    class A:
        pass
    a = A()
    a.v = tf.Variable(np.arange(100.0))
    path = tf.train.Checkpoint(a=a).write(str(tmp_path / "w"))
    data = tmp_path / "w.data-00000-of-00001"
    raw = bytearray(data.read_bytes())
    raw[300] ^= 0x10
    data.write_bytes(bytes(raw))
    with pytest.raises(tf.saved_model.SavedDataError, match="checksum mismatch"):
        tf.train.Checkpoint(a=a).read(path)
    (tmp_path / "w.index").write_text("{not json")
    with pytest.raises(tf.saved_model.SavedDataError, match="w.index"):
        tf.train.list_variables(path)


def test_a_hostile_state_file_cannot_point_outside_the_directory(tmp_path):
    (tmp_path / "checkpoint").write_text('model_checkpoint_path: "../../etc/passwd"\n')
    with pytest.raises(tf.saved_model.SavedDataError, match="checkpoint"):
        tf.train.latest_checkpoint(str(tmp_path))


def test_a_root_object_is_saved_at_the_top_level(tmp_path):
    m = SequentialModule()
    path = tf.train.Checkpoint(root=m).write(str(tmp_path / "w"))
    names = [n for n, _ in tf.train.list_variables(path)]
    assert "dense_1/w/.ATTRIBUTES/VARIABLE_VALUE" in names
    fresh = SequentialModule()
    tf.train.Checkpoint(root=fresh).read(path).assert_consumed()
    np.testing.assert_array_equal(fresh.dense_2.w.numpy(), m.dense_2.w.numpy())
