"""Gradients at the points where a derivative is infinite or undefined (0 for sqrt, +-1 for
asin, overflow for exp, a zero element for cumprod), each taken three ways: plainly, with the
function scaled by 0 (`x + 0. * f(x)`) and masked away by `tf.where`, the latter two also to
second order. TensorFlow's Sqrt, Rsqrt and Reciprocal gradients give 0 where the incoming
gradient is 0, so the masked and zero-scaled forms stay finite there; its Log, Pow and
RealDiv gradients do not (0 * inf is NaN in TensorFlow too). Written against a `tf` module
passed in, so the same table runs under TensorFlow 2.21 (fixtures/make_singular_gradients.py)
and under tracegraph (test_singular_gradients.py)."""

from __future__ import annotations

import math

import numpy as np

INF = float("inf")
MODES = ("plain", "zero", "masked", "plain2", "zero2", "masked2")


def cases(tf):
    """name -> (f, points): f maps a float64 tensor to a tensor; each point is one input."""
    f64 = tf.float64

    def c(v):
        return tf.constant(v, f64)
    return {
        "sqrt": (tf.math.sqrt, [0., -1., 4.]),
        "rsqrt": (tf.math.rsqrt, [0., -1., 4.]),
        "reciprocal": (tf.math.reciprocal, [0., 2.]),
        "one_over": (lambda x: 1. / x, [0., 2.]),
        "x_over_0": (lambda x: x / c(0.), [0., 2.]),
        "divide_x_x": (lambda x: tf.math.divide(x, x), [0., 2.]),
        "log": (tf.math.log, [0., -1., 2.]),
        "log1p": (tf.math.log1p, [-1., -2., 1.]),
        "pow_half": (lambda x: tf.pow(x, 0.5), [0., -1., 4.]),
        "pow_neg": (lambda x: tf.pow(x, -1.), [0., 2.]),
        "pow_sq": (lambda x: tf.pow(x, 2.), [0., -2.]),
        "pow_zero_base": (lambda x: tf.pow(c(0.), x), [0., 1., -1.]),
        "pow_neg_base": (lambda x: tf.pow(c(-2.), x), [2., 0.5]),
        "pow_xx": (lambda x: tf.pow(x, x), [0., -1., 2.]),
        "exp": (tf.math.exp, [1000., 0.]),
        "expm1": (tf.math.expm1, [1000., 0.]),
        "sinh": (tf.math.sinh, [1000.]),
        "cosh": (tf.math.cosh, [1000.]),
        "asin": (tf.math.asin, [1., -1., 2.]),
        "acos": (tf.math.acos, [1., -1., 2.]),
        "atanh": (tf.math.atanh, [1., -1., 2.]),
        "acosh": (tf.math.acosh, [1., 0.5]),
        "asinh": (tf.math.asinh, [1e300, INF]),
        "atan": (tf.math.atan, [INF]),
        "tanh": (tf.math.tanh, [INF]),
        "sigmoid": (tf.math.sigmoid, [INF, -INF]),
        "tan": (tf.math.tan, [math.pi / 2]),
        "square": (tf.math.square, [INF]),
        "abs": (tf.math.abs, [0.]),
        "softplus": (tf.math.softplus, [INF, -INF]),
        "log_sigmoid": (tf.math.log_sigmoid, [-INF, INF, -1000.]),
        "lgamma": (tf.math.lgamma, [0., -1.]),
        "digamma": (tf.math.digamma, [0., -1.]),
        "erfinv": (tf.math.erfinv, [1., -1.]),
        "ndtri": (tf.math.ndtri, [0., 1.]),
        "erf": (tf.math.erf, [INF]),
        "erfc": (tf.math.erfc, [INF]),
        "xlogy_y": (lambda x: tf.math.xlogy(c(1.), x), [0.]),
        "xlogy_x0": (lambda x: tf.math.xlogy(x, c(0.)), [0., 1.]),
        "xdivy_y": (lambda x: tf.math.xdivy(c(1.), x), [0.]),
        "xlog1py_y": (lambda x: tf.math.xlog1py(c(1.), x), [-1.]),
        "div_no_nan": (lambda x: tf.math.divide_no_nan(c(1.), x), [0.]),
        "multiply_no_nan": (lambda x: tf.math.multiply_no_nan(c(INF), x), [0., 1.]),
        "atan2_y": (lambda x: tf.math.atan2(x, tf.zeros_like(x)), [0.]),
        "atan2_x": (lambda x: tf.math.atan2(tf.zeros_like(x), x), [0.]),
        "elu": (tf.nn.elu, [-INF]),
        "relu": (tf.nn.relu, [INF]),
        "leaky_relu": (tf.nn.leaky_relu, [INF]),
        "selu": (tf.nn.selu, [-INF]),
        "gelu": (tf.nn.gelu, [INF, -INF]),
        "silu": (tf.nn.silu, [INF, -INF]),
        "maximum": (lambda x: tf.maximum(x, c(0.)), [0.]),
        "floormod": (lambda x: tf.math.floormod(x, tf.zeros_like(x)), [1.]),
        "squared_difference": (lambda x: tf.math.squared_difference(x, c(INF)), [1.]),
        # whole vectors
        "reduce_std": (tf.math.reduce_std, [[2., 2., 2.]]),
        "reduce_variance": (tf.math.reduce_variance, [[2., 2., 2.]]),
        "norm": (tf.norm, [[0., 0.]]),
        "reduce_euclidean_norm": (tf.math.reduce_euclidean_norm, [[0., 0.]]),
        "l2_normalize": (tf.math.l2_normalize, [[0., 0.]]),
        "reduce_prod": (tf.reduce_prod, [[0., 2., 3.], [0., 0., 3.]]),
        "cumprod": (tf.math.cumprod, [[2., 0., 3.], [0., 0., 3.], [1., 2., 0.]]),
        "cumprod_exclusive": (lambda x: tf.math.cumprod(x, exclusive=True), [[2., 0., 3.]]),
        "cumprod_reverse": (lambda x: tf.math.cumprod(x, reverse=True), [[2., 0., 3.]]),
        "reduce_logsumexp": (tf.math.reduce_logsumexp, [[-INF, -INF], [INF, 1.]]),
        "softmax": (lambda x: tf.nn.softmax(x) * c([1., 2.]), [[INF, 1.], [-INF, -INF]]),
        "log_softmax": (tf.nn.log_softmax, [[-INF, 1.], [INF, 1.]]),
        "batch_normalization": (lambda x: tf.nn.batch_normalization(
            x, *tf.nn.moments(x, [0]), None, None, 0.), [[1., 1.]]),
        "reduce_mean_log": (lambda x: tf.reduce_mean(tf.math.log(x)), [[0., 1.]]),
        "reduce_max": (tf.reduce_max, [[INF, INF]]),
    }


def gradient(tf, f, x, mode):
    """The gradient of sum(g(x)) at x, g being f itself ("plain"), x + 0 * f(x) ("zero") or
    tf.where(True, x, f(x)) ("masked"); the "...2" modes differentiate the sum of that
    gradient again, with x * x in place of x."""
    second = mode.endswith("2")
    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = f(x)
            kept = x * x if second else x
            if mode.startswith("zero"):
                y = kept + 0. * y
            elif mode.startswith("masked"):
                y = tf.where(tf.ones_like(x, tf.bool), kept, y)
            total = tf.reduce_sum(y)
        g = tape.gradient(total, x)
        if second:
            g_total = tf.reduce_sum(g)
    return outer.gradient(g_total, x) if second else g


def table(tf, traced: bool) -> dict:
    """'name[i]/mode' -> the gradient's values as reprs (None: no gradient; 'ERR ...')."""
    out = {}
    for name, (f, points) in cases(tf).items():
        for i, point in enumerate(points):
            for mode in MODES:
                out[f"{name}[{i}]/{mode}"] = run(tf, f, point, mode, traced)
    return out


def run(tf, f, point, mode, traced):
    def compute(x):
        return gradient(tf, f, x, mode)
    try:
        g = (tf.function(compute) if traced else compute)(tf.constant(point, tf.float64))
    except Exception as e:   # TensorFlow has no rule for some second derivatives
        return f"ERR {type(e).__name__}"
    if g is None:
        return None
    return [repr(float(v)) for v in np.ravel(np.asarray(g))]
