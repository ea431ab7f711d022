"""tf.compat.v1.Session against TensorFlow 2.21's behaviour (values, types, printing and error
messages recorded from TF 2.21 running the same snippets)."""

import collections

import numpy as np
import pytest

import tracegraph as tf

v1 = tf.compat.v1


@pytest.fixture
def graph():
    g = tf.Graph()
    with g.as_default():
        yield g


def test_placeholder_matmul_and_initializer(graph):
    x = v1.placeholder(tf.float32, shape=[None, 2], name="x")
    assert str(x) == 'Tensor("x:0", shape=(None, 2), dtype=float32)'
    assert repr(x) == "<tf.Tensor 'x:0' shape=(None, 2) dtype=float32>"
    w = tf.Variable([[1.], [2.]], name="w")
    out = tf.matmul(x, w)
    assert str(out) == 'Tensor("MatMul:0", shape=(None, 1), dtype=float32)'
    init = v1.global_variables_initializer()
    assert repr(init) == "<tf.Operation 'init' type=NoOp>"
    with v1.Session() as sess:
        with pytest.raises(tf.errors.FailedPreconditionError,
                           match="Could not find variable w. This could mean that the variable "
                                 "has been deleted. In TF1, it can also mean the variable is "
                                 "uninitialized."):
            sess.run(out, feed_dict={x: [[1., 1.]]})
        assert sess.run(init) is None
        r = sess.run(out, feed_dict={x: [[1., 1.]]})
        assert type(r) is np.ndarray and r.dtype == np.float32
        np.testing.assert_array_equal(r, [[3.]])


def test_nested_fetches_keep_their_structure(graph):
    a = tf.constant(2.0)
    b = tf.constant("hi")
    c = tf.constant(True)
    i = tf.constant([1, 2])
    s = v1.Session()
    got = s.run([a, b, c, i, a.op])
    assert [type(v) for v in got] == [np.float32, bytes, np.bool_, np.ndarray, type(None)]
    assert got[0] == 2.0 and got[1] == b"hi" and got[2] is np.True_
    P = collections.namedtuple("P", "x y")
    got = s.run(P(a, {"k": (i, b)}))
    assert type(got) is P and type(got.y) is dict and type(got.y["k"]) is tuple
    assert got.y["k"][1] == b"hi"
    assert s.run(a.name) == 2.0 and s.run(a.op.name) is None
    assert s.run([]) == [] and s.run({}) == {} and s.run(()) == ()
    assert s.run([a, a]) == [2.0, 2.0]


def test_fetch_errors_as_tensorflow(graph):
    tf.constant(1.0)
    s = v1.Session()
    with pytest.raises(TypeError, match=r'^Argument `fetch` = None has invalid type "NoneType"\. '
                                        r"Cannot be None$"):
        s.run(None)
    with pytest.raises(TypeError, match=r'Argument `fetch` = 3 has invalid type "int" must be a '
                                        r"string or Tensor\. \(Can not convert a int into a "
                                        r"Tensor or Operation\.\)"):
        s.run(3)
    with pytest.raises(ValueError, match=r"""Argument `fetch` = nope:0 cannot be interpreted as """
                                         r"""a Tensor\. \("The name 'nope:0' refers to a Tensor """
                                         r"""which does not exist\. The operation, 'nope', does """
                                         r"""not exist in the graph\."\)"""):
        s.run("nope:0")
    with pytest.raises(ValueError, match=r"""\("The name 'nope' refers to an Operation not in """
                                         r"""the graph\."\)"""):
        s.run("nope")
    with pytest.raises(ValueError, match=r"exists but only has 1 outputs"):
        s.run("Const:5")
    with tf.Graph().as_default():
        other = tf.constant(1.0)
    with pytest.raises(ValueError, match=r'Tensor Tensor\("Const:0", shape=\(\), '
                                         r'dtype=float32\) is not an element of this graph\.'):
        s.run(other)


def test_feeds_as_tensorflow(graph):
    x = v1.placeholder(tf.int32, [2])
    y = x * 2
    s = v1.Session()
    np.testing.assert_array_equal(s.run(y, {x: [1.5, 2.5]}), [2, 4])   # cast as TF does
    np.testing.assert_array_equal(s.run(y, {"Placeholder:0": (3, 4)}), [6, 8])
    np.testing.assert_array_equal(s.run(y, {x: np.array([1, 2], np.int64)}), [2, 4])
    np.testing.assert_array_equal(s.run(y, {x: tf.constant([1, 2]) if False else [1, 2]}),
                                  [2, 4])
    with pytest.raises(ValueError, match=r"^Cannot feed value of shape \(1, 2\) for Tensor "
                                         r"Placeholder:0, which has shape \(2,\)$"):
        s.run(y, {x: [[1, 2]]})
    with pytest.raises(TypeError, match=r"^The value of a feed cannot be a tf\.Tensor object\."):
        s.run(y, {x: tf.constant([1, 2])})
    with pytest.raises(TypeError, match=r"^Cannot interpret feed_dict key as Tensor: The name "
                                        r"'x:0' refers to a Tensor which does not exist\."):
        s.run(y, {"x:0": [1, 2]})
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"You must feed a value for placeholder tensor 'Placeholder' with "
                             r"dtype int32 and shape \[2\]"):
        s.run(y)


def test_feeding_any_tensor_replaces_its_value(graph):
    a = tf.constant(3.0)
    b = a * 2     # inference knows 6.0; a feed of `a` must change it
    s = v1.Session()
    assert s.run(b) == 6.0
    assert s.run(b, {a: 5.0}) == 10.0
    assert s.run(a, {a: 7}) == 7.0
    assert s.run(b, {b: 1.0}) == 1.0


def test_placeholder_with_default(graph):
    pd = v1.placeholder_with_default([1., 2.], shape=[2])
    assert str(pd) == 'Tensor("PlaceholderWithDefault:0", shape=(2,), dtype=float32)'
    doubled = pd * 2
    s = v1.Session()
    np.testing.assert_array_equal(s.run(doubled), [2., 4.])
    np.testing.assert_array_equal(s.run(doubled, {pd: [5., 6.]}), [10., 12.])
    with pytest.raises(ValueError, match="incompatible"):
        v1.placeholder_with_default([1., 2.], shape=[3])


def test_runs_only_what_the_fetches_need(graph):
    """TF1 is non-strict without automatic control dependencies: an update that no fetch
    needs does not run (TF2's tf.function would run it)."""
    v = tf.Variable(0.0)
    inc = v.assign_add(1.0)
    bad = tf.gather([1, 2], 5)   # would fail if it ran
    with tf.control_dependencies([inc]):
        after = tf.identity(v.read_value())
    with v1.Session() as s:
        s.run(v.initializer)
        assert s.run(v) == 0.0
        assert s.run(inc) == 1.0 and s.run(inc) == 2.0 and s.run(v) == 2.0
        assert s.run(after) == 3.0   # the control dependency runs the update first
        assert s.run(v.read_value()) == 3.0
        with pytest.raises(tf.errors.InvalidArgumentError):
            s.run(bad)


def test_control_flow_in_a_tf1_graph(graph):
    x = v1.placeholder(tf.float32, [None])
    c = tf.cond(tf.reduce_sum(x) > 0, lambda: x * 2, lambda: x - 1)
    w = tf.while_loop(lambda i: i < 10, lambda i: i + 3, [tf.constant(0)])
    s = v1.Session()
    np.testing.assert_array_equal(s.run(c, {x: [1., 2.]}), [2., 4.])
    np.testing.assert_array_equal(s.run(c, {x: [-1., -2.]}), [-2., -3.])
    assert s.run(w) == [12]


def test_sessions_keep_their_own_variables(graph):
    v = tf.Variable(1.0)
    inc = v.assign_add(10.0)
    s1, s2 = v1.Session(), v1.Session()
    s1.run(v.initializer)
    s1.run(inc)
    with pytest.raises(tf.errors.FailedPreconditionError):
        s2.run(v)
    s2.run(v1.global_variables_initializer())
    assert s1.run(v) == 11.0 and s2.run(v) == 1.0


def test_random_ops_draw_anew_each_run(graph):
    r = tf.random.uniform([4])
    s = v1.Session()
    assert (s.run(r) != s.run(r)).any()


def test_session_lifetime_and_default(graph):
    a = tf.constant(2.0)
    with v1.Session() as sess:
        assert v1.get_default_session() is sess and sess.graph is graph
        assert a.op.graph is v1.get_default_graph()
    assert v1.get_default_session() is None
    with pytest.raises(RuntimeError, match="^Attempted to use a closed Session.$"):
        sess.run(a)
    s = v1.Session()
    s.close()
    s.close()
    with pytest.raises(RuntimeError, match="^Attempted to use a closed Session.$"):
        s.run(a)


def test_empty_graph_and_session_enters_its_graph():
    g = tf.Graph()
    with pytest.raises(RuntimeError, match="^The Session graph is empty. Add operations to the "
                                           r"graph before calling run\(\).$"):
        v1.Session(graph=g).run([])
    with v1.Session(graph=g) as sess:
        c = tf.constant(4.0)    # built into the Session's graph
        assert c.graph is g and sess.run(c) == 4.0


def test_eval_load_make_callable_and_interactive_session(graph):
    v = tf.Variable([1.0, 2.0])
    x = v1.placeholder(tf.float32, [2])
    y = x + v
    sess = v1.InteractiveSession()
    try:
        sess.run(v.initializer)
        np.testing.assert_array_equal(v.eval(), [1., 2.])
        v.load([5., 6.])
        np.testing.assert_array_equal(sess.run(v), [5., 6.])
        run = sess.make_callable(y, [x])
        np.testing.assert_array_equal(run([1., 1.]), [6., 7.])
    finally:
        sess.close()
    with pytest.raises(ValueError, match="No default session is registered"):
        v.eval()


def test_fetched_arrays_are_copies(graph):
    c = tf.constant([1.0, 2.0])
    s = v1.Session()
    got = s.run(c)
    got += 1
    np.testing.assert_array_equal(s.run(c), [1., 2.])


@pytest.mark.parametrize("executor", ["interpreter", "codegen", "parallel"])
def test_every_executor_runs_a_session(graph, executor):
    x = v1.placeholder(tf.float32, [3])
    v = tf.Variable([1., 2., 3.])
    y = tf.reduce_sum(tf.nn.relu(x - v) * 2.0)
    s = v1.Session(executor=executor)
    s.run(v1.global_variables_initializer())
    assert s.run(y, {x: [3., 3., 3.]}) == 6.0


def test_sparse_fetch_and_feed(graph):
    sp = tf.SparseTensor(indices=[[0, 0], [1, 2]], values=[1, 2], dense_shape=[3, 4])
    got = v1.Session().run(sp)
    assert type(got).__name__ == "SparseTensorValue"
    np.testing.assert_array_equal(got.indices, [[0, 0], [1, 2]])
    np.testing.assert_array_equal(got.values, [1, 2])
    np.testing.assert_array_equal(got.dense_shape, [3, 4])


def test_eager_session_use_is_refused():
    with pytest.raises(RuntimeError, match=r"^tf.placeholder\(\) is not compatible with eager "
                                           r"execution.$"):
        v1.placeholder(tf.float32)
    assert v1.global_variables_initializer() is None
    assert v1.global_variables() == [] and v1.trainable_variables() == []


def test_tf_function_called_in_a_tf1_graph(graph):
    v = tf.Variable(3.0)

    @tf.function
    def f(x):
        return x * v

    y = f(tf.constant(2.0))
    assert y.graph is graph and y.op.type in ("PartitionedCall", "StatefulPartitionedCall")
    with v1.Session() as s:
        s.run(v1.global_variables_initializer())
        assert s.run(y) == 6.0
        s.run(v.assign_add(1.0))
        assert s.run(y) == 8.0
    with tf.Graph().as_default():   # another graph: traces of its own
        w = tf.Variable(10.0)
        z = tf.function(lambda x: x + w)(tf.constant(1.0))
        with v1.Session() as s:
            s.run(w.initializer)
            assert s.run(z) == 11.0


def test_run_errors_are_worded_as_tensorflow_s():
    """TF 2.21: "Graph execution error:", the node and the user's line that defined it, the
    op's message, the node again (an unfed placeholder, an uninitialized Variable)."""
    with tf.Graph().as_default():
        v = tf.Variable([1.0, 2.0], name="v")
        r = v * 2.0   # the read's line
        p = v1.placeholder(tf.float32, [2], name="p")   # the placeholder's line
        q = tf.math.log(p)
        sess = v1.Session()
    with pytest.raises(tf.errors.InvalidArgumentError) as e:
        sess.run(q)
    line = _line("# the placeholder's line")
    assert e.value.message == (
        "Graph execution error:\n\n"
        "Detected at node 'p' defined at (most recent call last):\n"
        f'    File "{__file__}", line {line}, in test_run_errors_are_worded_as_tensorflow_s\n'
        "Node: 'p'\n"
        "You must feed a value for placeholder tensor 'p' with dtype float and shape [2]\n"
        "\t [[{{node p}}]]")
    with pytest.raises(tf.errors.FailedPreconditionError) as e:
        sess.run(r)
    lines = e.value.message.splitlines()
    assert lines[:3] == ["Graph execution error:", "",
                         "Detected at node 'ReadVariableOp' defined at (most recent call last):"]
    assert lines[3].endswith(f'line {_line("# the read" + chr(39) + "s line")}, in '
                             "test_run_errors_are_worded_as_tensorflow_s")
    assert lines[4] == "Node: 'ReadVariableOp'" and lines[-1] == "\t [[{{node ReadVariableOp}}]]"
    assert lines[5].startswith("Could not find variable v. This could mean that the variable "
                               "has been deleted. In TF1, it can also mean")


def _line(text: str) -> int:
    with open(__file__) as f:
        return next(i for i, line in enumerate(f, 1) if text in line and "_line(" not in line)
