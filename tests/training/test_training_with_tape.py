"""Training with GradientTape and the optimizers (`tf.optimizers`): the optimizers'
TensorFlow workload (tests/training/workload.py) with the gradients taken by the tape instead
of written out, eagerly and inside tf.function, ends where TensorFlow 2.21 ends."""

import numpy as np
import pytest

import tracegraph as tf
from tests.training import workload
from tests.training.test_against_tensorflow import REFERENCE


def _train_with_tape(spec, in_function):
    x_np, y_np, w0 = workload.data()
    x, y = tf.constant(x_np), tf.constant(y_np)
    w = tf.Variable(w0, name="w")
    b = tf.Variable(tf.zeros([1]), name="b")
    optimizer = workload.make_optimizer(tf, spec)

    def step():
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(tf.square(tf.matmul(x, w) + b - y))
        optimizer.apply_gradients(zip(tape.gradient(loss, [w, b]), [w, b]))

    run = tf.function(step) if in_function else step
    for _ in range(workload.STEPS):
        run()
    return w.numpy(), b.numpy()


@pytest.mark.parametrize("in_function", [False, True], ids=["eager", "function"])
@pytest.mark.parametrize("key", ["sgd", "sgd_momentum", "adam", "rmsprop", "adagrad",
                                 "adam_global_clipnorm"])
def test_tape_gradients_train_like_tensorflow(key, in_function):
    w, b = _train_with_tape(workload.CONFIGS[key], in_function)
    expected = REFERENCE["results"][key]
    np.testing.assert_allclose(w.ravel(), expected["w"], rtol=1e-4, atol=1e-4)
    np.testing.assert_allclose(b.ravel(), expected["b"], rtol=1e-4, atol=1e-4)
