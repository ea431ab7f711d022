"""tf.compat.v1.train.Saver against TensorFlow 2.21 (file names, kept checkpoints, values and
errors recorded from TF 2.21 running the same), and TensorFlow reading what it writes and the
other way round when TRACEGRAPH_TF_PYTHON names a Python with TensorFlow."""

import os
import subprocess
import textwrap

import pytest

import tracegraph as tf

v1 = tf.compat.v1
TF_PYTHON = os.environ.get("TRACEGRAPH_TF_PYTHON")


def test_save_keep_and_restore_in_sessions(tmp_path):
    with tf.Graph().as_default():
        with v1.variable_scope("layer"):
            w = v1.get_variable("w", [2], initializer=v1.constant_initializer([1.0, 2.0]))
        step = v1.train.get_or_create_global_step()
        inc = step.assign_add(1)
        saver = v1.train.Saver(max_to_keep=2)
        with v1.Session() as s:
            s.run(v1.global_variables_initializer())
            written = []
            for _ in range(3):
                s.run(inc)
                s.run(w.assign(w * 2.0))
                written.append(saver.save(s, str(tmp_path / "model.ckpt"), global_step=step))
        assert [os.path.basename(p) for p in written] == [
            "model.ckpt-1", "model.ckpt-2", "model.ckpt-3"]
        assert sorted(os.listdir(tmp_path)) == [
            "checkpoint", "model.ckpt-2.data-00000-of-00001", "model.ckpt-2.index",
            "model.ckpt-3.data-00000-of-00001", "model.ckpt-3.index"]
        assert [os.path.basename(p) for p in saver.last_checkpoints] == [
            "model.ckpt-2", "model.ckpt-3"]
        latest = v1.train.latest_checkpoint(str(tmp_path))
        assert os.path.basename(latest) == "model.ckpt-3"
        assert sorted(n for n, _ in tf.train.list_variables(str(tmp_path))) == [
            "global_step", "layer/w"]
        with v1.Session() as s:
            saver.restore(s, latest)
            got_w, got_step = s.run([w, step])
            assert got_w.tolist() == [8.0, 16.0] and got_step == 3
            with pytest.raises(ValueError, match="^The passed save_path is not a valid "
                                                 "checkpoint: .*nope$"):
                saver.restore(s, str(tmp_path / "nope"))
        with pytest.raises(ValueError, match="^No variables to save$"):
            v1.train.Saver([])
    with tf.Graph().as_default():
        other = v1.get_variable("other", [1])
        renamed = v1.get_variable("renamed", [2])
        with v1.Session() as s:
            v1.train.Saver({"layer/w": renamed}).restore(s, latest)
            assert s.run(renamed).tolist() == [8.0, 16.0]
            with pytest.raises(tf.errors.NotFoundError, match="^Restoring from checkpoint "
                               "failed. This is most likely due to a Variable name"):
                v1.train.Saver([other]).restore(s, latest)


def test_eagerly_with_a_var_list(tmp_path, caplog):
    with pytest.raises(RuntimeError, match="When eager execution is enabled, `var_list` must "
                                           "specify a list or dict of variables to save"):
        v1.train.Saver()
    v = tf.Variable([3.0, 4.0], name="ev")
    saver = v1.train.Saver([v])
    path = saver.save(None, str(tmp_path / "eager"))
    v.assign([0.0, 0.0])
    saver.restore(None, path)
    assert v.numpy().tolist() == [3.0, 4.0] and os.path.basename(path) == "eager"
    assert caplog.records[0].getMessage().startswith("Saver is deprecated, please switch to "
                                                     "tf.train.Checkpoint")


WRITE = """
import sys
import tensorflow as tf
v1 = tf.compat.v1
with tf.Graph().as_default():
    with v1.variable_scope("layer"):
        w = v1.get_variable("w", [2, 3], initializer=v1.constant_initializer(1.5))
        b = v1.get_variable("b", [3], dtype=tf.int64, initializer=v1.constant_initializer(7))
    saver = v1.train.Saver()
    with v1.Session() as s:
        s.run(v1.global_variables_initializer())
        s.run(w.assign(w * 2.0))
        saver.save(s, sys.argv[1] + "/m", global_step=5)
"""

READ = """
import sys
import tensorflow as tf
v1 = tf.compat.v1
with tf.Graph().as_default():
    with v1.variable_scope("layer"):
        w = v1.get_variable("w", [2, 3])
        b = v1.get_variable("b", [3], dtype=tf.int64)
    saver = v1.train.Saver()
    with v1.Session() as s:
        saver.restore(s, v1.train.latest_checkpoint(sys.argv[1]))
        print(s.run(w).tolist(), s.run(b).tolist())
"""


def _run(python, code, folder):
    done = subprocess.run([python, "-c", textwrap.dedent(code), str(folder)],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip().splitlines()[-1] if done.stdout.strip() else ""


def test_tracegraph_reads_and_writes_tensorflow_s_state_file(tmp_path):
    # TF1's Saver names its checkpoints by absolute path in the state file
    with tf.Graph().as_default():
        x = v1.get_variable("x", [1], initializer=v1.ones_initializer())
        with v1.Session() as s:
            s.run(x.initializer)
            prefix = v1.train.Saver().save(s, str(tmp_path / "m"))
    (tmp_path / "checkpoint").write_text(f'model_checkpoint_path: "{prefix}"\n'
                                         f'all_model_checkpoint_paths: "{prefix}"\n')
    assert v1.train.latest_checkpoint(str(tmp_path)) == prefix


@pytest.mark.skipif(not TF_PYTHON, reason="set TRACEGRAPH_TF_PYTHON to a Python with TensorFlow")
def test_tensorflow_and_tracegraph_read_each_other_s_checkpoints(tmp_path):
    import sys
    ours, theirs = tmp_path / "ours", tmp_path / "theirs"
    ours.mkdir()
    theirs.mkdir()
    tg = "import tracegraph as tf"
    _run(sys.executable, WRITE.replace("import tensorflow as tf", tg), ours)
    assert _run(TF_PYTHON, READ, ours) == "[[3.0, 3.0, 3.0], [3.0, 3.0, 3.0]] [7, 7, 7]"
    _run(TF_PYTHON, WRITE, theirs)
    assert _run(sys.executable, READ.replace("import tensorflow as tf", tg), theirs) == \
        "[[3.0, 3.0, 3.0], [3.0, 3.0, 3.0]] [7, 7, 7]"



def _tf1_checkpoint(folder):
    with tf.Graph().as_default():
        a = v1.get_variable("a", shape=[], initializer=v1.zeros_initializer())
        c = v1.get_variable("scoped/c", shape=[], initializer=v1.zeros_initializer())
        with v1.Session() as sess:
            sess.run([a.assign(1.0), c.assign(3.0)])
            return v1.train.Saver().save(sess, str(folder / "tf1-ckpt"))


def test_checkpoint_restores_a_name_based_checkpoint_by_name(tmp_path, caplog):
    """TF 2.21's NameBasedSaverStatus: each Variable takes the tensor saved under its name,
    eagerly at once, in a TF1 graph when run_restore_ops(session) runs."""
    path = _tf1_checkpoint(tmp_path)
    a = tf.Variable(0.0, name="a")
    with tf.name_scope("scoped"):
        c = tf.Variable(0.0, name="c")
    c_2 = tf.Variable(0.0, name="scoped/c")
    status = tf.train.Checkpoint(variables=[a, c, c_2]).restore(path)
    assert [a.numpy(), c.numpy(), c_2.numpy()] == [1.0, 3.0, 3.0]
    status.assert_consumed()
    notice = caplog.records[0].getMessage()
    assert "NameBasedSaverStatus.__init__ (from tensorflow.python.checkpoint.checkpoint) is " \
           "deprecated" in notice and notice.startswith(f"From {__file__}:")
    with pytest.raises(AssertionError, match="Object not restored"):
        tf.train.Checkpoint(v=[tf.Variable(0.0, name="missing")]).restore(path).assert_consumed()
    with tf.Graph().as_default():
        a = v1.get_variable("a", shape=[], initializer=v1.zeros_initializer())
        with v1.Session() as sess:
            sess.run(a.initializer)
            tf.train.Checkpoint(v=[a]).restore(path).run_restore_ops(sess)
            assert sess.run(a) == 1.0


def test_init_from_checkpoint_with_assignment_maps(tmp_path):
    path = _tf1_checkpoint(tmp_path)
    with tf.Graph().as_default():
        with v1.variable_scope("new_scope"):
            a = v1.get_variable("a", shape=[], initializer=v1.zeros_initializer())
            c = v1.get_variable("scoped/c", shape=[], initializer=v1.zeros_initializer())
        other = v1.get_variable("other", shape=[], initializer=v1.zeros_initializer())
        renamed = v1.get_variable("renamed", shape=[], initializer=v1.zeros_initializer())
        v1.train.init_from_checkpoint(path, {"/": "new_scope/"})
        v1.train.init_from_checkpoint(path, {"a": "other", "scoped/c": renamed})
        with pytest.raises(ValueError, match="Assignment map with scope only name a should map "
                                             "to scope only new_scope/"):
            v1.train.init_from_checkpoint(path, {"a": "new_scope/"})
        with pytest.raises(ValueError, match="Tensor nope is not found in"):
            v1.train.init_from_checkpoint(path, {"nope": "other"})
        with v1.Session() as sess:
            sess.run(v1.global_variables_initializer())
            assert sess.run([a, c, other, renamed]) == [1.0, 3.0, 1.0, 3.0]
