"""The "all" and "safe" promotion lattices against TensorFlow 2.21's own table (every pair of
dtypes, Python scalars and weak tensors, as `flexible_dtypes.result_type` gave them;
`*.tf221.json`). bfloat16 is left out: tracegraph stores it as float32."""

import json
import pathlib

import pytest

import tracegraph as tf
from tracegraph import config
from tracegraph.library import type_promotion as tp

HERE = pathlib.Path(__file__).parent


def _value(name):
    if name == "pyint":
        return 1
    if name == "pyfloat":
        return 1.0
    if name == "pycomplex":
        return 1j
    if name.endswith("*"):
        return tp.mark_weak(tf.constant(0, getattr(tf, name[:-1])))
    return tf.constant(0, getattr(tf, name))


@pytest.fixture
def mode():
    def set_mode(name):
        config.set_numpy_behavior(name, False, {})
    yield set_mode
    config.set_numpy_behavior("off", False, {})


@pytest.mark.parametrize("name", ["all", "safe"])
def test_lattice_matches_tensorflow(mode, name):
    mode(name)
    table = json.loads((HERE / f"type_promotion_{name}.tf221.json").read_text())
    wrong = []
    for pair, (want, weak) in table.items():
        if "bfloat16" in pair:
            continue
        a, b = pair.split(",")
        try:
            dtype, got_weak = tp.result_type(_value(a), _value(b))
            got = [dtype.name, got_weak]
        except TypeError:
            got = ["error", None]
        if got[0] != want or (want != "error" and got[1] != weak):
            wrong.append((pair, want, weak, got))
    assert not wrong


def test_legacy_follows_numpy_with_weak_python_scalars(mode):
    mode("legacy")
    i32, f32 = tf.ones([], tf.int32), tf.ones([], tf.float32)
    assert (i32 + f32).dtype == tf.float64
    assert (i32 + 1.5).dtype == tf.float64
    assert (f32 + 1.5).dtype == tf.float32
    assert (tf.ones([], tf.int8) + 300).dtype == tf.int8
    assert (tf.ones([], tf.int8) + tf.ones([], tf.uint8)).dtype == tf.int16
    config.set_numpy_behavior("legacy", True, {})
    assert (i32 + 1.5).dtype == tf.float32


def test_off_mode_keeps_tensorflow_errors():
    with pytest.raises(tf.errors.InvalidArgumentError):
        tf.ones([], tf.int32) + tf.ones([], tf.float32)


def test_safe_mode_error_names_both_types(mode):
    mode("safe")
    with pytest.raises(TypeError, match=r"\(<dtype: 'int32'>, weak=False\) and "
                                        r"\(<dtype: 'float32'>, weak=False\)"):
        tf.constant(10, tf.int32) + tf.constant(5.0, tf.float32)


def test_operators_promote_inside_tf_function(mode):
    mode("all")

    @tf.function
    def f(a, b):
        return a + b, a * 2.5

    s, p = f(tf.constant(1, tf.int8), tf.constant(2, tf.uint32))
    assert s.dtype == tf.int64 and int(s) == 3
    assert p.dtype == tf.float64 and float(p) == 2.5


def test_variable_writes_convert_what_promotes_into_them(mode):
    mode("all")
    v = tf.Variable(10, tf.int32)
    v.assign_add(tf.constant(5, tf.int16))
    assert int(v) == 15 and v.dtype == tf.int32
    v.assign(3)   # a Python int is weak: it promotes into int32
    assert int(v) == 3
    with pytest.raises(TypeError, match="Variable dtype is immutable. Calling assign of Variable "
                                        r"\(with dtype <dtype: 'int32'>\) on 2.0 weakly typed"):
        v.assign(tf.constant(2.0))
