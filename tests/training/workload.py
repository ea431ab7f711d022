"""The training workload the optimizer tests run, written against a module `tf` so the very same
code runs with TensorFlow 2.21 (to make `reference.json`, see `make_reference.py`) and with
tracegraph (the tests). A linear model on fixed data; the gradient of the mean squared error is
written out with ops, so the comparison checks the optimizers and nothing else."""

import numpy as np

STEPS = 20


def data():
    rng = np.random.default_rng(7)
    x = rng.normal(size=(32, 4)).astype(np.float32)
    w_true = np.array([[1.5], [-2.0], [0.5], [3.0]], np.float32)
    y = (x @ w_true + 0.7 + 0.1 * rng.normal(size=(32, 1))).astype(np.float32)
    w0 = rng.normal(size=(4, 1)).astype(np.float32)
    return x, y, w0


def make_optimizer(tf, spec):
    """`spec` is (class name, kwargs, schedule or None) with the schedule as (name, kwargs)."""
    name, kwargs, schedule = spec
    kwargs = dict(kwargs)
    if schedule is not None:
        sname, skwargs = schedule
        kwargs["learning_rate"] = getattr(tf.optimizers.schedules, sname)(**skwargs)
    return getattr(tf.optimizers, name)(**kwargs)


CONFIGS = {
    "sgd": ("SGD", {"learning_rate": 0.1}, None),
    "sgd_momentum": ("SGD", {"learning_rate": 0.05, "momentum": 0.9}, None),
    "sgd_nesterov": ("SGD", {"learning_rate": 0.05, "momentum": 0.9, "nesterov": True}, None),
    "sgd_clipnorm": ("SGD", {"learning_rate": 0.1, "clipnorm": 0.5}, None),
    "sgd_clipvalue": ("SGD", {"learning_rate": 0.1, "clipvalue": 0.1}, None),
    "sgd_weight_decay": ("SGD", {"learning_rate": 0.1, "weight_decay": 0.05}, None),
    "adam": ("Adam", {"learning_rate": 0.1}, None),
    "adam_amsgrad": ("Adam", {"learning_rate": 0.1, "amsgrad": True}, None),
    "adam_global_clipnorm": ("Adam", {"learning_rate": 0.1, "global_clipnorm": 0.5}, None),
    "adamw": ("AdamW", {"learning_rate": 0.1, "weight_decay": 0.01}, None),
    "rmsprop": ("RMSprop", {"learning_rate": 0.05}, None),
    "rmsprop_centered_momentum": ("RMSprop", {"learning_rate": 0.02, "momentum": 0.5,
                                              "centered": True}, None),
    "adagrad": ("Adagrad", {"learning_rate": 0.5}, None),
    "sgd_exponential_decay": ("SGD", {}, ("ExponentialDecay", {
        "initial_learning_rate": 0.2, "decay_steps": 5, "decay_rate": 0.5, "staircase": True})),
    "sgd_exponential_smooth": ("SGD", {}, ("ExponentialDecay", {
        "initial_learning_rate": 0.2, "decay_steps": 7, "decay_rate": 0.8})),
    "adam_piecewise": ("Adam", {}, ("PiecewiseConstantDecay", {
        "boundaries": [5, 10], "values": [0.1, 0.05, 0.01]})),
    "sgd_cosine": ("SGD", {}, ("CosineDecay", {
        "initial_learning_rate": 0.2, "decay_steps": 15, "alpha": 0.1})),
    "sgd_cosine_warmup": ("SGD", {}, ("CosineDecay", {
        "initial_learning_rate": 0.0, "decay_steps": 10, "warmup_target": 0.2,
        "warmup_steps": 5})),
}


def train(tf, spec, in_function: bool, steps: int = STEPS):
    """Trains the linear model for `steps` steps; returns the final (w, b) as NumPy arrays."""
    x_np, y_np, w0 = data()
    x, y = tf.constant(x_np), tf.constant(y_np)
    w = tf.Variable(w0, name="w")
    b = tf.Variable(tf.zeros([1]), name="b")
    optimizer = make_optimizer(tf, spec)

    def step():
        residual = tf.matmul(x, w) + b - y
        n = float(x_np.shape[0])
        grad_w = tf.matmul(x, residual, transpose_a=True) * (2.0 / n)
        grad_b = tf.reduce_sum(residual, axis=0) * (2.0 / n)
        optimizer.apply_gradients(zip([grad_w, grad_b], [w, b]))

    run = tf.function(step) if in_function else step
    for _ in range(steps):
        run()
    return w.numpy(), b.numpy()


def train_with_tape(tf, spec, in_function: bool, steps: int = STEPS):
    """The same training with the gradient from tf.GradientTape and `apply_gradients`."""
    x_np, y_np, w0 = data()
    x, y = tf.constant(x_np), tf.constant(y_np)
    w = tf.Variable(w0, name="w")
    b = tf.Variable(tf.zeros([1]), name="b")
    optimizer = make_optimizer(tf, spec)

    def step():
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(tf.square(tf.matmul(x, w) + b - y))
        grads = tape.gradient(loss, [w, b])
        optimizer.apply_gradients(zip(grads, [w, b]))
        return loss

    run = tf.function(step) if in_function else step
    for _ in range(steps):
        run()
    return w.numpy(), b.numpy()
