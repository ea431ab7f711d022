"""`tf.py_function` and `tf.numpy_function` (issue 14, item 14): Python called at run time,
eagerly and in graphs, on both executors, through the optimizer (never folded, deduplicated or
hoisted), with TensorFlow 2.21's results and error types."""

import numpy as np
import pytest

import tracegraph as tf
from tracegraph.ops.python_call import CALLS_PYTHON
from tracegraph.ops.registry import get_op

EXECUTORS = ["codegen", "interpreter"]


def test_eager_calls_get_eager_tensors_or_arrays():
    seen = []

    def double(x):
        seen.append(type(x).__name__)
        return x * 2

    out = tf.py_function(double, [tf.constant([1., 2.])], tf.float32)
    assert out.numpy().tolist() == [2., 4.] and out.dtype == tf.float32
    out = tf.numpy_function(double, [tf.constant([1., 2.])], tf.float32)
    assert out.numpy().tolist() == [2., 4.]
    assert seen == ["EagerTensor", "ndarray"]  # as in TensorFlow


@pytest.mark.parametrize("executor", EXECUTORS)
def test_in_a_graph_the_function_runs_at_every_call(executor):
    seen = []

    def double(x):
        seen.append(type(x).__name__)
        return x * 2

    @tf.function(executor=executor)
    def f(x):
        y = tf.py_function(double, [x], tf.float32)
        assert y.shape.rank is None  # unknown static shape, as in TensorFlow
        z = tf.numpy_function(double, [x], tf.float32)
        return y + 1, z

    for _ in range(2):
        y, z = f(tf.constant([1., 2.]))
        assert y.numpy().tolist() == [3., 5.] and z.numpy().tolist() == [2., 4.]
    assert seen == ["EagerTensor", "ndarray"] * 2
    kinds = [op.type for op in f.get_concrete_function(tf.constant([1., 2.])).graph
             .get_operations()]
    assert "EagerPyFunc" in kinds and "PyFunc" in kinds


def test_several_results_and_python_values():
    def two(x, y):
        return x + y, x * y

    a, b = tf.py_function(two, [1., 2.], [tf.float32, tf.float32])
    assert (float(a), float(b)) == (3., 2.)
    a, b = tf.numpy_function(two, [np.float32(1.), np.float32(2.)], [tf.float32, tf.float32])
    assert (float(a), float(b)) == (3., 2.)
    assert int(tf.py_function(lambda x: 5, [tf.constant([1.])], tf.int32)) == 5
    assert tf.py_function(lambda x: [], [tf.constant([1.])], []) == []
    (only,) = tf.py_function(lambda x: x, [tf.constant([1.])], [tf.float32])
    assert only.numpy().tolist() == [1.]
    assert int(tf.py_function(lambda x: x, [tf.constant(1)], Tout="int32")) == 1

    @tf.py_function(Tout=tf.float32)
    def halve(x):
        return x / 2

    assert float(halve(tf.constant(3.))) == 1.5


def test_errors_are_tensorflows():
    with pytest.raises(tf.errors.InvalidArgumentError, match="requested dtype float32 for "
                                                             "Tensor with dtype float64"):
        tf.py_function(lambda x: tf.cast(x, tf.float64), [tf.constant([1.])], tf.float32)
    with pytest.raises(tf.errors.InvalidArgumentError, match="Cannot convert 5.5"):
        tf.py_function(lambda x: 5.5, [tf.constant([1.])], tf.int32)
    with pytest.raises(tf.errors.UnknownError, match="ZeroDivisionError: division by zero"):
        tf.py_function(lambda x: 1 / 0, [tf.constant([1.])], tf.float32)
    with pytest.raises(TypeError, match="Missing required argument: 'Tout'"):
        tf.py_function(lambda x: None, [tf.constant([1.])], None)

    @tf.function
    def wrong_dtype(x):
        return tf.numpy_function(lambda x: x.astype(np.float64), [x], tf.float32)

    with pytest.raises(tf.errors.InvalidArgumentError, match="0-th value returned by <lambda> "
                                                             "is double, but expects float"):
        wrong_dtype(tf.constant([1.]))

    @tf.function
    def wrong_count(x):
        return tf.numpy_function(lambda x: (x, x, x), [x], [tf.float32, tf.float32])

    with pytest.raises(tf.errors.InvalidArgumentError, match="returns 3 values, but expects "
                                                             "to see 2 values"):
        wrong_count(tf.constant([1.]))

    @tf.function
    def raising(x):
        return tf.py_function(lambda x: 1 / 0, [x], tf.float32)

    with pytest.raises(tf.errors.UnknownError, match="ZeroDivisionError"):
        raising(tf.constant(1.))
    with pytest.raises(tf.errors.OutOfRangeError):
        tf.numpy_function(lambda: [][0], [], tf.float32)


@pytest.mark.parametrize("executor", EXECUTORS)
def test_never_folded_deduplicated_or_hoisted_with_every_pass_on(executor):
    from tests.optimize.checks import all_on
    tf.config.optimizer.set_experimental_options(
        {k: v for k, v in all_on().items() if not k.startswith("_")})
    calls = []

    def draw():
        calls.append(1)
        return np.float64(len(calls))

    @tf.function(executor=executor)
    def f(n):
        a = tf.numpy_function(draw, [], tf.float64)            # constant inputs: not folded
        b = tf.numpy_function(draw, [], tf.float64, stateful=False)  # same inputs: not CSE'd
        total = tf.constant(0., tf.float64)
        for _ in tf.range(n):                                   # loop-invariant: not hoisted
            total += tf.reshape(tf.numpy_function(draw, [], tf.float64), [])
        return a, b, total

    a, b, total = f(tf.constant(3))
    assert (float(a), float(b), float(total)) == (1., 2., 3. + 4. + 5.)
    assert len(calls) == 5
    f(tf.constant(0))
    assert len(calls) == 7


def test_side_effects_keep_program_order():
    order = []

    @tf.function
    def f(x):
        tf.py_function(lambda: order.append("first") or 0, [], tf.int32)
        y = x + 1
        tf.py_function(lambda: order.append("second") or 0, [], tf.int32)
        return y

    f(tf.constant(1))
    f(tf.constant(1))
    assert order == ["first", "second"] * 2


def test_records_say_graphs_with_python_calls_cannot_be_saved():
    for name in ("EagerPyFunc", "PyFunc", "PyFuncStateless"):
        op = get_op(name)
        assert CALLS_PYTHON in op.flags and op.stateful
