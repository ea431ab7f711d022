"""Issue 14 item 12: what tf.function keeps alive. TensorFlow frees all of these; each test drops
the last reference and checks with `weakref` (after `gc.collect()`) that the object is gone."""

import gc
import linecache
import weakref

import numpy as np
import pytest

import tracegraph as tf


class Payload:
    """A big object that only a closure or an argument keeps alive."""

    def __init__(self):
        self.data = np.zeros(1000)


def _gone(ref) -> bool:
    gc.collect()
    return ref() is None


def test_autograph_conversion_does_not_keep_the_function_and_its_closure():
    def make():
        payload = Payload()

        def f(x):
            if x > 0:   # converted by AutoGraph
                x = x + payload.data.size
            return x
        return f, weakref.ref(payload)

    f, payload_ref = make()
    g = tf.function(f)
    assert g(tf.constant(1.0)).numpy() == 1001.0
    f_ref = weakref.ref(f)
    del f, g
    assert _gone(f_ref) and _gone(payload_ref)


def test_an_object_whose_tf_function_method_was_called_is_freed():
    class Model:
        def __init__(self):
            self.v = tf.Variable(2.0)

        @tf.function
        def __call__(self, x):
            return x * self.v

    m = Model()
    assert m(tf.constant(3.0)).numpy() == 6.0
    m_ref = weakref.ref(m)
    del m
    assert _gone(m_ref)


def test_methods_still_trace_per_instance_with_their_own_self():
    class Scaler:
        def __init__(self, k):
            self.k = k

        @tf.function
        def __call__(self, x):
            return x * self.k

    a, b = Scaler(2.0), Scaler(3.0)
    x = tf.constant(1.0)
    assert a(x).numpy() == 2.0 and b(x).numpy() == 3.0 and a(x).numpy() == 2.0
    assert Scaler.__call__.python_function.__name__ == "__call__"
    assert a.__call__.python_function.__self__ is a


def test_python_object_arguments_are_held_weakly():
    class Config:
        scale = 3.0

    f = tf.function(lambda x, config: x * config.scale)
    config = Config()
    assert f(tf.constant(2.0), config).numpy() == 6.0
    assert "Config" in f.pretty_printed_concrete_signatures()
    ref = weakref.ref(config)
    del config
    assert _gone(ref)
    assert "Config" in f.pretty_printed_concrete_signatures()  # printing survives the object


def test_the_retrace_detector_does_not_keep_tensor_arguments():
    f = tf.function(lambda x: x + 1)
    x = tf.constant(np.zeros(1000))
    f(x)
    ref = weakref.ref(x)
    del x
    assert _gone(ref)
    assert "first call" in f.call_table.detector.last_change


def test_linecache_entries_go_with_the_function():
    def make_and_drop():
        f = tf.function(lambda x: x * 2.0 + 1.0)
        f(tf.constant(1.0))
        return {name for name in linecache.cache if name.startswith("<tracegraph-codegen")}

    gc.collect()
    before = {name for name in linecache.cache if name.startswith("<tracegraph-codegen")}
    created = make_and_drop() - before
    assert created
    gc.collect()
    assert not created & set(linecache.cache)


def test_an_evicted_trace_drops_its_linecache_entry():
    import warnings
    f = tf.function(lambda x, n: x * n, max_traces=1)
    f(tf.constant(1.0), 1)
    (first,) = f.call_table.concrete_functions
    compiled = first.compiled()
    filename = getattr(compiled, "fn", compiled).filename   # the suite's cross-check wraps it
    del first, compiled
    assert filename in linecache.cache
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        f(tf.constant(1.0), 2)   # evicts the n=1 trace
    gc.collect()
    assert filename not in linecache.cache


def test_a_method_of_a_temporary_module_runs_as_in_tensorflow():
    # `M().f(x)`: the temporary is freed before the call (the method holds it weakly, as in
    # TF); a method that does not read `self` still runs, one that does raises TF's
    # AttributeError, saying why (TF 2.21: "'NoneType' object has no attribute 'k'")
    class M(tf.Module):
        def __init__(self):
            super().__init__()
            self.k = 2.0

        @tf.function
        def f(self, x):
            return x * 2.0

        @tf.function
        def g(self, x):
            return x * self.k

    assert M().f(tf.constant(3.0)).numpy() == 6.0
    assert M().f.get_concrete_function(tf.TensorSpec([]))(tf.constant(1.0)).numpy() == 2.0
    with pytest.raises(AttributeError, match=r"deleted before the call.*self\.k"):
        M().g(tf.constant(3.0))
    m = M()
    assert m.g(tf.constant(3.0)).numpy() == 6.0
