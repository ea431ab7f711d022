"""The default graph, reset_default_graph and disabling eager execution (each in a fresh
interpreter: disabling eager execution is for the start of a program), against TF 2.21."""

import subprocess
import sys
import textwrap

import pytest

import tracegraph as tf

v1 = tf.compat.v1


def _run(code: str) -> str:
    done = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_default_graph_follows_as_default():
    outside = v1.get_default_graph()
    assert isinstance(outside, tf.Graph) and v1.get_default_graph() is outside
    g = tf.Graph()
    with g.as_default() as entered:
        assert entered is g and v1.get_default_graph() is g
        with pytest.raises(AssertionError, match="Do not use tf.reset_default_graph"):
            v1.reset_default_graph()
    v1.reset_default_graph()
    assert v1.get_default_graph() is not outside


def test_compat_v2_is_the_tf2_api():
    assert tf.compat.v2 is tf and tf.compat.v1.constant is tf.constant


def test_disable_eager_execution_builds_into_the_default_graph():
    # TF 2.21 prints the same (the graph's last op aside: TF's StatefulPartitionedCall)
    out = _run("""
        import tracegraph as tf
        v1 = tf.compat.v1
        v1.disable_eager_execution()
        print(tf.executing_eagerly())
        a = tf.constant(2.0)
        print(a)
        v = tf.Variable(3.0)
        print(v)
        y = a * v
        with v1.Session() as s:
            s.run(v1.global_variables_initializer())
            print(s.run(y))
            print(s.run(v.assign_add(1.0)))
            print(s.run(y))
        print(v1.global_variables())
        print(v1.placeholder(tf.float32, [2]))
        v1.reset_default_graph()
        print(len(v1.get_default_graph().get_operations()))
        try:
            v1.enable_eager_execution()
        except ValueError as e:
            print(type(e).__name__, "|", e)
        print(tf.executing_eagerly())
    """)
    assert out.splitlines() == [
        "False",
        'Tensor("Const:0", shape=(), dtype=float32)',
        "<tf.Variable 'Variable:0' shape=() dtype=float32>",
        "6.0", "4.0", "8.0",
        "[<tf.Variable 'Variable:0' shape=() dtype=float32>]",
        'Tensor("Placeholder:0", shape=(2,), dtype=float32)',
        "0",
        "ValueError | tf.enable_eager_execution must be called at program startup.",
        "False",
    ]


def test_enable_eager_execution_at_startup_and_v1_behaviors():
    out = _run("""
        import tracegraph as tf
        v1 = tf.compat.v1
        v1.disable_eager_execution()
        v1.enable_eager_execution()
        print(tf.executing_eagerly(), tf.constant(3))
        v1.disable_v2_behavior()
        x, y = tf.Variable(0.0), tf.Variable(0.0)
        print(tf.executing_eagerly(), x == y, x == x)
    """)
    assert out.splitlines() == ["True tf.Tensor(3, shape=(), dtype=int32)", "False False True"]


def test_compat_modules_import_as_tensorflow_s():
    """`import tensorflow.compat.v1 as tf` and `import tensorflow.compat.v2 as tf` both work:
    v1 holds TF1's API and every TF2 name, v2 is the package itself."""
    import importlib
    tf_v1 = importlib.import_module("tracegraph.compat.v1")
    tf_v2 = importlib.import_module("tracegraph.compat.v2")
    assert tf_v2 is tf and tf.compat.v2 is tf and tf_v1 is tf.compat.v1
    assert tf_v1.constant is tf.constant and tf_v1.Session is tf.compat.v1.Session
    assert not hasattr(tf, "Session") and not hasattr(tf, "placeholder")
