"""Prints tests/ops/fixtures/tf221_special_values.json: TensorFlow's values and gradients of
the special functions (lgamma, digamma, polygamma, zeta, erfinv, ndtri, log_sigmoid, erfc,
xlogy, xlog1py, xdivy) at edge points, in float32 and float64:

    cd tests/ops && /path/to/tf-python regenerate_special_values.py \
        > fixtures/tf221_special_values.json
"""

import json

import numpy as np
import tensorflow as tf

POINTS = [0.0, -0.0, 1.0, -1.0, 2.0, -2.5, 0.5, 1e-30, 1e-8, 3.7, 12.5, 171.3, 200.0, -3.2,
          1e30, np.inf, -np.inf, np.nan, -1e-8, 0.999999, -0.999999, 1.0 - 1e-12]
PAIRS = ([0., 0., 0., 0., 1., 2., -1., np.nan, np.inf, 0., 3.],
         [0., np.nan, np.inf, -1., 0., 3., -1., 1., 2., 2., -np.inf])
UNARY = {"lgamma": tf.math.lgamma, "digamma": tf.math.digamma, "erfinv": tf.math.erfinv,
         "ndtri": tf.math.ndtri, "log_sigmoid": tf.math.log_sigmoid, "erfc": tf.math.erfc,
         "trigamma": lambda x: tf.math.polygamma(tf.ones_like(x), x),
         "polygamma3": lambda x: tf.math.polygamma(3.0 * tf.ones_like(x), x),
         "zeta2": lambda x: tf.math.zeta(2.0 * tf.ones_like(x), x),
         "zeta_x_1": lambda x: tf.math.zeta(x, tf.ones_like(x))}
BINARY = {"xlogy": tf.math.xlogy, "xlog1py": tf.math.xlog1py, "xdivy": tf.math.xdivy}


def main():
    out = {"points": POINTS, "pairs": PAIRS}
    for dt in (tf.float32, tf.float64):
        x = tf.constant(POINTS, dt)
        for name, f in UNARY.items():
            with tf.GradientTape() as t:
                t.watch(x)
                y = f(x)
            out[f"{dt.name} {name}"] = y.numpy().tolist()
            g = t.gradient(y, x)
            out[f"{dt.name} {name} grad"] = None if g is None else g.numpy().tolist()
        a, b = tf.constant(PAIRS[0], dt), tf.constant(PAIRS[1], dt)
        for name, f in BINARY.items():
            with tf.GradientTape() as t:
                t.watch([a, b])
                y = f(a, b)
            out[f"{dt.name} {name}"] = y.numpy().tolist()
            out[f"{dt.name} {name} grad"] = [g.numpy().tolist() for g in t.gradient(y, [a, b])]
    print(json.dumps(out))


if __name__ == "__main__":
    main()
