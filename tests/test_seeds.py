"""The seed documents' examples (../shared/seeds/), run with `import tracegraph as tf`."""

import numpy as np

import tracegraph as tf


def test_a_regular_function_and_its_graph():
    def a_regular_function(x, y, b):
        x = tf.matmul(x, y)
        x = x + b
        return x

    a_function_that_uses_a_graph = tf.function(a_regular_function)
    x1 = tf.constant([[1.0, 2.0]])
    y1 = tf.constant([[2.0], [3.0]])
    b1 = tf.constant(4.0)
    orig_value = a_regular_function(x1, y1, b1).numpy()
    tf_function_value = a_function_that_uses_a_graph(x1, y1, b1).numpy()
    assert orig_value == tf_function_value
    assert orig_value.tolist() == [[12.0]]


def test_outer_and_inner_function():
    def inner_function(x, y, b):
        x = tf.matmul(x, y)
        x = x + b
        return x

    @tf.function
    def outer_function(x):
        y = tf.constant([[2.0], [3.0]])
        b = tf.constant(4.0)
        return inner_function(x, y, b)

    out = outer_function(tf.constant([[1.0, 2.0]])).numpy()
    assert repr(out) == "array([[12.]], dtype=float32)"


def test_eager_maximum():
    assert str(tf.maximum(0., tf.constant(5.5))) == "tf.Tensor(5.5, shape=(), dtype=float32)"


def test_get_mse_graph_and_eager(capsys):
    @tf.function
    def get_MSE(y_true, y_pred):
        print("Calculating MSE!")
        sq_diff = tf.pow(y_true - y_pred, 2)
        return tf.reduce_mean(sq_diff)

    y_true = tf.constant([1, 0, 4, 4, 7])
    y_pred = tf.constant([3, 6, 3, 0, 6])
    error = get_MSE(y_true, y_pred)
    assert repr(error) == "<tf.Tensor: shape=(), dtype=int32, numpy=11>"
    error = get_MSE(y_true, y_pred)
    error = get_MSE(y_true, y_pred)
    assert capsys.readouterr().out == "Calculating MSE!\n"
    tf.config.run_functions_eagerly(True)
    for _ in range(3):
        error = get_MSE(y_true, y_pred)
    tf.config.run_functions_eagerly(False)
    assert capsys.readouterr().out == "Calculating MSE!\n" * 3
    assert error.dtype is tf.int32 and error.numpy() == 11
    y_true = tf.random.uniform([5], maxval=10, dtype=tf.int32)
    y_pred = tf.random.uniform([5], maxval=10, dtype=tf.int32)
    expected = int(np.mean((y_true.numpy() - y_pred.numpy()) ** 2))  # positive: trunc == floor
    assert get_MSE(y_true, y_pred).numpy() == expected


def test_strings():
    assert (tf.constant("a") + tf.constant("a")).numpy() == b"aa"


def test_non_strict_execution(capsys):
    def unused_return_eager(x):
        tf.gather(x, [1])  # unused
        return x

    try:
        print(unused_return_eager(tf.constant([0.0])))
    except tf.errors.InvalidArgumentError as e:
        print(f"{type(e).__name__}: {e}")
    assert capsys.readouterr().out.startswith("InvalidArgumentError: indices[0] = 1 is not in")

    @tf.function
    def unused_return_graph(x):
        tf.gather(x, [1])  # unused
        return x

    print(unused_return_graph(tf.constant([0.0])))
    assert capsys.readouterr().out == "tf.Tensor([0.], shape=(1,), dtype=float32)\n"


def test_power_eager_and_graph_agree():
    x = tf.random.uniform(shape=[10, 10], minval=-1, maxval=2, dtype=tf.dtypes.int32)

    def power(x, y):
        result = tf.eye(10, dtype=tf.dtypes.int32)
        for _ in range(y):
            result = tf.matmul(x, result)
        return result

    power_as_graph = tf.function(power)
    eager = power(x, 100)
    graph = power_as_graph(x, 100)
    assert graph.dtype is tf.int32 and np.array_equal(eager.numpy(), graph.numpy())
    reference = np.eye(10, dtype=np.int32)
    for _ in range(100):
        reference = x.numpy() @ reference
    assert np.array_equal(graph.numpy(), reference)  # int32 wraps like TensorFlow's


def test_python_side_effect_trace_counts(capsys):
    @tf.function
    def a_function_with_python_side_effect(x):
        print("Tracing!")
        return x * x + tf.constant(2)

    print(a_function_with_python_side_effect(tf.constant(2)))
    print(a_function_with_python_side_effect(tf.constant(3)))
    assert capsys.readouterr().out == ("Tracing!\ntf.Tensor(6, shape=(), dtype=int32)\n"
                                       "tf.Tensor(11, shape=(), dtype=int32)\n")
    print(a_function_with_python_side_effect(2))
    print(a_function_with_python_side_effect(3))
    assert capsys.readouterr().out == ("Tracing!\ntf.Tensor(6, shape=(), dtype=int32)\n"
                                       "Tracing!\ntf.Tensor(11, shape=(), dtype=int32)\n")
    assert a_function_with_python_side_effect.experimental_get_tracing_count() == 3


def test_tracing_note_double(capsys):
    @tf.function
    def double(a):
        print(f"Tracing with, {a}")
        return a + a

    def run():
        for value in (3, 2, tf.constant(1.1), tf.constant("a"), tf.constant("b")):
            print(double(value))
            print()

    run()
    assert capsys.readouterr().out == (
        "Tracing with, 3\ntf.Tensor(6, shape=(), dtype=int32)\n\n"
        "Tracing with, 2\ntf.Tensor(4, shape=(), dtype=int32)\n\n"
        'Tracing with, Tensor("a:0", shape=(), dtype=float32)\n'
        "tf.Tensor(2.2, shape=(), dtype=float32)\n\n"
        'Tracing with, Tensor("a:0", shape=(), dtype=string)\n'
        "tf.Tensor(b'aa', shape=(), dtype=string)\n\n"
        "tf.Tensor(b'bb', shape=(), dtype=string)\n\n")
    run()
    assert capsys.readouterr().out == (
        "tf.Tensor(6, shape=(), dtype=int32)\n\ntf.Tensor(4, shape=(), dtype=int32)\n\n"
        "tf.Tensor(2.2, shape=(), dtype=float32)\n\n"
        "tf.Tensor(b'aa', shape=(), dtype=string)\n\n"
        "tf.Tensor(b'bb', shape=(), dtype=string)\n\n")
    assert double.experimental_get_tracing_count() == 4


def simple_relu(x):
    if tf.greater(x, 0):
        return x
    else:
        return 0


def test_simple_relu_branches(capsys):
    tf_simple_relu = tf.function(simple_relu)
    print("First branch, with graph:", tf_simple_relu(tf.constant(1)).numpy())
    print("Second branch, with graph:", tf_simple_relu(tf.constant(-1)).numpy())
    assert capsys.readouterr().out == ("First branch, with graph: 1\n"
                                       "Second branch, with graph: 0\n")


def test_simple_relu_to_code():
    code = tf.autograph.to_code(simple_relu)
    assert code.startswith("def tf__simple_relu(x):")
    assert "ag__.if_stmt(" in code and "def if_body" in code and "def else_body" in code
    assert "retval_ = 0" in code


def test_simple_relu_graph_def():
    graph = tf.function(simple_relu).get_concrete_function(tf.constant(1)).graph
    graph_def = graph.as_graph_def()
    nodes = {n.name: n for n in graph_def.node}
    assert nodes["x"].op == "Placeholder"
    assert nodes["Greater"].op == "Greater" and nodes["Greater"].input == ["x", "Greater/y"]
    assert nodes["Greater/y"].op == "Const"
    cond = next(n for n in graph_def.node if n.op == "StatelessIf")
    assert cond.input[0] == "Greater"
    branches = {cond.attr["then_branch"].value.name, cond.attr["else_branch"].value.name}
    assert {f.name for f in graph_def.functions} == branches
    text = str(graph_def)
    assert 'op: "StatelessIf"' in text and "library {\n  function {\n    signature {" in text
    assert 'key: "then_branch"\n    value {\n      func {\n        name: "cond_true_' in text
