"""tf.compat, tf.__internal__ and the re-export modules for the `tensorflow.python.*` paths
Keras imports (TF 2.21's behaviour recorded), and the alias importer that serves them."""

import subprocess
import sys
import textwrap

import numpy as np
import pytest

import tracegraph as tf
from tracegraph.compat.python.eager import context
from tracegraph.compat.python.framework import config, tensor_util, type_spec_registry
from tracegraph.compat.python.ops.linalg.sparse import sparse_csr_matrix_ops as csr


def test_placeholder_and_reset_default_graph():
    with pytest.raises(RuntimeError, match="not compatible with eager execution"):
        tf.compat.v1.placeholder(tf.float32, (None, 3))
    tf.compat.v1.reset_default_graph()   # eagerly: nothing to clear
    graph = tf.__internal__.FuncGraph("scratch")
    with graph.as_default():
        x = tf.compat.v1.placeholder(tf.float32, (None, 3))
        y = tf.reduce_sum(x, axis=1)
        assert tf.inside_function()
        with pytest.raises(AssertionError, match="Do not use tf.reset_default_graph"):
            tf.compat.v1.reset_default_graph()
    assert x.shape.as_list() == [None, 3] and y.shape.as_list() == [None]
    assert not tf.inside_function()


def test_text_helpers_and_summary_metadata():
    assert tf.compat.as_text(b"a") == "a" and tf.compat.as_bytes("a") == b"a"
    assert tf.compat.v2 is tf
    pytest.importorskip("tensorboard")
    assert tf.compat.v1.SummaryMetadata.__name__ == "SummaryMetadata"


def test_eager_context_and_config():
    assert context.context().executing_eagerly() and context.executing_eagerly()
    context.context().clear_kernel_cache()
    context.async_wait()
    was = config.is_op_determinism_enabled()
    try:
        config.disable_op_determinism()
        assert not config.is_op_determinism_enabled()
        tf.config.experimental.enable_op_determinism()
        assert config.is_op_determinism_enabled()
    finally:
        (config.enable_op_determinism if was else config.disable_op_determinism)()


def test_tensor_util_and_type_spec_registry():
    assert tensor_util.is_tf_type(tf.constant(1)) and not tensor_util.is_tf_type(1)
    assert type_spec_registry.get_name(tf.TensorSpec) == "tf.TensorSpec"
    assert type_spec_registry.lookup("tf.TensorSpec") is tf.TensorSpec
    with pytest.raises(ValueError, match="No TypeSpec has been registered with name 'nope'"):
        type_spec_registry.lookup("nope")

    class X(tf.TypeSpec):
        pass

    with pytest.raises(ValueError, match="TypeSpec .*X has not been registered."):
        type_spec_registry.get_name(X)
    assert isinstance(tf.TensorSpec([2]), tf.TypeSpec)


def test_internal_helpers():
    smart_cond = tf.__internal__.smart_cond.smart_cond
    assert smart_cond(True, lambda: 1, lambda: 2) == 1
    assert smart_cond(tf.constant(False), lambda: 1, lambda: 2) == 2
    f = tf.function(lambda p: smart_cond(p, lambda: tf.constant(1), lambda: tf.constant(2)))
    assert f(tf.constant(True)).numpy() == 1 and f(tf.constant(False)).numpy() == 2
    assert tf.__internal__.tf2.enabled()

    @tf.function
    def g():
        with tf.__internal__.eager_context.eager_mode():
            return tf.executing_eagerly()

    assert g()


def test_sparse_sparse_matmul_through_csr_ops():
    a = tf.SparseTensor([[0, 0], [1, 1]], [2.0, 3.0], [2, 2])
    b = tf.SparseTensor([[0, 1], [1, 0]], [4.0, 5.0], [2, 2])
    c = csr.sparse_matrix_sparse_mat_mul(
        csr.sparse_tensor_to_csr_sparse_matrix(a.indices, a.values, a.dense_shape),
        csr.sparse_tensor_to_csr_sparse_matrix(b.indices, b.values, b.dense_shape), tf.float32)
    res = csr.csr_sparse_matrix_to_sparse_tensor(c, tf.float32)
    dense = tf.sparse.to_dense(tf.SparseTensor(res.indices, res.values, res.dense_shape))
    np.testing.assert_array_equal(dense.numpy(), [[0, 8], [15, 0]])


def test_alias_importer_without_keras():
    code = textwrap.dedent("""
        import sys
        import tracegraph
        from tracegraph.compat import importer
        sys.modules["tensorflow"] = tracegraph
        importer.install()
        import tensorflow.summary
        from tensorflow.python.trackable.data_structures import ListWrapper, _DictWrapper
        from tensorflow.compiler.tf2xla.python.xla import dynamic_update_slice
        from tensorflow.experimental import dtensor
        import tensorflow.compat.v1 as v1
        import tensorflow.nest
        import tensorflow.types.experimental as types_experimental  # a namespace object
        assert types_experimental.TraceType is tracegraph.types.experimental.TraceType
        print(tensorflow.summary is tracegraph.summary,
              tracegraph.summary.__spec__.name == "tracegraph.api.summary",
              ListWrapper.__module__, dynamic_update_slice is
              tracegraph.library.array.dynamic_update_slice, v1 is tracegraph.compat.v1,
              tensorflow.nest is tracegraph.nest, dtensor.UNSHARDED)
        try:
            import tensorflow.python.no_such_module
        except ModuleNotFoundError as e:
            print(e)
    """)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=120)
    assert out.returncode == 0, out.stderr
    first, second = out.stdout.splitlines()
    assert first == ("True True tracegraph.framework.tracking.data_structures True True True "
                     "unsharded")
    assert second.startswith("No module named 'tensorflow.python.no_such_module': tracegraph")


def test_version():
    assert tf.version.VERSION == tf.__version__ == "0.1.0"
    assert tuple(int(v) for v in tf.__version__.split(".")[:2]) == (0, 1)  # Keras parses this
    assert isinstance(tf.version.GRAPH_DEF_VERSION, int)


def test_tensorboards_reader_works_after_tf_keras_bound_tensorflow(tmp_path):
    # tf.keras binds the name `tensorflow` for the process; TensorBoard's event reader then
    # uses it (tf.compat.as_str_any, deprecation.silence around its record iterator)
    from tracegraph.keras_switch import keras_installed
    if not keras_installed():
        pytest.skip("needs the keras extra")
    pytest.importorskip("tensorboard")
    code = textwrap.dedent(f"""
        import tracegraph as tf
        tf.keras.layers   # binds `tensorflow`
        import sys
        assert sys.modules["tensorflow"] is tf
        from tensorboard.backend.event_processing import event_accumulator
        writer = tf.summary.create_file_writer({str(tmp_path)!r})
        with writer.as_default():
            for step in range(3):
                tf.summary.scalar("loss", 1.0 / (step + 1), step=step)
        writer.flush()
        for _ in range(2):   # twice: the reader's context manager is entered again
            acc = event_accumulator.EventAccumulator({str(tmp_path)!r})
            acc.Reload()
            print(len(acc.Tensors("loss")))
        print(tf.compat.as_str_any(b"x"), tf.compat.as_str_any(3))
    """)
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout.split() == ["3", "3", "x", "3"]


def test_deprecation_silence_holds_back_the_notices():
    from tracegraph import tf_logging
    from tracegraph.compat.python.util import deprecation

    frame = sys._getframe()
    with deprecation.silence():
        tf_logging.deprecation_notice("tg_test_silenced_name", "m", "use y", frame)
    assert "tg_test_silenced_name" not in tf_logging._noticed
