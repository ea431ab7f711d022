"""TF1's renamed and dropped names under tf.compat.v1, the logger and the protocol buffers,
against TensorFlow 2.21 (values, names and notices recorded from TF 2.21 running the same)."""

import logging

import numpy as np
import pytest

import tracegraph as tf
from tracegraph import tf_logging

v1 = tf.compat.v1


@pytest.fixture(autouse=True)
def _fresh_notices(monkeypatch):
    monkeypatch.setattr(tf_logging, "_noticed", set())


def test_renamed_ops_in_a_session(caplog):
    with tf.Graph().as_default():
        v = tf.Variable(1.0, name="v")
        a, b, c = v1.assign(v, 5.0), v1.assign_add(v, 2.0), v1.assign_sub(v, 1.0)
        assert (a.name, b.name, c.name) == ("AssignVariableOp", "AssignAddVariableOp",
                                            "AssignSubVariableOp")
        f, i = v1.to_float(tf.constant([1, 2])), v1.to_int32(tf.constant([1.7, -2.5]))
        i64, dd = v1.to_int64(tf.constant([1.7])), v1.to_double(tf.constant([1]))
        assert (f.name, i.name) == ("ToFloat:0", "ToInt32:0")
        assert (f.dtype, i.dtype, i64.dtype, dd.dtype) == (tf.float32, tf.int32, tf.int64,
                                                           tf.float64)
        d1 = v1.div(tf.constant([7, -7]), tf.constant([2, 2]))
        d2 = v1.div(tf.constant([7., -7.]), tf.constant([2., 2.]))
        assert (d1.name, d2.name) == ("div:0", "div_1:0")
        n = v1.string_to_number(tf.constant(["1.5", "2"]))
        lv = v1.get_local_variable("lv", shape=[2], initializer=v1.zeros_initializer())
        assert [x.name for x in v1.local_variables()] == ["lv:0"] and not lv.trainable
        assert [x.name for x in v1.global_variables()] == ["v:0"]
        ti = v1.tables_initializer()
        assert (ti.name, ti.type) == ("init_all_tables", "NoOp")
        config = v1.ConfigProto(allow_soft_placement=True, intra_op_parallelism_threads=1)
        with v1.Session(config=config) as s:
            s.run(v.initializer)
            assert (s.run(a), s.run(b), s.run(c)) == (5.0, 7.0, 6.0)
            got = s.run([f, i, i64, dd])
            assert [x.tolist() for x in got] == [[1., 2.], [1, -2], [1], [1.]]
            assert [x.tolist() for x in s.run([d1, d2])] == [[3, -4], [3.5, -3.5]]
            assert s.run(n).tolist() == [1.5, 2.0]
            s.run(v1.local_variables_initializer())
            assert s.run(lv).tolist() == [0., 0.] and s.run(ti) is None
            options = v1.RunOptions(trace_level=v1.RunOptions.FULL_TRACE)
            assert s.run(a, options=options, run_metadata=v1.RunMetadata()) == 5.0
    notices = [r.getMessage() for r in caplog.records if r.name == "tensorflow"]
    assert [m.split(": ", 1)[1].split(" (")[0] for m in notices] == [
        "to_float", "to_int32", "to_int64", "to_double", "div"]
    assert notices[0].endswith("is deprecated and will be removed in a future version.\n"
                               "Instructions for updating:\nUse `tf.cast` instead.")


def test_moved_names_are_tf2_s():
    assert v1.log is tf.math.log and v1.random_normal is tf.random.normal
    assert v1.FixedLenFeature is tf.io.FixedLenFeature and v1.mod is tf.math.floormod
    assert v1.assert_equal is tf.debugging.assert_equal and v1.where_v2 is tf.where
    assert v1.arg_max(tf.constant([1, 5, 2]), 0).numpy() == 1
    assert v1.all_variables() == [] and v1.no_regularizer(tf.constant(1.0)) is None


def test_switches_of_disable_v2_behavior_report_what_tracegraph_does():
    v1.disable_control_flow_v2()
    v1.enable_resource_variables()
    assert v1.resource_variables_enabled() and v1.control_flow_v2_enabled()


def test_protocol_buffers():
    pytest.importorskip("tensorboard")
    cp = v1.ConfigProto(log_device_placement=False, gpu_options=v1.GPUOptions(allow_growth=True))
    assert type(cp).__name__ == "ConfigProto" and cp.gpu_options.allow_growth
    assert v1.OptimizerOptions.L1 == 0 and v1.GraphDef().node is not None
    assert v1.Summary(value=[v1.Summary.Value(tag="a", simple_value=1.0)]).value[0].tag == "a"


def test_logging_as_tensorflow_s(caplog):
    assert (v1.logging.DEBUG, v1.logging.INFO, v1.logging.WARN, v1.logging.ERROR,
            v1.logging.FATAL) == (10, 20, 30, 40, 50)
    assert tf.get_logger() is v1.get_logger() and tf.get_logger().name == "tensorflow"
    was = v1.logging.get_verbosity()
    try:
        v1.logging.set_verbosity(v1.logging.ERROR)
        assert v1.logging.get_verbosity() == 40
        v1.logging.info("hidden")
        v1.logging.error("shown %d", 3)
        v1.logging.set_verbosity(v1.logging.INFO)
        for _ in range(4):
            v1.logging.log_first_n(v1.logging.INFO, "first", 2)
    finally:
        v1.logging.set_verbosity(was)
    assert [(r.levelno, r.getMessage()) for r in caplog.records] == [
        (logging.ERROR, "shown 3"), (logging.INFO, "first"), (logging.INFO, "first")]


def test_the_logger_writes_as_tensorflow_s_when_nothing_else_logs():
    import subprocess
    import sys
    code = ("import tracegraph as tf\n"
            "tf.compat.v1.logging.warning('careful')\n"
            "tf.compat.v1.logging.info('quiet')\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120)
    assert done.stderr == "WARNING:tensorflow:careful\n" and done.stdout == ""
    assert done.returncode == 0


def test_tf1_argument_names(caplog):
    x = tf.constant([[1.0, 2.0], [3.0, 4.0]])
    assert v1.reduce_sum(x, reduction_indices=[1], keep_dims=True).numpy().tolist() == [[3.], [7.]]
    assert v1.reduce_mean(x, 0, True).numpy().tolist() == [[2., 3.]]
    assert float(v1.reduce_max(x, keep_dims=False)) == 4.0
    assert v1.argmax(x, dimension=1).numpy().tolist() == [1, 1]
    assert v1.argmin(x, 0).dtype == tf.int64
    assert v1.expand_dims(x, dim=0).shape == (1, 2, 2)
    assert v1.squeeze(tf.ones([1, 2, 1]), squeeze_dims=[0]).shape == (2, 1)
    assert v1.count_nonzero(x, reduction_indices=0).numpy().tolist() == [2, 2]
    assert v1.norm(x, keep_dims=True).shape == (1, 1)
    with pytest.raises(ValueError, match=r"^Cannot specify both 'reduction_indices' and 'axis'\.$"):
        v1.reduce_sum(x, axis=0, reduction_indices=0)
    y = v1.nn.dropout(tf.ones([1000]), keep_prob=0.75)
    assert float(tf.reduce_max(y)) == pytest.approx(1 / 0.75)
    np.testing.assert_allclose(v1.nn.softmax(x, dim=0).numpy()[:, 0], [0.1192029, 0.880797],
                               rtol=1e-6)
    labels, logits = tf.constant([[0.0, 1.0]]), tf.constant([[1.0, 2.0]])
    for loss in (v1.nn.softmax_cross_entropy_with_logits,
                 v1.nn.softmax_cross_entropy_with_logits_v2):
        np.testing.assert_allclose(loss(labels=labels, logits=logits).numpy(), [0.31326166],
                                   rtol=1e-6)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(labels)
        old = v1.nn.softmax_cross_entropy_with_logits(labels=labels, logits=logits)
        new = v1.nn.softmax_cross_entropy_with_logits_v2(labels=labels, logits=logits)
    assert tape.gradient(old, labels) is None and tape.gradient(new, labels) is not None
    assert "softmax_cross_entropy_with_logits (from tensorflow.python.ops.nn_ops) is " \
           "deprecated" in caplog.records[0].getMessage()
    assert v1.nn.relu is tf.nn.relu


def test_print_passes_its_input_and_prints_as_tensorflow_s(capfd):
    with tf.Graph().as_default():
        x = tf.constant([[1.0, 2.0], [3.0, 4.0]])
        y = v1.Print(x, [x, tf.constant(7), tf.constant("s")], message="x is: ")
        z = v1.Print(y, [tf.range(10)], summarize=5, first_n=2)
        assert (y.name, y.op.type, z.shape) == ("Print:0", "Print", (2, 2))
        with v1.Session() as s:
            sums = [float(s.run(z).sum()) for _ in range(3)]
    assert sums == [10.0] * 3
    printed = [line for line in capfd.readouterr().err.splitlines()
               if line.startswith(("x is", "[0 1"))]
    assert printed == ["x is: [[1 2][3...]...][7][s]", "[0 1 2 3 4...]"] * 2 + [
        "x is: [[1 2][3...]...][7][s]"]
