"""The dispatch decorators: user types override `tf.*` functions (TensorFlow's rules: the
annotations decide, plain tensors never dispatch, the latest target wins, unregistering
restores TensorFlow's behaviour)."""


import numpy as np
import pytest

import tracegraph as tf


class Masked(tf.experimental.ExtensionType):
    values: tf.Tensor
    mask: tf.Tensor


def _masked(x):
    return x if isinstance(x, Masked) else Masked(x, tf.ones_like(x, tf.bool))


@pytest.fixture
def registered():
    targets = []

    def register(target):
        targets.append(target)
        return target
    yield register
    for target in targets:
        tf.experimental.unregister_dispatch_for(target)


def test_dispatch_for_api_by_annotation(registered):
    @registered
    @tf.experimental.dispatch_for_api(tf.stack)
    def stack(values: list[Masked | tf.Tensor], axis=0):
        values = [_masked(v) for v in values]
        return Masked(tf.stack([v.values for v in values], axis),
                      tf.stack([v.mask for v in values], axis))

    x = Masked([1, 2], [True, False])
    out = tf.stack([x, tf.constant([3, 4])], axis=1)
    np.testing.assert_array_equal(out.values, [[1, 3], [2, 4]])
    np.testing.assert_array_equal(out.mask, [[True, True], [False, True]])
    plain = tf.stack([tf.constant([1]), tf.constant([2])])   # no extension type: TF's own
    assert isinstance(plain, tf.Tensor)


def test_unregister_restores_default_and_unknown_target_is_an_error(registered):
    @tf.experimental.dispatch_for_api(tf.math.reduce_sum)
    def total(input_tensor: Masked, axis=None):
        return tf.reduce_sum(tf.where(input_tensor.mask, input_tensor.values, 0), axis)

    assert int(tf.math.reduce_sum(Masked([1, 2, 3], [True, False, True]))) == 4
    tf.experimental.unregister_dispatch_for(total)
    with pytest.raises((TypeError, ValueError)):
        tf.math.reduce_sum(Masked([1, 2, 3], [True, False, True]))
    with pytest.raises(ValueError, match="was not registered"):
        tf.experimental.unregister_dispatch_for(total)


def test_signature_must_match_the_api():
    with pytest.raises(ValueError, match="signature"):
        @tf.experimental.dispatch_for_api(tf.stack)
        def wrong(vals: list[Masked], axis=0):
            return vals


def test_explicit_signatures(registered):
    @registered
    @tf.experimental.dispatch_for_api(tf.concat, {"values": list[Masked]})
    def concat(values, axis, name="concat"):
        return Masked(tf.concat([v.values for v in values], axis),
                      tf.concat([v.mask for v in values], axis))

    out = tf.concat([Masked([1], [True]), Masked([2], [False])], 0)
    np.testing.assert_array_equal(out.values, [1, 2])


def test_unary_elementwise_with_the_other_arguments(registered):
    @registered
    @tf.experimental.dispatch_for_unary_elementwise_apis(Masked)
    def unary(api_func, x):
        return Masked(api_func(x.values), x.mask)

    x = Masked([1, -2], [True, False])
    np.testing.assert_array_equal(tf.abs(x).values, [1, 2])
    np.testing.assert_array_equal(tf.math.negative(x).values, [-1, 2])
    ones = tf.ones_like(x, dtype=tf.float32)
    assert ones.values.dtype == tf.float32
    assert isinstance(tf.abs(tf.constant([-1])), tf.Tensor)


def test_binary_elementwise_with_unions_inside_tf_function(registered):
    @registered
    @tf.experimental.dispatch_for_binary_elementwise_apis(Masked | tf.Tensor,
                                                          Masked | tf.Tensor)
    def binary(api_func, x, y):
        x, y = _masked(x), _masked(y)
        return Masked(api_func(x.values, y.values), x.mask & y.mask)

    @tf.function
    def f(a, b):
        return tf.math.add(a, b), tf.math.multiply(b, a)

    s, p = f(Masked([1.0, 2.0], [True, False]), tf.constant([10.0, 20.0]))
    np.testing.assert_allclose(s.values, [11.0, 22.0])
    np.testing.assert_allclose(p.values, [10.0, 40.0])
    np.testing.assert_array_equal(s.mask, [True, False])
