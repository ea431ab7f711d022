"""Graph semantics (R-4) and the errors and warnings of tf.function (R-2.7, bad input)."""

import re
import warnings

import pytest

import tracegraph as tf
from tracegraph.trace.function import CacheEvictionWarning
from tracegraph.trace.retrace import RetracingWarning


def test_python_side_effects_only_while_tracing(capsys):
    @tf.function
    def f(x):
        print("traced")
        return x + 1

    for _ in range(3):
        f(tf.constant(1))
    assert capsys.readouterr().out == "traced\n"


def test_tf_print_prints_every_call(capsys):
    @tf.function
    def f(x):
        tf.print("x =", x)
        return x

    f(tf.constant(1))
    f(tf.constant(2))
    assert capsys.readouterr().err == "x = 1\nx = 2\n"


def test_stateful_ops_run_in_program_order(capsys):
    v = tf.Variable(1.0)

    @tf.function
    def f():
        tf.print("before", v)
        v.assign(10.0)
        tf.print("after", v)
        v.assign_add(5.0)
        return v.read_value()

    assert f().numpy() == 15.0
    assert capsys.readouterr().err == "before 1\nafter 10\n"
    assert v.numpy() == 15.0


def test_non_strict_execution_skips_unused_ops():
    @tf.function
    def unused_return_graph(x):
        tf.gather(x, [1])  # unused
        return x

    assert str(unused_return_graph(tf.constant([0.0]))) == \
        "tf.Tensor([0.], shape=(1,), dtype=float32)"


def test_stateful_ops_run_even_if_unused():
    @tf.function
    def f(x):
        tf.debugging.check_numerics(x, "Bad!")
        return x

    with pytest.raises(tf.errors.InvalidArgumentError, match="Bad! : Tensor had Inf values"):
        f(tf.constant(float("inf")))


def test_variables_captured_by_reference():
    v = tf.Variable(1.0)

    @tf.function
    def f(x):
        v.assign_add(x)
        return v * 2

    assert f(tf.constant(1.0)).numpy() == 4.0
    assert v.numpy() == 2.0
    v.assign(10.0)  # updates made outside are visible inside
    assert f(tf.constant(1.0)).numpy() == 22.0 and v.numpy() == 11.0


def test_variable_created_on_first_trace_only():
    class Counter:
        def __init__(self):
            self.v = None

        @tf.function
        def __call__(self, x):
            if self.v is None:
                self.v = tf.Variable(0.0)
            self.v.assign_add(x)
            return self.v.read_value()

    c = Counter()
    assert c(tf.constant(1.0)).numpy() == 1.0
    assert c(tf.constant(2.0)).numpy() == 3.0

    @tf.function
    def leaky(x):
        return tf.Variable(1.0).read_value() + x

    # As TensorFlow 2.21 (issue 14 item 7): the first call traces twice and fails already.
    with pytest.raises(ValueError, match="only supports singleton tf.Variables created on the "
                                         "first call"):
        leaky(tf.constant(1.0))


def test_captured_eager_tensors():
    c = tf.constant(2.0)

    @tf.function
    def f(x):
        return x * c

    assert f(tf.constant(3.0)).numpy() == 6.0
    assert f.get_concrete_function(tf.constant(3.0)).captured_inputs == [c]


def test_runtime_error_names_op_and_user_line():
    @tf.function
    def f(x):
        return tf.gather(x, [3])  # the failing line

    line = f.python_function.__code__.co_firstlineno + 2
    with pytest.raises(tf.errors.InvalidArgumentError) as info:
        f(tf.constant([1.0]))
    message = str(info.value)
    assert "indices[0] = 3 is not in [0, 1)" in message
    assert "GatherV2" in message and f"test_semantics.py:{line}" in message


def test_runtime_shape_error_in_graph():
    spec = tf.TensorSpec([None], tf.float32)

    @tf.function(input_signature=[spec, spec])
    def f(x, y):
        return x + y

    with pytest.raises(tf.errors.InvalidArgumentError, match=r"Incompatible shapes: \[2\] vs. "
                                                             r"\[3\]"):
        f(tf.ones([2]), tf.ones([3]))


def test_graph_building_errors_are_value_and_type_errors():
    @tf.function
    def shape_error(x):
        return x + tf.ones([3])

    with pytest.raises(ValueError, match=r"Incompatible shapes: \[2\] vs. \[3\]"):
        shape_error(tf.ones([2]))

    @tf.function
    def dtype_error(x):
        return x + tf.constant(1)

    with pytest.raises(TypeError, match="Input 'y' of 'AddV2' Op has type int32 that does not "
                                        "match type float32 of argument 'x'"):
        dtype_error(tf.constant(1.0))


def test_symbolic_tensor_as_bool_without_autograph():
    @tf.function(autograph=False)
    def f(x):
        if x > 0:
            return x
        return -x

    with pytest.raises(tf.errors.OperatorNotAllowedInGraphError, match="AutoGraph") as info:
        f(tf.constant(1))
    assert isinstance(info.value, TypeError)
    assert "tf.cond" in str(info.value)
    with pytest.raises(TypeError):
        len(f.get_concrete_function)  # noqa - unrelated sanity: Functions have no len


def test_symbolic_tensor_leaking_out_is_an_error():
    leaked = []

    @tf.function
    def f(x):
        leaked.append(x * 2)
        return x

    f(tf.constant(1))
    with pytest.raises(TypeError, match="cannot be used outside it"):
        leaked[0] + 1
    with pytest.raises(AttributeError, match="^'SymbolicTensor' object has no attribute 'numpy'$"):
        leaked[0].numpy()


def test_wrong_number_of_arguments():
    @tf.function
    def f(x, y):
        return x + y

    with pytest.raises(TypeError, match="missing a required argument: 'y'"):
        f(tf.constant(1))
    assert f(tf.constant(1), tf.constant(2)).numpy() == 3


def test_retracing_warning_names_argument_and_call_site():
    @tf.function
    def f(x, n):
        return x * n

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for n in range(6):
            f(tf.constant(1), n)
    retrace = [w for w in caught if issubclass(w.category, RetracingWarning)]
    assert len(retrace) == 1
    text = str(retrace[0].message)
    assert "5 out of the last 5 calls to f triggered tf.function retracing" in text
    assert "argument 'n' changed from 3 to 4" in text
    assert re.search(r"test_semantics\.py:\d+", text)
    assert retrace[0].filename == __file__   # the warning points at the caller (issue 26, 22)


def test_cache_is_bounded_and_inspectable():
    f = tf.function(lambda x, n: x + n, max_traces=2)
    x = tf.constant(1)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        f(x, 1)
        f(x, 2)
        f(x, 1)  # n=1 is now the most recently used: n=2 goes
        f(x, 3)
    evictions = [w for w in caught if issubclass(w.category, CacheEvictionWarning)]
    assert len(evictions) == 1 and "n=2" in str(evictions[0].message)
    assert f.cached_signatures() == ["<lambda>(x, n=1)", "<lambda>(x, n=3)"]
    f.clear_cache()
    assert f.cached_signatures() == []
    assert f(x, 1).numpy() == 2


# --- issue 14 item 11: the retracing warning is right ---------------------------------------

def _retrace_warnings(run):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        run()
    return [str(w.message) for w in caught if issubclass(w.category, RetracingWarning)]


def test_recursive_function_with_a_python_int_does_not_warn_per_depth():
    @tf.function
    def fact(n):
        if n <= 1:
            return tf.constant(1)
        return n * fact(n - 1)

    messages = _retrace_warnings(lambda: fact(7))
    assert not messages   # TF 2.21: one call, no warning (not "5 out of the last 1 calls")
    assert fact(7).numpy() == 5040


def test_failed_traces_are_not_counted_nor_blamed():
    @tf.function
    def bad(x, k):
        if k < 3:
            raise ValueError("no")
        return x + k

    def run():
        for k in range(3):
            with pytest.raises(ValueError):
                bad(tf.constant(1), k)
        for k in (3, 4, 5, 10):
            bad(tf.constant(1), k)

    assert _retrace_warnings(run) == []  # TF 2.21: 4 traced calls of 4, no warning yet
    (message,) = _retrace_warnings(lambda: bad(tf.constant(1), 11))
    assert message.startswith("5 out of the last 5 calls to bad")
    blamed = re.findall(r"argument '([^']+)'", message)
    assert blamed and set(blamed) <= {"x", "k"}


def test_warning_counts_never_exceed_the_calls():
    @tf.function
    def f(x, n):
        return x * n

    for m in _retrace_warnings(lambda: [f(tf.constant(1), n) for n in range(8)]):
        traced, calls = map(int, re.match(r"(\d+) out of the last (\d+)", m).groups())
        assert traced <= calls


def test_many_evictions_warn_once_then_count():   # 1,000 here; 10,000 behave the same
    f = tf.function(lambda x, n: x + n, max_traces=2)
    x = tf.constant(1)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for n in range(1002):
            f(x, n)
    evictions = [str(w.message) for w in caught if issubclass(w.category, CacheEvictionWarning)]
    assert len(evictions) == 1 and "evicted_traces` counts them" in evictions[0]
    assert f.evicted_traces == 1000


def test_arguments_of_failed_calls_are_never_blamed():
    @tf.function
    def g(x, **kw):
        if "boom" in kw:
            raise ValueError("no")
        return x + len(kw)

    def run():
        for i in range(4):
            with pytest.raises(ValueError):
                g(tf.constant(1), boom=i)
        g(tf.constant(1), n=0)   # the first call that traced successfully: nothing to warn

    messages = _retrace_warnings(run)
    assert not any("boom" in m for m in messages) and not messages
