"""The stateless random functions beyond their values (those are test_random_fixture.py's):
TensorFlow 2.21's errors, dtypes and shapes, graphs made of TensorFlow's op types, the same
values eagerly and in every executor, gradients (through mean, stddev and dropout, none to the
seed), and the algorithms as TensorFlow names them."""

import numpy as np
import pytest

import tracegraph as tf

DRAWS = {"uniform": tf.random.stateless_uniform, "normal": tf.random.stateless_normal,
         "truncated": tf.random.stateless_truncated_normal}


@pytest.mark.parametrize("executor", ["codegen", "interpreter", "parallel"])
@pytest.mark.parametrize("kind", sorted(DRAWS))
def test_graph_values_equal_eager_values(kind, executor):
    fn = DRAWS[kind]
    f = tf.function(lambda seed: fn([3, 4], seed=seed, dtype=tf.float64), executor=executor)
    want = fn([3, 4], seed=[5, -6], dtype=tf.float64).numpy()
    for _ in range(2):   # stateless: every call gives the same values
        np.testing.assert_array_equal(f(tf.constant([5, -6])).numpy(), want)


def test_graph_holds_tensorflows_ops():
    f = tf.function(lambda seed: tf.random.stateless_normal([2], seed=seed))
    types = [op.type for op in f.get_concrete_function(tf.constant([1, 2])).graph.operations]
    assert "StatelessRandomGetKeyCounter" in types and "StatelessRandomNormalV2" in types
    f = tf.function(lambda seed: tf.random.stateless_categorical([[0., 1.]], 3, seed))
    types = [op.type for op in f.get_concrete_function(tf.constant([1, 2])).graph.operations]
    assert "StatelessMultinomial" in types


def test_shapes_and_dtypes():
    x = tf.random.stateless_uniform(tf.constant([2, 3], tf.int64), seed=[1, 2])
    assert x.shape == (2, 3) and x.dtype == tf.float32
    assert tf.random.stateless_normal([], seed=[1, 2], dtype=tf.float16).dtype == tf.float16
    assert tf.random.stateless_uniform([4], [1, 2], minval=None, maxval=None,
                                       dtype=tf.uint64).dtype == tf.uint64
    cat = tf.random.stateless_categorical([[0., 1.], [1., 0.]], 5, seed=[1, 2], dtype=tf.int32)
    assert cat.shape == (2, 5) and cat.dtype == tf.int32
    x = tf.random.stateless_uniform([1000], [1, 2], minval=-3, maxval=4, dtype=tf.int32)
    assert set(np.unique(x.numpy())) == set(range(-3, 4))
    f = tf.function(lambda n: tf.random.stateless_uniform([n, 2], seed=[1, 2]),
                    input_signature=[tf.TensorSpec([], tf.int32)])
    assert f.get_concrete_function().structured_outputs.shape.rank == 2
    assert f(tf.constant(3)).shape == (3, 2)


def test_split_and_fold_in_make_new_seeds():
    seeds = tf.random.split([1, 2], 4)
    assert seeds.shape == (4, 2) and seeds.dtype == tf.int32
    assert len({tuple(s) for s in seeds.numpy()}) == 4
    folded = tf.random.fold_in([1, 2], 7)
    assert folded.numpy()[1] == 7
    np.testing.assert_array_equal(tf.random.experimental.stateless_split([1, 2], 4), seeds)
    np.testing.assert_array_equal(tf.random.experimental.stateless_fold_in([1, 2], 7), folded)


def test_algorithms_as_tensorflow_names_them():
    assert [a.value for a in tf.random.Algorithm] == [1, 2, 3]
    assert tf.random.Algorithm.PHILOX.name == "PHILOX"
    assert tf.random.experimental.Algorithm is tf.random.Algorithm
    want = tf.random.stateless_uniform([3], [1, 2]).numpy()
    for alg in ("philox", "Auto-Select", " PHILOX ", 1, 3, tf.random.Algorithm.AUTO_SELECT):
        np.testing.assert_array_equal(tf.random.stateless_uniform([3], [1, 2], alg=alg), want)
    with pytest.raises(ValueError, match="Argument `alg` got unsupported value foo. Supported "
                       "values are philox for the Philox algorithm, threefry for the ThreeFry "
                       "algorithm, and auto_select for auto-selection."):
        tf.random.stateless_uniform([2], [1, 2], alg="foo")
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"counter must be a vector with length at least 2"):
        tf.random.stateless_uniform([2], [1, 2], alg="threefry")   # XLA's only, as on TF


def test_errors_as_tensorflow():
    with pytest.raises(ValueError, match=r"Argument `dtype` got invalid value <dtype: 'int8'>"
                       r"\. Accepted dtypes are \(tf\.float16, tf\.bfloat16"):
        tf.random.stateless_uniform([2], [1, 2], dtype=tf.int8)
    with pytest.raises(ValueError, match="must be both None or not None"):
        tf.random.stateless_uniform([2], [1, 2], minval=None, maxval=3, dtype=tf.int32)
    with pytest.raises(ValueError, match="Please don't use unsigned integers"):
        tf.random.stateless_uniform([2], [1, 2], minval=0, maxval=3, dtype=tf.uint32)
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"seed must have shape \[2\], "
                       r"not \[3\]"):
        tf.random.stateless_normal([2], [1, 2, 3])
    with pytest.raises(tf.errors.InvalidArgumentError, match="Need minval < maxval, got 5 >= 5"):
        tf.random.stateless_uniform([2], [1, 2], minval=5, maxval=5, dtype=tf.int64)
    with pytest.raises(tf.errors.InvalidArgumentError, match="Dimension -2 must be >= 0"):
        tf.random.stateless_uniform(tf.constant([-2]), [1, 2])
    with pytest.raises(ValueError, match=r"Accepted dtypes are \(tf\.int32, tf\.int64\)"):
        tf.random.stateless_categorical([[0., 1.]], 2, [1, 2], dtype=tf.float32)
    with pytest.raises(tf.errors.InvalidArgumentError, match="num_classes should be positive"):
        tf.random.stateless_categorical(tf.zeros([2, 0]), 2, [1, 2])
    with pytest.raises(tf.errors.InvalidArgumentError, match="num_samples should be non-"):
        tf.random.stateless_categorical([[0., 1.]], -1, [1, 2])
    with pytest.raises(TypeError, match="Cannot convert 0.0 to EagerTensor of dtype int32"):
        tf.random.stateless_normal([2], [1, 2], dtype=tf.int32)


def test_categorical_follows_the_logits():
    logits = tf.math.log([[0.1, 0.9], [1.0, 0.0]])
    draws = tf.random.stateless_categorical(logits, 4000, seed=[3, 4]).numpy()
    assert abs(draws[0].mean() - 0.9) < 0.03 and (draws[1] == 0).all()


def test_gradients_through_mean_and_stddev_but_not_the_seed():
    mean, stddev = tf.Variable(2.0), tf.Variable(3.0)
    seed = tf.constant([1, 2])
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(seed)
        x = tf.random.stateless_normal([5], seed=seed, mean=mean, stddev=stddev)
        total = tf.reduce_sum(x)
    d_mean, d_stddev = tape.gradient(total, [mean, stddev])
    assert d_mean.numpy() == 5.0
    np.testing.assert_allclose(d_stddev.numpy(),
                               tf.random.stateless_normal([5], seed=[1, 2]).numpy().sum(),
                               rtol=1e-6)
    assert tape.gradient(total, seed) is None


def test_stateless_dropout():
    x = tf.ones([4, 5])
    y = tf.nn.experimental.stateless_dropout(x, 0.5, seed=[1, 2])
    kept = y.numpy() != 0
    np.testing.assert_array_equal(y.numpy()[kept], 2.0)
    np.testing.assert_array_equal(tf.nn.experimental.stateless_dropout(x, 0.5, seed=[1, 2]), y)
    with tf.GradientTape() as tape:
        tape.watch(x)
        z = tf.reduce_sum(tf.nn.experimental.stateless_dropout(x, 0.5, seed=[1, 2]))
    np.testing.assert_array_equal(tape.gradient(z, x).numpy(), np.where(kept, 2.0, 0.0))
    rows = tf.nn.experimental.stateless_dropout(x, 0.5, seed=[3, 2], noise_shape=[4, 1]).numpy()
    assert all(len(set(r)) == 1 for r in rows)        # whole rows kept or dropped
    assert tf.nn.experimental.stateless_dropout(x, 0, seed=[1, 2]) is not None
    with pytest.raises(ValueError, match=r"`rate` must be a scalar tensor or a float in the "
                       r"range \[0, 1\). Received: rate=1"):
        tf.nn.experimental.stateless_dropout(x, 1, seed=[1, 2])
    with pytest.raises(ValueError, match="`x.dtype` must be a floating point tensor"):
        tf.nn.experimental.stateless_dropout(tf.ones([2], tf.int32), 0.5, seed=[1, 2])


def test_raw_key_counter_ops_in_a_graph_fold_to_constants():
    """With a constant seed, the key and counter are known while tracing."""
    f = tf.function(lambda: tf.random.stateless_uniform([2], seed=[1, 2]))
    graph = f.get_concrete_function().graph
    key_op = next(op for op in graph.operations if op.type == "StatelessRandomGetKeyCounter")
    assert key_op.outputs[0].shape == (1,) and key_op.outputs[1].shape == (2,)
    np.testing.assert_array_equal(f(), tf.random.stateless_uniform([2], seed=[1, 2]))
