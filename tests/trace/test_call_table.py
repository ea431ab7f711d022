"""Issue 20 item 3: the one public way to call a traced function. A `CallTable` dispatches for
`tf.function` and for loaded functions alike; `ConcreteFunction.call_flat_values` is the flat
call every other folder uses; `Variable.from_handle` builds a Variable over existing storage."""

import warnings

import numpy as np
import pytest

import tracegraph as tf
from tracegraph.formats.native.restored_functions import RestoredFunction
from tracegraph.framework.variables import ResourceHandle, Variable
from tracegraph.nest import flatten
from tracegraph.trace.call_table import CacheEvictionWarning, CallTable
from tracegraph.trace.function import PolymorphicFunction
from tracegraph.trace.retrace import RetracingWarning

C = tf.constant


def _traced_function():
    """A Function with traces of several kinds: shapes, dtypes, Python values, nesting."""
    @tf.function
    def f(x, n=1, d=None):
        return x * n

    warnings.simplefilter("ignore", RetracingWarning)   # tracing often is the point here
    f(C([1.0, 2.0]))
    f(C([1.0, 2.0, 3.0]))
    f.get_concrete_function(tf.TensorSpec([None], tf.float32))
    f.get_concrete_function(tf.TensorSpec(None, tf.float32))
    f(C([1, 2]), 2)
    f(C([1.0, 2.0]), 3, "a")
    f(C([[1.0, 2.0]]), 1, {"a": 1, "b": [2, 3]})
    return f


# Calls the traces above serve: each is served by an existing trace, without tracing.
SERVED = [
    ((C([1.0, 2.0]),), {}),
    ((C([5.0, 6.0, 7.0]),), {}),
    ((C([1.0]),), {}),                          # the [None] trace
    ((C([[1.0]]),), {}),                        # the unknown-rank trace
    ((C(3.0),), {}),
    ((C([1, 2]), 2), {}),
    ((C([1.0, 2.0]), 3, "a"), {}),
    ((C([1.0, 2.0]),), {"n": 3, "d": "a"}),
    ((C([[1.0, 2.0]]), 1, {"b": [2, 3], "a": 1}), {}),
    ((np.array([1.0, 2.0], np.float32),), {}),
]


def _signature(cf) -> str:
    return cf.pretty_printed_signature()


@pytest.mark.parametrize("args,kwargs", SERVED)
def test_a_table_that_never_traces_dispatches_as_the_function(args, kwargs):
    f = _traced_function()
    traces = f.experimental_get_tracing_count()
    cf = f.call_table.concrete_for(args, kwargs)[0]
    assert f.experimental_get_tracing_count() == traces   # served, not traced

    saved = CallTable("f", f.call_table.python_signature, trace=None, max_traces=None)
    for c in f.call_table.concrete_functions:
        saved.add(c, c.canonical_arguments)
    assert saved.concrete_for(args, kwargs)[0] is cf


def test_a_restored_function_dispatches_as_the_function_it_was_saved_from(tmp_path):
    f = _traced_function()
    holder = tf.Module()
    holder.f = f
    tf.saved_model.save(holder, str(tmp_path))
    loaded = tf.saved_model.load(str(tmp_path)).f
    assert isinstance(loaded, RestoredFunction) and isinstance(loaded, PolymorphicFunction)
    assert isinstance(f, PolymorphicFunction)
    for args, kwargs in SERVED:
        want = f(*args, **kwargs)
        got = loaded(*args, **kwargs)
        np.testing.assert_array_equal(got.numpy(), want.numpy())
        assert _signature(loaded.get_concrete_function(*args, **kwargs)) == \
            _signature(f.get_concrete_function(*args, **kwargs))
        got = loaded(*args, **kwargs)   # again: the fast path and the key memo agree
        np.testing.assert_array_equal(got.numpy(), want.numpy())


def test_a_table_that_never_traces_serves_compatible_shapes_or_raises():
    f = tf.function(lambda x: x + 1.0)
    f(C([1.0, 2.0]))
    restored = RestoredFunction("f", f.call_table.concrete_functions)
    # A spec more general than any trace: the Function traces anew, the restored function
    # serves it with its compatible [2] trace (TensorFlow's loader).
    spec = tf.TensorSpec([None], tf.float32)
    assert restored.get_concrete_function(spec) is f.call_table.concrete_functions[0]
    assert f.get_concrete_function(spec) is not f.call_table.concrete_functions[0]
    with pytest.raises(ValueError, match="Could not find matching concrete function"):
        restored(C([1.0, 2.0, 3.0]))
    with pytest.raises(ValueError, match="Could not find matching concrete function"):
        restored(C([1.0, 2.0]), 5)   # does not bind
    assert len(restored.concrete_functions) == 1


def test_the_fast_path_remembers_only_calls_fed_exactly_their_tensors():
    f = tf.function(lambda x, n: x * n)
    x = C([1.0, 2.0])
    f(x, 2)
    assert len(f.call_table.fast) == 1
    key = next(iter(f.call_table.fast))
    assert key == (np.dtype("float32"), (2,), int, 2)

    one = C(1.0)
    g = tf.function(lambda x, y=one: x + y)       # a default holds a tensor: never fast
    g(x)
    assert g.call_table.fast == {}
    h = tf.function(lambda x: x, input_signature=[tf.TensorSpec([], tf.int32)])
    h(3)                                             # converted by the input_signature
    assert h.call_table.fast == {}
    assert h(3).numpy() == 3


def test_keyword_names_are_part_of_the_trace_key():
    # TensorFlow 2.21 traces twice here (b'a' then b'b'); the key once ignored the names.
    f = tf.function(lambda **kw: tf.constant(list(kw)[0]))
    assert f(a=1).numpy() == b"a"
    assert f(b=1).numpy() == b"b"
    assert f(a=[]).numpy() == b"a" and f(b=[]).numpy() == b"b"
    assert f.experimental_get_tracing_count() == 4


def test_calls_and_failed_calls_are_counted_by_the_table():
    f = tf.function(lambda x: x * 2)
    x = C(1.0)
    f(x)
    f(x)
    assert f.call_table.calls == 2
    with pytest.raises(TypeError):
        f(x, 3)
    assert f.call_table.calls == 2   # as TensorFlow: a failed call does not count


def test_eviction_and_retrace_warnings_point_at_the_callers_line():
    f = tf.function(lambda x, n: x * n, max_traces=1)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        f(C(1.0), 1)
        f(C(1.0), 2)
    (eviction,) = [w for w in caught if issubclass(w.category, CacheEvictionWarning)]
    assert eviction.filename == __file__
    assert f.evicted_traces == 1 and f.call_table.evicted == 1


# --- the flat call -------------------------------------------------------------------------------

def _flat_values(cf, by_path):
    """The flat input values built by hand from `input_paths`: arrays and Variable handles."""
    out = []
    for path, _ in cf.input_paths:
        value = by_path[path]
        out.append(value.handle if isinstance(value, tf.Variable) else np.asarray(value))
    return out


def test_flat_call_equals_structured_call():
    v = tf.Variable([1.0, 2.0])

    @tf.function
    def f(x, pair, var, scale=2):
        return {"sum": x + pair[0] + var, "parts": (pair[1] * scale, 7)}

    x, a, b = C([1.0, 1.0]), C([10.0, 20.0]), C(3.0)
    cf = f.get_concrete_function(x, (a, b), v)
    assert [p for p, _ in cf.input_paths] == ["x", "pair[0]", "pair[1]", "var"]
    flat = _flat_values(cf, {"x": x, "pair[0]": a, "pair[1]": b, "var": v})
    structured = cf(x, (a, b), v)
    by_flat = cf.call_flat_values(flat)
    assert by_flat["parts"][1] == 7 == structured["parts"][1]
    for got, want in zip(flatten(by_flat), flatten(structured)):
        np.testing.assert_array_equal(np.asarray(got), np.asarray(want))
    # the graph's outputs sit at output_positions of the flattened structure
    leaves = flatten(by_flat)
    assert len(cf.output_positions) == len(cf.outputs)
    assert all(isinstance(leaves[i], tf.Tensor) for i in cf.output_positions)
    assert not cf.single_output


def test_flat_call_of_a_single_output_and_of_canonical_arguments():
    f = tf.function(lambda x, y: tf.matmul(x, y))
    x = C(np.eye(2, dtype=np.float32))
    y = C([[1.0], [2.0]])
    cf = f.get_concrete_function(x, y)
    assert cf.single_output and cf.output_positions == (0,)
    key_canonical, value_canonical = f.call_table.bind((x, y), {})
    values = cf.flat_input_values(value_canonical)
    assert [np.asarray(a).tolist() for a in values] == [x.numpy().tolist(), y.numpy().tolist()]
    out = cf.call_flat_values(values)
    np.testing.assert_array_equal(out.numpy(), f(x, y).numpy())
    np.testing.assert_array_equal(cf.compiled()(*values)[0], out.numpy())


# --- Variable.from_handle --------------------------------------------------------------------

def test_variable_from_a_handle_shares_its_storage():
    v = tf.Variable([1.0, 2.0], name="w")
    view = Variable.from_handle(v.handle, trainable=False)
    assert view.name == "w:0" and view.handle is v.handle and not view.trainable
    view.assign([3.0, 4.0])
    assert v.numpy().tolist() == [3.0, 4.0]
    assert v.handle.owner() is v                    # an owned handle keeps its owner


def test_variable_from_a_new_handle_owns_it_and_is_watched():
    handle = ResourceHandle(np.float32(3.0), tf.float32, (), "loaded")
    v = Variable.from_handle(handle)
    assert v.name == "loaded:0" and handle.owner() is v and v.trainable
    with tf.GradientTape() as tape:
        y = v * v
    assert tape.gradient(y, v).numpy() == 6.0
    named = Variable.from_handle(ResourceHandle(np.float32(1.0), tf.float32, (), "h"),
                                 name="k:0")
    assert named.name == "k:0"
