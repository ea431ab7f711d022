"""tf.function: decorator forms, polymorphism, trace keys (R-2.1 - R-2.6)."""

import dataclasses
import threading
from collections import namedtuple

import numpy as np
import pytest

import tracegraph as tf


def counting(fn):
    """A Function whose Python body counts its traces in `.traces`."""
    calls = []

    def body(*args, **kwargs):
        calls.append(1)
        return fn(*args, **kwargs)
    body.__name__ = fn.__name__
    f = tf.function(body)
    f.calls = calls
    return f


def test_decorator_forms():
    @tf.function
    def a(x):
        return x + 1

    @tf.function(autograph=False, reduce_retracing=True, jit_compile=False)
    def b(x):
        return x * 2

    c = tf.function(lambda x: x - 1)
    assert isinstance(a, tf.Function) and a(tf.constant(1)).numpy() == 2
    assert b(tf.constant(2)).numpy() == 4 and c(tf.constant(2)).numpy() == 1
    assert a.python_function(tf.constant(1)).numpy() == 2


def test_seed_polymorphism_and_signatures():
    @tf.function
    def my_relu(x):
        return tf.maximum(0., x)

    assert str(my_relu(tf.constant(5.5))) == "tf.Tensor(5.5, shape=(), dtype=float32)"
    assert str(my_relu([1, -1])) == "tf.Tensor([1. 0.], shape=(2,), dtype=float32)"
    assert str(my_relu(tf.constant([3., -3.]))) == "tf.Tensor([3. 0.], shape=(2,), dtype=float32)"
    assert str(my_relu(tf.constant(-2.5))) == "tf.Tensor(0.0, shape=(), dtype=float32)"
    assert str(my_relu(tf.constant([-1., 1.]))) == "tf.Tensor([0. 1.], shape=(2,), dtype=float32)"
    assert my_relu.experimental_get_tracing_count() == 3
    # TensorFlow 2.21's layout (issue 14 item 14), as printed by TensorFlow 2.21 itself
    spec = "TensorSpec(shape={}, dtype=tf.float32, name=None)"
    blocks = [(spec.format("()"), spec.format("()")),
              ("List[Literal[1], Literal[-1]]", spec.format("(2,)")),
              (spec.format("(2,)"), spec.format("(2,)"))]
    assert my_relu.pretty_printed_concrete_signatures() == "\n\n".join(
        f"Input Parameters:\n  x (POSITIONAL_OR_KEYWORD): {x}\nOutput Type:\n  {out}\n"
        "Captures:\n  None" for x, out in blocks)


@pytest.mark.parametrize("first,second,shared", [
    (1, 1.0, False), (1, True, False), (1.0, True, False), (0.0, -0.0, False),
    (1, 1, True), ("a", "a", True), (None, None, True), ((1, 2), (1, 2), True),
    ((1, 2), [1, 2], False), (float("nan"), float("nan"), True),
])
def test_python_values_are_typed_keys(first, second, shared):
    f = counting(lambda v: tf.constant(1))
    f(first)
    f(second)
    assert f.experimental_get_tracing_count() == (1 if shared else 2)


def test_tensors_keyed_by_dtype_and_shape():
    f = counting(lambda x: x)
    f(tf.constant(1.0))
    f(tf.constant(2.0))
    f(tf.constant(1))
    f(tf.constant([1.0]))
    f(np.float32(3.0) * np.ones(1, np.float32))  # a NumPy array: like a tensor of its type
    assert f.experimental_get_tracing_count() == 3
    assert f(np.array([5.0], np.float32)).numpy().tolist() == [5.0]


@pytest.mark.filterwarnings("ignore::tracegraph.trace.retrace.RetracingWarning")
def test_structures_are_keyed_structurally():
    Point = namedtuple("Point", "x y")

    @dataclasses.dataclass
    class Box:
        lo: object
        hi: object

    f = counting(lambda s: tf.constant(0))
    f([tf.constant(1), tf.constant(2)])
    f([tf.constant(3), tf.constant(4)])
    f((tf.constant(3), tf.constant(4)))
    f({"a": tf.constant(1)})
    f({"a": tf.constant(2)})
    f({"b": tf.constant(2)})
    f(Point(tf.constant(1), 2))
    f(Point(tf.constant(5), 2))
    f(Point(tf.constant(5), 3))
    f(Box(tf.constant(1.0), tf.constant(2.0)))
    f(Box(tf.constant(3.0), tf.constant(4.0)))
    assert f.experimental_get_tracing_count() == 7

    @tf.function
    def total(s):
        return s.x + s.y

    assert total(Point(tf.constant(1), tf.constant(2))).numpy() == 3

    @tf.function
    def span(b):
        return b.hi - b.lo

    assert span(Box(tf.constant(1.0), tf.constant(4.0))).numpy() == 3.0


def test_canonical_binding_shares_one_trace():
    @tf.function
    def f(x, y=2, *, z=3):
        return x * y + z

    x = tf.constant(1)
    assert f(x).numpy() == 5 and f(x=x).numpy() == 5 and f(x, 2).numpy() == 5
    assert f(x, y=2, z=3).numpy() == 5
    assert f.experimental_get_tracing_count() == 1
    assert f(x, 3).numpy() == 6 and f.experimental_get_tracing_count() == 2


def test_varargs_and_kwargs():
    @tf.function
    def f(*args, **kwargs):
        return tf.add_n(list(args) + [kwargs[k] for k in sorted(kwargs)])

    assert f(tf.constant(1), tf.constant(2), c=tf.constant(3)).numpy() == 6
    assert f(tf.constant(1), c=tf.constant(3)).numpy() == 4


def test_objects_keyed_by_identity_weakly():
    class Config:
        def __init__(self, scale):
            self.scale = scale

    f = counting(lambda c, x: x * c.scale)
    a, b = Config(2.0), Config(3.0)
    assert f(a, tf.constant(1.0)).numpy() == 2.0
    assert f(a, tf.constant(5.0)).numpy() == 10.0
    assert f(b, tf.constant(1.0)).numpy() == 3.0
    assert f.experimental_get_tracing_count() == 2


def test_unhashable_argument_is_type_error():
    @tf.function
    def f(s):
        return tf.constant(1)

    with pytest.raises(TypeError, match="Argument 's' of type set is unhashable"):
        f({1, 2})
    assert f(1).numpy() == 1


def test_variables_keyed_by_dtype_shape_and_aliasing():
    f = counting(lambda a, b: a.assign_add(b.read_value()).read_value())
    v1, v2, v3 = tf.Variable(1.0), tf.Variable(10.0), tf.Variable(100.0)
    assert f(v1, v2).numpy() == 11.0
    assert f(v3, v2).numpy() == 110.0          # other Variables, same specs: no retrace
    assert f.experimental_get_tracing_count() == 1
    assert f(v1, v1).numpy() == 22.0           # aliasing: a new trace
    assert f.experimental_get_tracing_count() == 2
    assert v1.numpy() == 22.0 and v3.numpy() == 110.0
    f(tf.Variable(1), tf.Variable(2))          # int32 Variables
    assert f.experimental_get_tracing_count() == 3


def test_input_signature():
    @tf.function(input_signature=[tf.TensorSpec(shape=[None], dtype=tf.float32)])
    def f(x):
        return tf.reduce_sum(x)

    assert f(tf.constant([1.0, 2.0])).numpy() == 3.0
    assert f(tf.constant([1.0, 2.0, 3.0])).numpy() == 6.0
    assert f([4.0]).numpy() == 4.0  # Python values convert to the spec's dtype
    assert f.experimental_get_tracing_count() == 1
    cf = f.get_concrete_function()
    assert cf.inputs[0].shape.as_list() == [None]
    with pytest.raises(TypeError, match=r"argument 'x' expected TensorSpec\(shape=\(None,\), "
                                        r"dtype=tf.float32, name=None\).*dtype int32"):
        f(tf.constant([1, 2]))
    with pytest.raises(TypeError, match=r"argument 'x' expected .* shape \(2, 2\)"):  # as TF
        f(tf.ones([2, 2]))
    assert f(tf.constant([1.0])).numpy() == 1.0  # the cache still works


def test_reduce_retracing_generalizes_shapes():
    f = tf.function(lambda x: tf.reduce_sum(x), reduce_retracing=True)
    f(tf.ones([2]))
    f(tf.ones([3]))
    f(tf.ones([4]))
    assert f.experimental_get_tracing_count() == 2
    assert "shape=(None,)" in f.pretty_printed_concrete_signatures()
    f(tf.ones([2, 2]))
    f(tf.ones([3, 3, 3]))
    assert "shape=<unknown>" in f.pretty_printed_concrete_signatures()
    assert f(tf.ones([5, 5])).numpy() == 25.0


def test_get_concrete_function_from_values_and_specs():
    @tf.function
    def f(x, n):
        return x * n

    cf = f.get_concrete_function(tf.TensorSpec([None, 2], tf.float32), 3)
    assert isinstance(cf, tf.ConcreteFunction)
    assert str(cf.inputs[0]) == 'Tensor("x:0", shape=(None, 2), dtype=float32)'
    assert cf.outputs[0].shape.as_list() == [None, 2]
    assert cf.structured_outputs.dtype is tf.float32
    out = cf(tf.ones([4, 2]))
    assert out.shape == (4, 2) and out.numpy()[0, 0] == 3.0
    assert f(tf.ones([1, 2]), 3).numpy().tolist() == [[3.0, 3.0]]
    assert f.experimental_get_tracing_count() == 1  # the (None, 2) trace is reused
    cf2 = f.get_concrete_function(tf.constant([1.0]), 2)
    assert cf2(tf.constant([5.0])).numpy().tolist() == [10.0]
    with pytest.raises(tf.errors.InvalidArgumentError):  # wrong dtype: TF's error (issue 14.8)
        cf2(tf.constant([5]))


def test_captured_inputs_and_structured_outputs():
    c = tf.constant([1.0, 2.0])

    @tf.function
    def f(x):
        return {"sum": x + c, "pair": (x, 1)}

    out = f(tf.constant([1.0, 1.0]))
    assert out["sum"].numpy().tolist() == [2.0, 3.0]
    assert out["pair"][1].numpy() == 1 and out["pair"][1].dtype is tf.int32
    cf = f.get_concrete_function(tf.constant([1.0, 1.0]))
    assert len(cf.captured_inputs) == 1 and cf.captured_inputs[0] is c
    assert set(cf.structured_outputs) == {"sum", "pair"}


def test_returning_none_and_bad_objects():
    @tf.function
    def none(x):
        return None

    assert none(tf.constant(1)) is None

    @tf.function
    def bad(x):
        return object()

    with pytest.raises(TypeError, match="must return zero or more Tensors"):
        bad(tf.constant(1))


def test_run_functions_eagerly():
    traces = []

    @tf.function
    def f(x):
        traces.append(tf.executing_eagerly())
        return x + 1

    tf.config.run_functions_eagerly(True)
    assert tf.config.functions_run_eagerly()
    assert f(tf.constant(1)).numpy() == 2 and f(tf.constant(1)).numpy() == 2
    tf.config.run_functions_eagerly(False)
    assert f(tf.constant(1)).numpy() == 2
    assert traces == [True, True, False]


def test_methods_get_one_function_per_instance():
    class Model:
        def __init__(self, w):
            self.w = tf.Variable(w)

        @tf.function
        def __call__(self, x):
            return x * self.w

    m1, m2 = Model(2.0), Model(3.0)
    assert m1(tf.constant(1.0)).numpy() == 2.0 and m2(tf.constant(1.0)).numpy() == 3.0
    assert m1.__call__ is m1.__call__ and m1.__call__ is not m2.__call__
    m1.w.assign(5.0)
    assert m1(tf.constant(1.0)).numpy() == 5.0
    assert m1.__call__.experimental_get_tracing_count() == 1


def test_function_calling_function():
    @tf.function
    def inner(x):
        return x * 2

    @tf.function
    def outer(x):
        return inner(x) + 1

    assert outer(tf.constant(3)).numpy() == 7
    assert inner(tf.constant(3)).numpy() == 6


def test_thread_safety_traces_each_signature_once():
    traces = []
    lock = threading.Lock()

    @tf.function
    def f(x):
        with lock:
            traces.append(x.dtype)
        return x * 2

    inputs = [tf.constant(1), tf.constant(1.0), tf.constant([1, 2]), tf.constant(2.0, tf.float64)]
    errors = []

    def worker(k):
        try:
            for i in range(30):
                x = inputs[(k + i) % len(inputs)]
                out = f(x)
                assert np.array_equal(out.numpy(), x.numpy() * 2)
        except Exception as e:  # pragma: no cover - reported below
            errors.append(e)

    threads = [threading.Thread(target=worker, args=(k,)) for k in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    assert len(traces) == 4 and f.experimental_get_tracing_count() == 4
