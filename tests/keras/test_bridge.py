"""The switch: what tf.keras is with and without Keras, when `tensorflow` gets bound, and the
bridge's refusals. Each case runs in a fresh interpreter (the binding is per process)."""

import json
import os
import subprocess
import sys
import textwrap

import pytest


def run(code: str, env=None, expect_ok=True) -> str:
    environment = {k: v for k, v in os.environ.items() if k not in ("KERAS_BACKEND",)}
    environment.update(env or {})
    result = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True,
                            text=True, env=environment, timeout=300)
    if expect_ok:
        assert result.returncode == 0, result.stderr
    return result.stdout + result.stderr


@pytest.fixture
def keras_home(tmp_path):
    return {"KERAS_HOME": str(tmp_path)}


def test_import_tracegraph_binds_nothing(keras_home):
    out = run("""
        import sys
        import tracegraph as tf
        print("tensorflow" in sys.modules, "keras" in sys.modules,
              "tracegraph.keras" in sys.modules)
    """, keras_home)
    assert out.split() == ["False", "False", "False"]


def test_tf_keras_is_keras_tf_keras_and_binds_tensorflow(keras_home):
    out = run("""
        import sys
        import tracegraph as tf
        keras_module = tf.keras
        import keras, keras._tf_keras.keras as tf_keras
        import tracegraph.keras
        import tensorflow
        print(keras_module is tf_keras, tracegraph.keras is tf_keras, tensorflow is tf,
              tf.keras.layers.Dense is keras.layers.Dense, keras.backend.backend())
        from tensorflow.python.eager import context
        import tensorflow.summary
        print(tensorflow.summary is tf.summary, tf.summary.__spec__.name, context.context())
    """, keras_home)
    first, second = out.splitlines()[:2]
    assert first == "True True True True tensorflow"
    assert second.startswith("True tracegraph.api.summary <tracegraph.compat.python.eager")


def test_import_tracegraph_keras_first_is_the_same(keras_home):
    out = run("""
        import tracegraph.keras as keras
        import tracegraph as tf
        print(keras is tf.keras, keras.__name__)
    """, keras_home)
    assert out.split() == ["True", "keras._tf_keras.keras"]


def test_without_keras_tf_keras_is_the_optimizers_module(keras_home):
    out = run("""
        import sys
        sys.modules["keras"] = None   # as if Keras were not installed
        import tracegraph as tf
        print(tf.keras.optimizers.SGD is tf.optimizers.SGD, "tensorflow" in sys.modules)
        try:
            tf.keras.layers
        except AttributeError as e:
            print(e)
        try:
            import tracegraph.keras
        except ImportError as e:
            print(e)
    """, keras_home)
    lines = out.splitlines()
    assert lines[0] == "True False"
    assert "pip install 'tracegraph[keras]'" in lines[1]
    assert "not installed: pip install 'tracegraph[keras]'" in lines[2]


def test_refuses_when_a_real_tensorflow_is_imported(keras_home):
    out = run("""
        import sys, types
        fake = types.ModuleType("tensorflow")
        fake.__file__ = "/site-packages/tensorflow/__init__.py"
        sys.modules["tensorflow"] = fake
        import tracegraph as tf
        try:
            tf.keras
        except ImportError as e:
            print(e)
        print(sys.modules["tensorflow"] is fake, "keras" in sys.modules)
    """, keras_home)
    assert "a real TensorFlow is imported in this process" in out
    assert out.splitlines()[-1] == "True False"


@pytest.mark.parametrize("where", ["env", "keras.json"])
def test_refuses_another_keras_backend(tmp_path, where):
    env = {"KERAS_HOME": str(tmp_path)}
    if where == "env":
        env["KERAS_BACKEND"] = "jax"
    else:
        (tmp_path / "keras.json").write_text(json.dumps({"backend": "torch"}))
    out = run("""
        import sys
        import tracegraph as tf
        try:
            tf.keras
        except ImportError as e:
            print(e)
        print("tensorflow" in sys.modules)
    """, env)
    backend = "jax" if where == "env" else "torch"
    assert f"configured to use the '{backend}' backend" in out
    assert out.splitlines()[-1] == "False"


def test_refuses_when_keras_is_already_imported(keras_home):
    out = run("""
        import sys, types
        sys.modules["keras"] = types.ModuleType("keras")  # imported, bound to no TensorFlow
        import tracegraph as tf
        try:
            tf.keras
        except ImportError as e:
            print(e)
        print("tensorflow" in sys.modules)
    """, keras_home)
    assert "Keras is already imported" in out and out.splitlines()[-1] == "False"


def test_missing_tensorflow_module_names_tracegraph(keras_home):
    out = run("""
        import tracegraph as tf
        tf.keras
        try:
            import tensorflow.lite
        except ModuleNotFoundError as e:
            print(e)
        from tensorflow.experimental import dtensor
        try:
            dtensor.create_distributed_mesh([("batch", 1)])
        except NotImplementedError as e:
            print(e)
    """, keras_home)
    assert "No module named 'tensorflow.lite': tracegraph" in out
    assert "DTensor (tensors sharded over a device mesh) is not supported" in out


def test_keras_recognises_tracegraph_values_as_tensorflow_values(keras_home):
    out = run("""
        import tracegraph as tf
        tf.keras
        from keras.src.trainers.data_adapters import data_adapter_utils as u
        print(u.is_tensorflow_tensor(tf.constant(1.0)), u.is_tensorflow_tensor(tf.Variable(1.0)),
              u.is_tensorflow_sparse(tf.SparseTensor([[0]], [1.0], [2])),
              u.is_tensorflow_ragged(tf.ragged.constant([[1], []])),
              u.is_tensorflow_tensor(1.0))
    """, keras_home)
    assert out.split() == ["True", "True", "True", "True", "False"]
