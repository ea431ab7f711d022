"""tf.random.stateless_* and tf.nn.experimental.stateless_dropout against TensorFlow 2.21's
numbers (fixtures/stateless_random.npz, made by fixtures/make_stateless_random.py), eagerly
and inside tf.function."""

import pathlib

import numpy as np
import pytest

import tracegraph as tf

REF = np.load(pathlib.Path(__file__).parent / "fixtures" / "stateless_random.npz")
DRAW = {"uniform": tf.random.stateless_uniform, "normal": tf.random.stateless_normal,
        "truncated": tf.random.stateless_truncated_normal}


@pytest.mark.parametrize("kind", sorted(DRAW))
@pytest.mark.parametrize("dtype", ["float32", "float64", "float16"])
def test_floats_are_tensorflows(kind, dtype):
    got = DRAW[kind]([300], seed=[123, 456], dtype=dtype).numpy()
    want = REF[f"{kind}_{dtype}"]
    assert got.dtype == want.dtype
    if kind == "uniform" or dtype != "float32":
        np.testing.assert_array_equal(got, want)
    else:  # float32 normals: TF's sinf/logf and ours agree but for the last ulp or two
        np.testing.assert_allclose(got, want, rtol=0, atol=4e-7)
        assert (got == want).mean() > 0.95


def test_in_a_function_the_same_numbers():
    f = tf.function(lambda seed: tf.random.stateless_normal([300], seed=seed, dtype="float64"))
    np.testing.assert_array_equal(f(tf.constant([123, 456])).numpy(), REF["normal_float64"])
    np.testing.assert_array_equal(f(tf.constant([123, 456])).numpy(), REF["normal_float64"])


def test_integers():
    got = tf.random.stateless_uniform([300], seed=[-5, 2**40], minval=-7, maxval=1000,
                                      dtype=tf.int32)
    np.testing.assert_array_equal(got.numpy(), REF["int32"])
    got = tf.random.stateless_uniform([300], seed=[-5, 2**40], minval=-7, maxval=2**40,
                                      dtype=tf.int64)
    np.testing.assert_array_equal(got.numpy(), REF["int64"])
    for dtype in ("uint64", "int32"):
        got = tf.random.stateless_uniform([4], seed=[1, 2], minval=None, maxval=None,
                                          dtype=dtype)
        np.testing.assert_array_equal(got.numpy(), REF[f"full_{dtype}"])
    with pytest.raises(ValueError, match="must be both None or not None"):
        tf.random.stateless_uniform([2], seed=[1, 2], dtype=tf.int32)


def test_bounds_and_seed_checks():
    got = tf.random.stateless_uniform([2, 3], seed=[7, 8], minval=-1., maxval=2.)
    np.testing.assert_allclose(got.numpy(), REF["scaled"], rtol=1e-6)
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"seed must have shape \[2\]"):
        tf.random.stateless_uniform([2], seed=[1, 2, 3])


def test_stateless_dropout():
    x = tf.ones([2, 5])
    got = tf.nn.experimental.stateless_dropout(x, 0.5, seed=[1, 2])
    np.testing.assert_array_equal(got.numpy(), REF["dropout"])
    got = tf.nn.experimental.stateless_dropout(x, 0.5, seed=[1, 2], noise_shape=[None, 1])
    np.testing.assert_array_equal(got.numpy(), REF["dropout_rows"])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.reduce_sum(tf.nn.experimental.stateless_dropout(x, 0.5, seed=[1, 2]))
    np.testing.assert_array_equal(tape.gradient(y, x).numpy(), REF["dropout"])
