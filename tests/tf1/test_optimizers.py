"""TF1's optimizers in a TF1 graph and eagerly: the variables after five steps of TF 2.21's
GradientDescent, Momentum (and Nesterov) and Adam on the same problem, their names and ops."""

import numpy as np
import pytest

import tracegraph as tf

v1 = tf.compat.v1
XS = np.array([[1., 2.], [3., 4.], [5., 6.]], np.float32)
YS = np.array([[1.], [2.], [3.]], np.float32)

# TF 2.21: w, b and the last loss after 5 steps
EXPECTED = {
    "GradientDescent": ([0.675088, -0.06834], [0.156572], 0.04016),
    "Momentum": ([0.697104, -0.024872], [0.178024], 1.552652),
    "Nesterov": ([0.651627, -0.075798], [0.172575], 0.039935),
    "Adam": ([0.802247, 0.006274], [0.420402], 0.903944),
}


def _make(kind):
    return {"GradientDescent": lambda: v1.train.GradientDescentOptimizer(0.01),
            "Momentum": lambda: v1.train.MomentumOptimizer(0.01, 0.9),
            "Nesterov": lambda: v1.train.MomentumOptimizer(0.01, 0.9, use_nesterov=True),
            "Adam": lambda: v1.train.AdamOptimizer(0.1)}[kind]()


@pytest.mark.parametrize("kind", sorted(EXPECTED))
def test_five_steps_as_tensorflow(kind):
    with tf.Graph().as_default():
        x = v1.placeholder(tf.float32, [None, 2])
        y = v1.placeholder(tf.float32, [None, 1])
        w = tf.Variable([[0.5], [-0.3]], name="w")
        b = tf.Variable([0.1], name="b")
        loss = tf.reduce_mean(tf.square(tf.matmul(x, w) + b - y))
        step = v1.train.get_or_create_global_step()
        train = _make(kind).minimize(loss, global_step=step)
        assert train.name == ("Adam" if kind == "Adam" else
                              "GradientDescent" if kind == "GradientDescent" else "Momentum")
        with v1.Session() as s:
            s.run(v1.global_variables_initializer())
            for _ in range(5):
                _, last = s.run([train, loss], {x: XS, y: YS})
            want_w, want_b, want_loss = EXPECTED[kind]
            np.testing.assert_allclose(s.run(w).ravel(), want_w, rtol=1e-4, atol=1e-6)
            np.testing.assert_allclose(s.run(b), want_b, rtol=1e-4, atol=1e-6)
            assert last == pytest.approx(want_loss, rel=1e-4)
            assert s.run(step) == 5


def test_slots_are_global_variables_named_after_the_variable():
    with tf.Graph().as_default():
        w = tf.Variable([[0.5], [-0.3]], name="w")
        b = tf.Variable([0.1], name="b")
        opt = v1.train.AdamOptimizer(0.1)
        opt.minimize(tf.reduce_sum(w * w) + tf.reduce_sum(b))
        assert [v.name for v in v1.global_variables()] == [
            "w:0", "b:0", "beta1_power:0", "beta2_power:0", "w/Adam:0", "w/Adam_1:0",
            "b/Adam:0", "b/Adam_1:0"]
        assert v1.trainable_variables() == [w, b]
        assert opt.get_slot(w, "m").name == "w/Adam:0" and opt.get_slot_names() == ["m", "v"]
        with pytest.raises(ValueError, match="No variables to optimize."):
            with tf.Graph().as_default():
                opt.minimize(tf.constant(1.0) * 2)


def test_eagerly_minimize_takes_a_loss_function():
    w = tf.Variable([1.0, -2.0])
    opt = v1.train.AdamOptimizer(0.1)
    for _ in range(3):
        assert opt.minimize(lambda: tf.reduce_sum(w * w)) is None
    np.testing.assert_allclose(w.numpy(), [0.701587, -1.700624], rtol=1e-5)   # TF 2.21
    assert [v.name for v in opt.variables()] == ["Variable/Adam:0", "Variable/Adam_1:0",
                                                 "beta1_power:0", "beta2_power:0"]
    with pytest.raises(RuntimeError, match="should be a function when eager execution"):
        v1.train.GradientDescentOptimizer(0.1).minimize(tf.constant(1.0))


ADAPTIVE = [  # (optimizer, its slot names, its variables, w after 3 steps): TF 2.21's
    (lambda: v1.train.AdagradOptimizer(0.1), ["accumulator"], ["w/Adagrad:0"],
     [0.782299, -1.777701, 2.774413]),
    (lambda: v1.train.AdagradOptimizer(0.1, initial_accumulator_value=0.5), ["accumulator"],
     ["w/Adagrad:0"], [0.789154, -1.784695, 2.774625]),
    (lambda: v1.train.RMSPropOptimizer(0.01), ["momentum", "rms"],
     ["w/RMSProp:0", "w/RMSProp_1:0"], [0.952192, -1.951917, 2.927947]),
    (lambda: v1.train.RMSPropOptimizer(0.01, decay=0.8, momentum=0.5, epsilon=1e-6,
                                       centered=True), ["mg", "momentum", "rms"],
     ["w/RMSProp:0", "w/RMSProp_1:0", "w/RMSProp_2:0"], [0.931265, -1.930909, 2.906466]),
    (lambda: v1.train.AdadeltaOptimizer(1.0), ["accum", "accum_update"],
     ["w/Adadelta:0", "w/Adadelta_1:0"], [0.998643, -1.998643, 2.998643]),
    (lambda: v1.train.AdadeltaOptimizer(0.5, rho=0.9, epsilon=1e-6), ["accum", "accum_update"],
     ["w/Adadelta:0", "w/Adadelta_1:0"], [0.99515, -1.995148, 2.995148]),
]


@pytest.mark.parametrize("make, slots, variables, want", ADAPTIVE)
def test_adaptive_optimizers_in_a_session(make, slots, variables, want):
    with tf.Graph().as_default():
        w = v1.get_variable("w", initializer=tf.constant([1.0, -2.0, 3.0]))
        loss = tf.reduce_sum(w * w * tf.constant([1.0, 0.5, 2.0]))
        opt = make()
        train = opt.minimize(loss)
        assert train.name == opt.get_name() and opt.get_slot_names() == slots
        assert [v.name for v in opt.variables()] == variables
        with v1.Session() as s:
            s.run(v1.global_variables_initializer())
            for _ in range(3):
                s.run(train)
            np.testing.assert_allclose(s.run(w), want, atol=2e-6)


def test_rmsprop_with_momentum_eagerly():
    w = tf.Variable([1.0, -2.0, 3.0])
    opt = v1.train.RMSPropOptimizer(0.01, momentum=0.9)
    for _ in range(3):
        opt.minimize(lambda: tf.reduce_sum(w * w), var_list=[w])
    np.testing.assert_allclose(w.numpy(), [0.908208, -1.875582, 2.864066], atol=2e-6)
    with pytest.raises(ValueError, match="initial_accumulator_value must be positive"):
        v1.train.AdagradOptimizer(0.1, initial_accumulator_value=0.0)


def test_learning_rate_schedules_of_the_global_step():
    """TF 2.21's values at steps 0, 7, 14, 21 (a tensor in a TF1 graph, a function eagerly)."""
    with tf.Graph().as_default():
        step = v1.train.get_or_create_global_step()
        lrs = [v1.train.exponential_decay(0.1, step, 10, 0.5),
               v1.train.exponential_decay(0.1, step, 10, 0.5, staircase=True),
               v1.train.piecewise_constant(step, [5, 15], [1.0, 0.5, 0.1]),
               v1.train.polynomial_decay(0.1, step, 20, end_learning_rate=0.01, power=2.0),
               v1.train.polynomial_decay(0.1, step, 20, cycle=True),
               v1.train.inverse_time_decay(0.1, step, 10, 0.5),
               v1.train.inverse_time_decay(0.1, step, 10, 0.5, staircase=True),
               v1.train.natural_exp_decay(0.1, step, 10, 0.5),
               v1.train.cosine_decay(0.1, step, 20, alpha=0.1)]
        assert [t.name for t in lrs][:2] == ["ExponentialDecay:0", "ExponentialDecay_1:0"]
        assert lrs[3].name == "PolynomialDecay:0" and lrs[5].name == "InverseTimeDecay:0"
        inc = step.assign(step + 7)
        got = []
        with v1.Session() as s:
            s.run(v1.global_variables_initializer())
            for _ in range(4):
                got.append(s.run(lrs))
                s.run(inc)
    want = [[0.1, 0.1, 1.0, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1],
            [0.061557, 0.1, 0.5, 0.048025, 0.065035, 0.074074, 0.1, 0.070469, 0.07543],
            [0.037893, 0.05, 0.5, 0.0181, 0.03007, 0.058824, 0.066667, 0.049659, 0.02855],
            [0.023326, 0.025, 0.1, 0.01, 0.047553, 0.04878, 0.05, 0.034994, 0.01]]
    np.testing.assert_allclose(got, want, atol=1e-6)
    lr = v1.train.exponential_decay(0.1, tf.Variable(3), 10, 0.5)
    assert callable(lr) and float(lr()) == pytest.approx(0.081225, abs=1e-6)
    with pytest.raises(ValueError, match="global_step is required for exponential_decay."):
        v1.train.exponential_decay(0.1, None, 10, 0.5)
