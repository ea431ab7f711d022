"""tf.summary writes real event files: read back through TensorBoard's own EventAccumulator."""

import numpy as np
import pytest

import tracegraph as tf

pytest.importorskip("tensorboard")

from tensorboard.backend.event_processing.event_accumulator import (  # noqa: E402
    EventAccumulator,
)
from tensorboard.compat.proto import config_pb2  # noqa: E402
from tensorboard.util import tensor_util  # noqa: E402


def load(logdir):
    acc = EventAccumulator(str(logdir), size_guidance={"tensors": 0})
    acc.Reload()
    return acc


def values(acc, tag):
    return [(e.step, tensor_util.make_ndarray(e.tensor_proto)) for e in acc.Tensors(tag)]


def plugin(acc, tag):
    return acc.SummaryMetadata(tag).plugin_data.plugin_name


def test_eager_scalar_text_histogram(tmp_path):
    writer = tf.summary.create_file_writer(str(tmp_path))
    with writer.as_default():
        for step in range(3):
            assert bool(tf.summary.scalar("loss", 1.0 / (step + 1), step=step))
            tf.summary.text("note", f"step **{step}**", step=step)
        tf.summary.histogram("weights", tf.constant([0.0, 1.0, 1.0, 3.0]), step=7, buckets=3)
    acc = load(tmp_path)
    assert set(acc.Tags()["tensors"]) == {"loss", "note", "weights"}
    loss = values(acc, "loss")
    assert [s for s, _ in loss] == [0, 1, 2]
    np.testing.assert_allclose([float(v) for _, v in loss], [1.0, 0.5, 1 / 3], rtol=1e-6)
    assert loss[0][1].dtype == np.float32
    assert plugin(acc, "loss") == "scalars"
    assert [v.item() for _, v in values(acc, "note")] == [b"step **0**", b"step **1**",
                                                           b"step **2**"]
    assert plugin(acc, "note") == "text"
    step, buckets = values(acc, "weights")[0]
    assert step == 7 and plugin(acc, "weights") == "histograms"
    np.testing.assert_allclose(buckets, [[0, 1, 1], [1, 2, 2], [2, 3, 1]])


def test_histogram_buckets_match_tensorboard_numpy_version():
    from tensorboard.plugins.histogram.summary_v2 import histogram_pb

    from tracegraph.ops.summary import histogram_buckets
    rng = np.random.default_rng(0)
    for data in (rng.normal(size=100), np.full(5, 2.5), np.array([]), rng.integers(0, 9, 40)):
        want = tensor_util.make_ndarray(histogram_pb("h", data).value[0].tensor)
        np.testing.assert_allclose(histogram_buckets(data), want)


def test_writes_inside_tf_function_are_stateful_ops(tmp_path):
    writer = tf.summary.create_file_writer(str(tmp_path))
    step = tf.Variable(0, dtype=tf.int64)

    @tf.function
    def train(x):
        loss = tf.reduce_sum(x * x)
        tf.summary.scalar("loss", loss, step=step)
        tf.summary.histogram("x", x, step=step)
        step.assign_add(1)
        return loss

    with writer.as_default():
        for i in range(4):
            train(tf.constant([1.0, 2.0, float(i)]))
    graph = train.get_concrete_function(tf.constant([1.0, 2.0, 3.0])).graph
    kinds = [op.type for op in graph.get_operations()]
    assert "WriteSummary" in kinds and "WriteHistogramSummary" in kinds
    assert train.experimental_get_tracing_count() == 1
    acc = load(tmp_path)
    loss = values(acc, "loss")
    assert [s for s, _ in loss] == [0, 1, 2, 3]  # once per call (not per executor)
    np.testing.assert_allclose([float(v) for _, v in loss], [5.0, 6.0, 9.0, 14.0])
    assert [s for s, _ in values(acc, "x")] == [0, 1, 2, 3]


def test_writes_inside_a_cond_branch(tmp_path):
    writer = tf.summary.create_file_writer(str(tmp_path))
    step = tf.Variable(0, dtype=tf.int64)

    @tf.function
    def f(x):
        if step % 2 == 0:
            tf.summary.scalar("even", x, step=step)
        step.assign_add(1)
        return x

    with writer.as_default():
        for i in range(5):
            f(tf.constant(float(i)))
    assert [s for s, _ in values(load(tmp_path), "even")] == [0, 2, 4]


def test_no_writer_writes_nothing_and_returns_false(tmp_path):
    assert not bool(tf.summary.scalar("loss", 1.0, step=0))

    @tf.function
    def f(x):
        tf.summary.scalar("loss", x, step=0)
        return x + 1

    assert float(f(tf.constant(1.0))) == 2.0
    kinds = [op.type for op in f.get_concrete_function(tf.constant(1.0)).graph.get_operations()]
    assert "WriteSummary" not in kinds


def test_step_is_required_or_taken_from_set_step(tmp_path):
    writer = tf.summary.create_file_writer(str(tmp_path))
    with writer.as_default():
        with pytest.raises(ValueError, match="No step set"):
            tf.summary.scalar("loss", 1.0)
        tf.summary.experimental.set_step(5)
        try:
            tf.summary.scalar("loss", 2.0)
        finally:
            tf.summary.experimental.set_step(None)
    with writer.as_default(step=9):
        tf.summary.scalar("other", 3.0)
    acc = load(tmp_path)
    assert [s for s, _ in values(acc, "loss")] == [5]
    assert [s for s, _ in values(acc, "other")] == [9]


def test_record_if_and_noop_writer(tmp_path):
    writer = tf.summary.create_file_writer(str(tmp_path))
    with writer.as_default(), tf.summary.record_if(False):
        assert not bool(tf.summary.scalar("loss", 1.0, step=0))
    with tf.summary.create_noop_writer().as_default():
        assert not bool(tf.summary.scalar("loss", 1.0, step=0))
    writer.flush()
    assert "loss" not in load(tmp_path).Tags()["tensors"]


def test_closed_writer_is_a_clear_error(tmp_path):
    writer = tf.summary.create_file_writer(str(tmp_path))

    @tf.function
    def f(x):
        tf.summary.scalar("loss", x, step=0)
        return x

    with writer.as_default():
        f(tf.constant(1.0))
    writer.close()
    with pytest.raises(tf.errors.FailedPreconditionError, match="create_file_writer"):
        f(tf.constant(1.0))


def _function_with_control_flow():
    @tf.function
    def model(x):
        y = tf.matmul(x, tf.ones([3, 2]))
        if tf.reduce_sum(y) > 0:
            y = y * 2.0
        i = tf.constant(0)
        while i < 3:
            y = y + 1.0
            i += 1
        return tf.nn.relu(y)
    return model


def test_graph_summary_has_shapes_and_function_library(tmp_path):
    model = _function_with_control_flow()
    concrete = model.get_concrete_function(tf.TensorSpec([None, 3]))
    writer = tf.summary.create_file_writer(str(tmp_path))
    with writer.as_default():
        assert tf.summary.graph(concrete.graph)
    graph_def = load(tmp_path).Graph()
    names = {n.name: n for n in graph_def.node}
    assert "MatMul" in names
    shape = names["MatMul"].attr["_output_shapes"].list.shape[0]
    assert [d.size for d in shape.dim] == [-1, 2]
    functions = {f.signature.name for f in graph_def.library.function}
    called = {v.func.name for n in graph_def.node for v in n.attr.values() if v.func.name}
    assert called and called <= functions
    assert len(functions) >= 4  # both branches, the loop's condition and body


def test_trace_export_writes_traced_and_optimized_graphs(tmp_path):
    model = _function_with_control_flow()
    writer = tf.summary.create_file_writer(str(tmp_path))
    with writer.as_default():
        tf.summary.trace_on(graph=True)
        model(tf.ones([2, 3]))
        model(tf.ones([2, 3]))
        tf.summary.trace_export("model_trace", step=0)
        model(tf.ones([2, 3]))  # after export: not recorded
    acc = load(tmp_path)
    assert plugin(acc, "model_trace") == "graph_run_metadata_graph"
    (event,) = acc.Tensors("model_trace")
    run_metadata = config_pb2.RunMetadata.FromString(
        tensor_util.make_ndarray(event.tensor_proto).item())
    (fn,) = run_metadata.function_graphs
    concrete = model.get_concrete_function(tf.ones([2, 3]))
    traced = [n.name for n in fn.pre_optimization_graph.node]
    optimized = [n.name for n in fn.post_optimization_graph.node]
    assert traced == [op.name for op in concrete.graph.get_operations()]
    assert optimized == [op.name for op in concrete.optimized_graph.get_operations()]
    assert traced != optimized


def test_missing_extra_names_it(monkeypatch):
    import sys

    from tracegraph.formats.tensorflow import protos
    protos.protos.cache_clear()
    monkeypatch.setitem(sys.modules, "tensorboard", None)
    try:
        with pytest.raises(ImportError, match=r"pip install 'tracegraph\[tensorboard\]'"):
            tf.summary.create_file_writer("unused")
    finally:
        protos.protos.cache_clear()
