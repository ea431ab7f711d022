"""Edge values as TensorFlow 2.21 gives them (issue 26, item 19): floor division and modulo of
infinities and signed zeros, softmax of rows holding +inf or NaN and of empty tensors,
broadcast_to with unknown dims, reshape to a nested shape, tf.range to infinity, while_loop
conditions and loop variables TensorFlow rejects. Each expectation is TensorFlow 2.21's output
for the same call, eagerly and inside tf.function on every executor. (Where NaN sorts:
test_nan_order.py.)"""

import math

import numpy as np
import pytest

import tracegraph as tf

INF, NAN = math.inf, math.nan
EXECUTORS = [dict(executor="interpreter"), dict(executor="codegen"), dict(executor="parallel"),
             dict(jit_compile=True)]


def everywhere(fn, *args):
    """fn's results eagerly and traced on every executor (as nested lists)."""
    out = [fn(*args)]
    out += [tf.function(fn, **options)(*args) for options in EXECUTORS]
    return [[np.asarray(v).tolist() for v in r] if isinstance(r, (list, tuple)) else
            np.asarray(r).tolist() for r in out]


def same(got, want) -> bool:
    """Equal with NaN equal to NaN and the sign of zero compared."""
    got, want = np.asarray(got, np.float64), np.asarray(want, np.float64)
    return got.shape == want.shape and bool(np.all(
        (np.isnan(got) & np.isnan(want)) |
        ((got == want) & (np.signbit(got) == np.signbit(want)))))


X = [INF, -INF, 5.0, -5.0, 0.0, -0.0, NAN]


@pytest.mark.parametrize("dtype", [tf.float32, tf.float64])
@pytest.mark.parametrize("y, floordiv, floormod", [
    (3.0, [INF, -INF, 1.0, -2.0, 0.0, -0.0, NAN], [NAN, NAN, 2.0, 1.0, 0.0, -0.0, NAN]),
    (-3.0, [-INF, INF, -2.0, 1.0, -0.0, 0.0, NAN], [NAN, NAN, -1.0, -2.0, 0.0, -0.0, NAN]),
    (INF, [NAN, NAN, 0.0, -0.0, 0.0, -0.0, NAN], [NAN, NAN, 5.0, INF, 0.0, -0.0, NAN]),
    (0.0, [INF, -INF, INF, -INF, NAN, NAN, NAN], [NAN, NAN, NAN, NAN, NAN, NAN, NAN]),
])
def test_floor_division_and_modulo_of_infinities_and_zeros(dtype, y, floordiv, floormod):
    x = tf.constant(X, dtype)
    for got in everywhere(lambda a: (tf.math.floordiv(a, y), a // y, tf.math.floormod(a, y)), x):
        assert same(got[0], floordiv) and same(got[1], floordiv), got
        assert same(got[2], floormod), got[2]
    assert tf.math.floordiv(tf.constant([1.0]), 0.1).numpy().tolist() == [10.0]  # floor(x / y)


def test_softmax_of_rows_holding_inf_or_nan():
    rows = [[INF, 1.0, 2.0], [INF, INF, 1.0], [-INF, 1.0, 2.0], [-INF, -INF, -INF],
            [INF, -INF, NAN], [1.0, NAN, 2.0]]
    # float32 (TF's default CPU kernel): NaN where the shifted logit is NaN, 0 elsewhere
    want32 = [[NAN, 0.0, 0.0], [NAN, NAN, 0.0], [0.0, 0.26894143, 0.7310586],
              [NAN, NAN, NAN], [NAN, 0.0, NAN], [0.0, NAN, 0.0]]
    for got in everywhere(lambda a: tf.nn.softmax(a), tf.constant(rows)):
        np.testing.assert_allclose(got, want32, rtol=1e-6)
    want64 = [[NAN] * 3, [NAN] * 3, [0.0, 0.2689414213699951, 0.7310585786300049], [NAN] * 3,
              [NAN] * 3, [NAN] * 3]
    for got in everywhere(lambda a: tf.nn.softmax(a), tf.constant(rows, tf.float64)):
        np.testing.assert_allclose(got, want64, rtol=1e-12)
    want_log = [[NAN] * 3, [NAN] * 3, [-INF, -1.3132616, -0.31326166], [NAN] * 3, [NAN] * 3,
                [NAN] * 3]
    for got in everywhere(lambda a: tf.nn.log_softmax(a), tf.constant(rows)):
        np.testing.assert_allclose(got, want_log, rtol=1e-6)
    axis0 = tf.nn.softmax(tf.constant([[INF, 1.0], [2.0, 1.0]]), axis=0).numpy().tolist()
    np.testing.assert_allclose(axis0, [[NAN, 0.5], [0.0, 0.5]])


@pytest.mark.parametrize("shape", [[0, 3], [3, 0], [2, 0, 3]])
def test_softmax_of_empty_tensors(shape):
    for fn in (tf.nn.softmax, tf.nn.log_softmax):
        x = tf.zeros(shape)
        results = [fn(x)] + [tf.function(fn, **options)(x) for options in EXECUTORS]
        assert [r.shape for r in results] == [tuple(shape)] * len(results)


def _traced(fn, *specs):
    return tf.function(fn, input_signature=list(specs))


def test_broadcast_to_with_unknown_dims_is_checked_when_it_runs():
    to_one = _traced(lambda a: tf.broadcast_to(a, [1]), tf.TensorSpec([None]))
    assert to_one(tf.ones([1])).numpy().tolist() == [1.0]
    like = _traced(lambda a, b: tf.broadcast_to(a, tf.shape(b)), tf.TensorSpec([None, 3]),
                   tf.TensorSpec([1, 3]))
    assert like(tf.ones([1, 3]), tf.ones([1, 3])).shape == (1, 3)
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"Unable to broadcast tensor of shape \[2\] to tensor of shape \[1\]"):
        to_one(tf.ones([2]))
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"Incompatible shapes: \[3\] vs. "):
        tf.broadcast_to(tf.ones([3]), [2, 4])
    with pytest.raises(ValueError, match="Shape must be at most rank 1 but is rank 2"):
        _traced(lambda a: tf.broadcast_to(a, [3]), tf.TensorSpec([None, 3])).get_concrete_function()
    with pytest.raises(ValueError, match="Shape must be rank 1 but is rank 2"):
        _traced(lambda a: tf.broadcast_to(a, [[2, 3]]), tf.TensorSpec([3])).get_concrete_function()
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"shape must be a vector of "
                                                             r"\{int32,int64\}, got shape \[1,2\]"):
        tf.broadcast_to(tf.ones([3]), [[2, 3]])


def test_reshape_to_a_nested_shape_is_rejected():
    x = tf.range(6.0)
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"sizes input must be 1-D, not "
                                                             r"\[1,2\]"):
        tf.reshape(x, [[2, 3]])
    with pytest.raises(ValueError, match="Shape must be rank 1 but is rank 2"):
        tf.function(lambda a: tf.reshape(a, [[2, 3]]))(x)
    with pytest.raises(ValueError, match="Shape must be rank 1 but is rank 0"):
        tf.function(lambda a: tf.reshape(a, 6))(x)
    assert tf.reshape(x, 6).shape == (6,)          # eagerly TF's kernel takes a scalar size


def test_range_to_infinity_raises_tensorflows_error():
    big = r"Requires \(\(limit - start\) / delta\) <= 9223372036854775807"
    for limit, delta in ((INF, 1.0), (-INF, -1.0)):
        with pytest.raises(tf.errors.InvalidArgumentError, match=big):
            tf.range(0.0, limit, delta)
        with pytest.raises(ValueError, match=big):
            tf.function(lambda lim=limit, step=delta: tf.range(0.0, lim, step))()
    with pytest.raises(tf.errors.InvalidArgumentError, match=big):
        tf.function(lambda a: tf.range(0.0, a))(tf.constant(INF))
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match="Requires start <= limit when delta > 0: 0/nan"):
        tf.range(0.0, NAN)
    assert tf.range(0.0, 10.0, INF).numpy().tolist() == []
    assert len(tf.range(10.0, -4.0, -0.7)) == 20    # the length computed in float32, as TF


def test_while_loop_conditions_and_loop_variables_tensorflow_rejects():
    def body(i):
        return i + 1

    for run in (lambda f: f(), lambda f: tf.function(f)()):
        with pytest.raises(tf.errors.InvalidArgumentError, match="passed string expected bool"):
            run(lambda: tf.while_loop(lambda i: tf.constant("abc"), body, [0]))
        with pytest.raises(tf.errors.InvalidArgumentError, match="passed string expected bool"):
            run(lambda: tf.while_loop(lambda i: "abc", body, [0]))
        with pytest.raises(TypeError, match="'cond' must be callable"):
            run(lambda: tf.while_loop("abc", body, [0]))
        with pytest.raises(TypeError, match="'body' must be callable"):
            run(lambda: tf.while_loop(lambda i: i < 3, 5, [0]))
    with pytest.raises(ValueError, match="'loop_vars' must be provided."):
        tf.while_loop(lambda i: i < 3, body, 0)
    with pytest.raises(TypeError, match="object of type 'int' has no len()"):
        tf.function(lambda: tf.while_loop(lambda i: i < 3, body, 0))()
    with pytest.raises(tf.errors.InvalidArgumentError, match="passed int32 expected bool"):
        tf.function(lambda: tf.while_loop(lambda i: 0, body, [0]))()
    assert tf.while_loop(lambda i: 0, body, [0]) == [0]   # eagerly: the truth value
    assert tf.function(lambda: tf.while_loop(lambda i: i < 3, body, (0,)))()[0].numpy() == 3
